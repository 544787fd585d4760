import type { FleetCore } from '../../core/fleet-core.js';
import { GitQueue } from '../git/git-queue.js';
import { WriteSetTracker } from '../write-sets/write-set-tracker.js';
import { Forecaster } from './forecaster.js';

/** Git processes write-sets and forecasts may run at once, whatever the fleet's size. */
const GIT_WIDTH = 2;

/** Write-sets and the conflict forecast of one plane: the tracker tells the forecaster each change. */
export function startConflictForecast(core: FleetCore, log: (message: string) => void): WriteSetTracker {
  const queue = new GitQueue(GIT_WIDTH);
  let forecaster: Forecaster | undefined = undefined;
  const tracker = new WriteSetTracker(core, queue, (agentId) => forecaster!.forecast(agentId), log);
  // Another plane's agent (a shared log): its write-set event names its snapshot commit, mergeable here when this repository has its objects.
  const recorded = (agentId: string) => {
    const record = core.state.writeSets.get(agentId);
    return record && { commit: record.commit };
  };
  forecaster = new Forecaster(core, queue, (agentId) => tracker.sideOf(agentId) ?? recorded(agentId), log);
  return tracker;
}
