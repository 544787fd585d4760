import type { Result } from '../../../contracts/index.js';
import { checkedPath, compileRecordedPattern } from '../../core/patterns.js';
import { violationOf, violationView } from '../../core/violations.js';
import { callsignOf, iso } from '../../core/views.js';
import { isLegacyScope } from '../repository/scope-identity.js';
import { page, pagedList } from '../rpc/pager.js';
import type { ScopeResolver } from '../repository/scope-resolver.js';
import type { HandlerTable } from './handler.js';

type Entry = Result<'fleet_path_history'>['entries'][number];
type ViolationEntry = Result<'fleet_path_history'>['violations'][number];
type ForecastEntry = Result<'fleet_path_history'>['forecasts'][number];
/** An item of the history with the seq of the event that began it, which orders its list. */
type Logged<T> = { seq: number; id: string; view: T };

/** One of the history's lists in the pager's terms: in log order (claims granted together stay in grant order). */
const loggedList = <T>(items: Map<string, Logged<T>>) =>
  pagedList({ items: items.values(), createdAt: (item) => item.seq, id: (item) => item.id, view: (item) => item.view });

export const historyHandlers = {
  /**
   * Reads the whole event log, so it answers for claims long gone from the live state; a page of
   * a long history is a scan of the log too (it reads in chunks, the plane serving others between them).
   */
  fleet_path_history: async (params, session, { core, scopes, history, journal }) => {
    const scope = scopes.forCall(params);
    const path = checkedPath(scopes.toRelative(scope, params.path));
    const entries = new Map<string, Logged<Entry>>();
    const violations = new Map<string, Logged<ViolationEntry>>();
    const forecasts = new Map<string, Logged<ForecastEntry>>();
    // A forecast names agents, not a repository: each agent's last write-set worktree says which (resolved once).
    const worktreeOf = new Map<string, string>();
    const scopeOfWorktree = new Map<string, string | undefined>();
    const inThisRepository = (agentId: string) => {
      const worktree = worktreeOf.get(agentId);
      if (worktree === undefined) return false;
      if (!scopeOfWorktree.has(worktree)) scopeOfWorktree.set(worktree, scopeIdOf(scopes, worktree));
      return scopeOfWorktree.get(worktree) === scope.id;
    };
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
          seq: event.seq,
          id: event.claimId,
          view: {
            claimId: event.claimId,
            holder: callsignOf(core.state, event.agentId),
            pattern: event.pattern,
            mode: event.mode,
            fence: event.fence,
            ...(event.reason !== undefined && { reason: event.reason }),
            grantedAt: iso(event.at),
          },
        });
      } else if (event.type === 'claim.released') {
        const entry = entries.get(event.claimId)?.view;
        if (entry) Object.assign(entry, { endedAt: iso(event.at), ended: event.reason, ...(event.note !== undefined && { note: event.note }) });
      } else if (event.type === 'territory.violated' && event.path === path && inScope(event.scope, event.violationId)) {
        const { id, writer, holder, claimId, fence, source, fingerprint, at } = violationView(violationOf(event));
        violations.set(id, { seq: event.seq, id, view: { id, writer, holder, claimId, fence, source, fingerprint, at, acknowledged: false } });
      } else if (event.type === 'integration.write_set') {
        worktreeOf.set(event.agentId, event.worktree);
      } else if (event.type === 'integration.forecast' && (event.status === 'cleared' || event.paths.includes(path)) && inThisRepository(event.agentId)) {
        const id = `${event.seq}`;
        // A clearing names no paths: it belongs here when this pair's last forecast did.
        const pair = `${[event.agentId, event.otherAgentId ?? 'target'].sort().join(' ')}`;
        const open = [...forecasts.values()].reverse().find((f) => f.id.endsWith(pair));
        if (event.status === 'cleared' && open?.view.status !== 'conflict') continue;
        const view: ForecastEntry = { status: event.status, agent: event.callsign, ...(event.branch !== undefined && { branch: event.branch }), other: event.otherCallsign ?? '(target)', otherBranch: event.otherBranch, at: iso(event.at) };
        forecasts.set(`${id} ${pair}`, { seq: event.seq, id: `${id} ${pair}`, view });
      } else if (event.type === 'scopes.migrated') {
        for (const { from, to } of event.renames) migratedTo.set(from, to);
      } else if (event.type === 'territory.violations_acknowledged') {
        for (const id of event.violationIds) {
          const violation = violations.get(id)?.view;
          if (violation) violation.acknowledged = true;
        }
      }
    }
    core.run(session.caller, () => undefined); // any call counts as a heartbeat
    const ours = <T>(items: Map<string, Logged<T>>) =>
      new Map([...items].filter(([id]) => {
        const legacy = legacyScopeOf.get(id);
        return legacy === undefined || migratedTo.get(legacy) === scope.id;
      }));
    return { path, ...page({ entries: loggedList(ours(entries)), violations: loggedList(ours(violations)), forecasts: loggedList(forecasts) }, params) };
  },
} satisfies Partial<HandlerTable>;

/** The scope of a worktree a write-set named, or undefined when it is not on this machine (any more). */
function scopeIdOf(scopes: ScopeResolver, worktree: string): string | undefined {
  try {
    return scopes.resolve(worktree).id;
  } catch {
    return undefined;
  }
}
