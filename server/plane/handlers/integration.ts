import { FleetError } from '../../../contracts/index.js';
import { conflictsOf, writeSetView } from '../../core/integration-forecast.js';
import type { State } from '../../core/state.js';
import type { HandlerTable } from './handler.js';

export const integrationHandlers = {
  fleet_conflicts: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const agentId = params.callsign !== undefined ? writeSetHolder(ctx.state, ctx.indexes.liveCallsigns, params.callsign) : params.worktree !== undefined ? writeSetOfWorktree(ctx.state, params.worktree) : undefined;
      if (params.callsign !== undefined && agentId === undefined) {
        throw new FleetError('NOT_FOUND', `no live agent ${params.callsign}: write-sets and forecasts are kept for live agents (fleet roster lists them) and for gone builders whose items await landing (fleet conflicts lists them all)`, { callsign: params.callsign });
      }
      // A worktree no write-set belongs to has no conflicts (a hook asks for every worktree).
      if (params.worktree !== undefined && agentId === undefined) return { writeSets: [], conflicts: [] };
      const writeSets = [...ctx.state.writeSets.values()].filter((w) => agentId === undefined || w.agentId === agentId).map(writeSetView);
      return { writeSets, conflicts: conflictsOf(ctx.state, agentId, params.paths) };
    }),
} satisfies Partial<HandlerTable>;

/** The live agent of that callsign, else a gone builder of that callsign whose write-set is kept for its items awaiting landing. */
function writeSetHolder(state: State, liveCallsigns: ReadonlyMap<string, string>, callsign: string): string | undefined {
  return liveCallsigns.get(callsign) ?? [...state.writeSets.values()].find((record) => record.awaitingLanding !== undefined && record.callsign === callsign)?.agentId;
}

/** The write-set of a worktree: its live agent's before a gone builder's kept there for its items awaiting landing. */
function writeSetOfWorktree(state: State, worktree: string): string | undefined {
  const records = [...state.writeSets.values()].filter((record) => record.worktree === worktree);
  return (records.find((record) => record.awaitingLanding === undefined) ?? records[0])?.agentId;
}
