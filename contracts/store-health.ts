import { z } from 'zod';

/**
 * Which store the plane runs on and how it is doing (DESIGN §13). `unavailable`: cut off from a
 * quorum of the JetStream cluster, so mutations are refused (STORE_UNAVAILABLE) and reads come
 * from the replica as it was `staleSeconds` ago; it recovers by itself.
 */
export const storeHealthSchema = z.object({
  kind: z.enum(['embedded', 'nats']),
  health: z.enum(['ok', 'unavailable']),
  /** For nats: the fleet's name (FLEET_NAME) and its stream. */
  fleet: z.string().optional(),
  stream: z.string().optional(),
  servers: z.array(z.string()).optional(),
  /** How long ago the replica last heard from the cluster, when that is more than a moment. */
  staleSeconds: z.number().optional(),
  /** While unavailable: when the replica last heard from the cluster (reads are as of then). */
  lastContactAt: z.iso.datetime().optional(),
  /** Why it is unavailable, or a clock skew seen between planes: one sentence each. */
  problems: z.array(z.string()).optional(),
});
export type StoreHealth = z.infer<typeof storeHealthSchema>;
