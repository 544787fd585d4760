import type { FleetEvent } from '../../contracts/index.js';
import type { State } from './state.js';

type TrainEvent = Extract<FleetEvent, { type: `integration.${'configured' | 'queued' | 'batch' | 'batch_ended' | 'left'}` }>;

/** How many items that left the train stay in state for `fleet integrate status` (the log keeps all). */
export const MAX_KEPT_TRAIN_HISTORY = 200;

/** The reducer's half for the train (see reducer.ts and integration-train.ts). */
export function applyTrainEvent(state: State, event: TrainEvent): void {
  switch (event.type) {
    case 'integration.configured': {
      const { scope, target, remote, push, batchSize, buildCommand, timeoutSeconds, landOnAccept, releaseAt } = event;
      state.integrationConfigs.set(scope, {
        scope,
        push,
        batchSize,
        landOnAccept,
        releaseAt,
        ...(target !== undefined && { target }),
        ...(remote !== undefined && { remote }),
        ...(buildCommand !== undefined && { buildCommand }),
        ...(timeoutSeconds !== undefined && { timeoutSeconds }),
        configuredBy: event.by ?? 'operator',
      });
      return;
    }
    case 'integration.queued':
      // Queued again (after rework): it goes to the back of the queue.
      state.train.delete(event.itemId);
      state.train.set(event.itemId, { itemId: event.itemId, scope: event.scope, branch: event.branch, commit: event.commit, target: event.target, repository: event.repository, ...(event.revert !== undefined && { revert: event.revert }), ...(event.revertFrom !== undefined && { revertFrom: event.revertFrom }), status: 'queued', queuedBy: event.by ?? 'unknown', queuedAt: event.at });
      return;
    case 'integration.batch':
      state.trainBatches.set(event.scope, { scope: event.scope, itemIds: event.itemIds, base: event.base, ...(event.tip !== undefined && { tip: event.tip }), ...(event.merges !== undefined && { merges: event.merges }), at: event.at });
      // Only entries still on the train build: one that left meanwhile (landed by hand, decided) stays off.
      for (const id of event.itemIds) {
        const entry = state.train.get(id);
        if (entry?.status === 'queued' || entry?.status === 'building') entry.status = 'building';
      }
      return;
    case 'integration.batch_ended': {
      const batch = state.trainBatches.get(event.scope);
      state.trainBatches.delete(event.scope);
      // Items of the batch that did not leave the train wait for the next one.
      for (const id of batch?.itemIds ?? []) {
        const entry = state.train.get(id);
        if (entry?.status === 'building') entry.status = 'queued';
      }
      return;
    }
    case 'integration.left': {
      const entry = state.train.get(event.itemId);
      if (!entry) return;
      entry.status = event.status;
      entry.leftAt = event.at;
      if (event.landedCommit !== undefined) entry.landedCommit = event.landedCommit;
      if (event.reason !== undefined) entry.reason = event.reason;
      if (event.logTail !== undefined) entry.logTail = event.logTail;
      pruneTrain(state);
      return;
    }
  }
}

function pruneTrain(state: State): void {
  let left = [...state.train.values()].filter((e) => e.leftAt !== undefined).length;
  for (const entry of state.train.values()) {
    if (left <= MAX_KEPT_TRAIN_HISTORY) return;
    if (entry.leftAt === undefined) continue;
    state.train.delete(entry.itemId);
    left -= 1;
  }
}
