import { z } from 'zod';
import { fleetEventSchema } from '../events.js';
import { defineMethod, withControl } from '../method.js';
import { boundedText, limits } from '../limits.js';
import { agentSchema, claimSchema, controlSchema, parkedClaimSchema } from '../records.js';
import { storeHealthSchema } from '../store-health.js';
import { pageParams, pageResult } from './paging.js';

export const planeHello = defineMethod({
  name: 'fleet_plane_hello',
  summary: 'Exchange protocol versions; clients call it first and refuse a mismatch.',
  params: z.strictObject({ protocolVersion: z.number().int(), client: boundedText(limits.label).optional() }),
  result: withControl({ protocolVersion: z.number().int(), planeVersion: z.string(), pid: z.number().int() }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});

export const planeStatus = defineMethod({
  name: 'fleet_status',
  summary: 'One view of the plane: the control switch, the roster and the live claims.',
  params: z.strictObject({ includeGone: z.boolean().optional(), ...pageParams }),
  result: withControl({
    plane: z.object({ version: z.string(), pid: z.number().int(), port: z.number().int(), socket: z.string().optional(), listen: z.string().optional().describe('ADDR:PORT of the TLS listener for remote agents (--listen), when it serves'), startedAt: z.iso.datetime(), seq: z.number().int(), store: storeHealthSchema.optional(), agentTtlSeconds: z.number().positive().optional().describe('FLEET_AGENT_TTL: an agent-bound claim lapses 2 × this after its agent\'s last heartbeat') }),
    controlDetail: controlSchema,
    agents: z.array(agentSchema),
    claims: z.array(claimSchema),
    parkedClaims: z.array(parkedClaimSchema).describe('Claims parked when two scopes merged: each waits until the claims it overlaps are released, then is granted'),
    ...pageResult(['agents', 'claims', 'parkedClaims']),
  }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});

export const eventsSubscribe = defineMethod({
  name: 'fleet_events_subscribe',
  summary:
    'Receive every new event on this connection as `fleet_event` notifications; with fromSeq, first replay the events after it. A subscriber that falls behind reading them gets one `fleet_events_gap` notification instead of a backlog, and no more events: subscribe again with its fromSeq to resume (and refetch state if you keep a copy). A change of the store\'s health (cut off from a quorum, back, a clock skew seen or gone) comes as a `fleet_store_health` notification.',
  params: z.strictObject({ fromSeq: z.number().int().min(0).optional() }),
  result: withControl({ seq: z.number().int() }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});

/** Shape of the `fleet_event` notification pushed to subscribers. */
export const eventNotificationSchema = z.object({ event: fleetEventSchema });

export const EVENT_NOTIFICATION = 'fleet_event';
/** Ends a subscription whose client fell behind reading events, instead of buffering for it without bound. */
export const EVENTS_GAP_NOTIFICATION = 'fleet_events_gap';

/** Shape of the `fleet_events_gap` notification: `fromSeq` is the last event sent; subscribing with it replays everything after. */
export const eventsGapNotificationSchema = z.object({ fromSeq: z.number().int().min(0), reason: z.string() });
export type EventsGapNotification = z.infer<typeof eventsGapNotificationSchema>;

/** Pushed to event subscribers when the store's health changes: health events are not log events (a cut-off plane could not log them). */
export const STORE_HEALTH_NOTIFICATION = 'fleet_store_health';

/** Shape of the `fleet_store_health` notification: the store as `fleet_status` shows it in plane.store. */
export const storeHealthNotificationSchema = z.object({ store: storeHealthSchema });
export type StoreHealthNotification = z.infer<typeof storeHealthNotificationSchema>;

export const planeShutdown = defineMethod({
  name: 'fleet_plane_shutdown',
  summary: 'End the plane process (not the fleet switch): state is flushed and a snapshot written first.',
  params: z.strictObject({}),
  result: withControl({ shuttingDown: z.boolean() }),
  access: 'operator',
  mutates: false,
  mcpTool: false,
});
