// Agents spread over several planes of one fleet, claiming and releasing overlapping patterns at
// random. What each saw acknowledged is recorded, to be judged against the stream afterwards.
import type { PlaneClient } from '../../server/client/plane-client.js';
import { PlaneCallError } from '../../server/client/plane-client.js';
import type { PlaneProcess } from './plane-process.js';
import { PATTERN_UNIVERSE } from './pattern-universe.js';
import type { SeededRandom } from './seeded-random.js';

export interface AckedGrant {
  claimId: string;
  fence: number;
  plane: number;
}

export interface LoadOutcome {
  acked: AckedGrant[];
  refused: number;
  /** Calls that failed with an error; `allowed` names the error codes a caller should see and retry. */
  errors: Map<string, number>;
}

export interface LoadOptions {
  /** Agents on each plane. */
  agentsPerPlane: number;
  opsPerAgent: number;
  root: string;
  random: SeededRandom;
  /** A fault injected once this many ops are done; the load returns after it completed too. */
  faultAt?: { op: number; inject(): Promise<void> };
}

/** Runs the load on `planes` (by index; a plane may be killed meanwhile, its agents then stop). */
export async function runCrossPlaneLoad(planes: readonly PlaneProcess[], options: LoadOptions): Promise<LoadOutcome> {
  const outcome: LoadOutcome = { acked: [], refused: 0, errors: new Map() };
  let done = 0;
  let fault: Promise<void> | undefined;
  const agent = async (plane: number, index: number) => {
    const random = options.random.fork(plane * 100 + index);
    let client: PlaneClient;
    try {
      client = await planes[plane]!.connect(`agent-${plane}-${index}`);
      await client.call('fleet_agent_join', { callsign: `P${plane}A${index}`, runtime: 'script' });
    } catch (error) {
      count(outcome, error);
      return;
    }
    const held: string[] = [];
    for (let op = 0; op < options.opsPerAgent; op++) {
      try {
        if (held.length > 0 && (held.length >= 2 || random.chance(0.4))) {
          await client.call('fleet_release_path', { claimIds: held.splice(random.int(0, held.length - 1), 1), root: options.root });
        } else {
          const spec = PATTERN_UNIVERSE[random.int(0, PATTERN_UNIVERSE.length - 1)]!;
          const reply = await client.call('fleet_claim_path', { patterns: [spec.input], mode: random.chance(0.3) ? 'shared' : 'exclusive', root: options.root });
          if (reply.granted) {
            for (const claim of reply.claims) {
              held.push(claim.id);
              outcome.acked.push({ claimId: claim.id, fence: claim.fence, plane });
            }
          } else outcome.refused++;
        }
      } catch (error) {
        count(outcome, error);
        if (!(error instanceof PlaneCallError)) return; // the connection is gone (its plane was killed)
      }
      if (++done === options.faultAt?.op) fault = options.faultAt.inject();
    }
    client.close();
  };
  await Promise.all(planes.flatMap((_, plane) => Array.from({ length: options.agentsPerPlane }, (_, index) => agent(plane, index))));
  await fault;
  return outcome;
}

function count(outcome: LoadOutcome, error: unknown): void {
  const name = error instanceof PlaneCallError ? (error.errorName ?? String(error.code)) : 'connection';
  outcome.errors.set(name, (outcome.errors.get(name) ?? 0) + 1);
}
