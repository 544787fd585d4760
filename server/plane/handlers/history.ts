import type { Result } from '../../../contracts/index.js';
import { checkedPath, compileRecordedPattern } from '../../core/patterns.js';
import { callsignOf, iso } from '../../core/views.js';
import type { HandlerTable } from './handler.js';

type Entry = Result<'fleet_path_history'>['entries'][number];

export const historyHandlers = {
  /** Reads the whole event log, so it answers for claims long gone from the live state. */
  fleet_path_history: async (params, session, { core, scopes, history, journal }) => {
    const scope = scopes.resolve(params.root);
    const path = checkedPath(scopes.toRelative(scope, params.path));
    const entries = new Map<string, Entry>();
    const upTo = journal.lastDurableSeq;
    for await (const event of history(1)) {
      if (event.seq > upTo) break;
      if (event.type === 'claim.granted' && event.scope === scope.id && compileRecordedPattern(event.pattern).matches(path)) {
        entries.set(event.claimId, {
          claimId: event.claimId,
          holder: callsignOf(core.state, event.agentId),
          pattern: event.pattern,
          mode: event.mode,
          fence: event.fence,
          ...(event.reason !== undefined && { reason: event.reason }),
          grantedAt: iso(event.at),
        });
      } else if (event.type === 'claim.released') {
        const entry = entries.get(event.claimId);
        if (entry) Object.assign(entry, { endedAt: iso(event.at), ended: event.reason, ...(event.note !== undefined && { note: event.note }) });
      }
    }
    core.run(session.caller, () => undefined); // any call counts as a heartbeat
    return { path, entries: [...entries.values()] };
  },
} satisfies Partial<HandlerTable>;
