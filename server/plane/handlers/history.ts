import type { Result } from '../../../contracts/index.js';
import { checkedPath, compileRecordedPattern } from '../../core/patterns.js';
import { violationOf, violationView } from '../../core/violations.js';
import { callsignOf, iso } from '../../core/views.js';
import type { HandlerTable } from './handler.js';

type Entry = Result<'fleet_path_history'>['entries'][number];
type ViolationEntry = Result<'fleet_path_history'>['violations'][number];

export const historyHandlers = {
  /** Reads the whole event log, so it answers for claims long gone from the live state. */
  fleet_path_history: async (params, session, { core, scopes, history, journal }) => {
    const scope = scopes.forCall(params);
    const path = checkedPath(scopes.toRelative(scope, params.path));
    const entries = new Map<string, Entry>();
    const violations = new Map<string, ViolationEntry>();
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
      } else if (event.type === 'territory.violated' && event.scope === scope.id && event.path === path) {
        const { id, writer, holder, claimId, fence, source, fingerprint, at } = violationView(violationOf(event));
        violations.set(id, { id, writer, holder, claimId, fence, source, fingerprint, at, acknowledged: false });
      } else if (event.type === 'territory.violations_acknowledged') {
        for (const id of event.violationIds) {
          const violation = violations.get(id);
          if (violation) violation.acknowledged = true;
        }
      }
    }
    core.run(session.caller, () => undefined); // any call counts as a heartbeat
    return { path, entries: [...entries.values()], violations: [...violations.values()] };
  },
} satisfies Partial<HandlerTable>;
