import type { Result } from '../../../contracts/index.js';
import { checkedPath, compileRecordedPattern } from '../../core/patterns.js';
import { violationOf, violationView } from '../../core/violations.js';
import { callsignOf, iso } from '../../core/views.js';
import { isLegacyScope } from '../scope-identity.js';
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
    // Events an older plane logged name scopes by git common dir: they count once a later
    // scopes.migrated event says that dir became this scope.
    const legacyScopeOf = new Map<string, string>();
    const migratedTo = new Map<string, string>();
    const inScope = (eventScope: string, id: string) => {
      if (eventScope === scope.id) return true;
      if (!isLegacyScope(eventScope)) return false;
      legacyScopeOf.set(id, eventScope);
      return true;
    };
    const upTo = journal.lastDurableSeq;
    for await (const event of history(1)) {
      if (event.seq > upTo) break;
      if (event.type === 'claim.granted' && inScope(event.scope, event.claimId) && compileRecordedPattern(event.pattern).matches(path)) {
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
      } else if (event.type === 'territory.violated' && event.path === path && inScope(event.scope, event.violationId)) {
        const { id, writer, holder, claimId, fence, source, fingerprint, at } = violationView(violationOf(event));
        violations.set(id, { id, writer, holder, claimId, fence, source, fingerprint, at, acknowledged: false });
      } else if (event.type === 'scopes.migrated') {
        for (const { from, to } of event.renames) migratedTo.set(from, to);
      } else if (event.type === 'territory.violations_acknowledged') {
        for (const id of event.violationIds) {
          const violation = violations.get(id);
          if (violation) violation.acknowledged = true;
        }
      }
    }
    core.run(session.caller, () => undefined); // any call counts as a heartbeat
    const ours = ({ id, claimId }: { id?: string; claimId: string }) => {
      const legacy = legacyScopeOf.get(id ?? claimId);
      return legacy === undefined || migratedTo.get(legacy) === scope.id;
    };
    return { path, entries: [...entries.values()].filter((e) => ours(e)), violations: [...violations.values()].filter((v) => ours(v)) };
  },
} satisfies Partial<HandlerTable>;
