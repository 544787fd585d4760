import type { FleetCore } from '../../core/fleet-core.js';
import type { Journal } from '../../plane/persistence/journal.js';
import { GitQueue } from '../git/git-queue.js';
import { WriteSetTracker } from '../write-sets/write-set-tracker.js';
import { CommitReach } from './commit-reach.js';
import { Forecaster } from './forecaster.js';
import { IntegratorRole } from './integrator-role.js';

/** Git processes write-sets and forecasts may run at once, whatever the fleet's size. */
const GIT_WIDTH = 2;

/** Who integrates: the train's name for this plane as the holder of integrator leases, their TTL, and how often a lapsed one is looked for (real ms). */
export interface IntegratorLeaseTerms {
  planeName: string;
  leaseTtlMs: number;
  lookEveryMs: number;
}

/** The write-sets and the conflict forecast of one plane, and a way to stop them. */
export interface ConflictForecast {
  tracker: WriteSetTracker;
  close(): void;
}

/**
 * Write-sets and the conflict forecast of one plane: the tracker keeps this plane's agents'
 * write-sets and tells the forecaster each change; write-sets recorded on the shared log (another
 * plane's agents) reach the forecaster once durable; a timer takes over scopes whose integrator died.
 */
export function startConflictForecast(core: FleetCore, journal: Journal, lease: IntegratorLeaseTerms, log: (message: string) => void): ConflictForecast {
  const queue = new GitQueue(GIT_WIDTH);
  const role = new IntegratorRole(core, lease.planeName, lease.leaseTtlMs);
  let forecaster: Forecaster | undefined = undefined;
  const durable = (seq: number) => journal.whenDurable(seq);
  const tracker = new WriteSetTracker(core, queue, (agentId) => forecaster!.forecast(agentId), durable, log);
  forecaster = new Forecaster(core, queue, (agentId) => tracker.sideOf(agentId), role, new CommitReach(core, lease.planeName), durable, log);
  const failed = (error: unknown) => log(`forecast: ${(error as Error).message}`);
  const unsubscribe = journal.subscribe((events) => {
    for (const event of events) {
      if (event.type !== 'integration.write_set') continue;
      if (event.ended) forecaster!.forget(event.agentId);
      else forecaster!.forecastPairs(event.agentId).catch(failed);
    }
  });
  const timer = setInterval(() => forecaster!.takeOver().catch(failed), lease.lookEveryMs);
  timer.unref();
  return {
    tracker,
    close() {
      clearInterval(timer);
      unsubscribe();
      tracker.close();
    },
  };
}
