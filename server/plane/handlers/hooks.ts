import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { z } from 'zod';
import { FleetError } from '../../../contracts/index.js';
import type { hookCheck as hookCheckSpec } from '../../../contracts/methods/hooks.js';
import type { Caller, Ctx } from '../../core/context.js';
import { agentStatus } from '../../core/liveness.js';
import { checkPaths } from '../../core/path-check.js';
import type { AgentRecord } from '../../core/state.js';
import type { Session } from '../session.js';
import { existingAncestor } from '../existing-ancestor.js';
import type { PlaneServices } from './handler.js';

/** At most this many override events per call: one per refused path, a huge commit stays readable. */
const MAX_OVERRIDE_EVENTS = 100;

type Params = z.infer<typeof hookCheckSpec.params>;
type Body = Omit<z.infer<typeof hookCheckSpec.result>, 'control'>;

/** Typed from the spec itself, so it compiles before and after the method joins the table. */
export const hookCheck = (params: Params, session: Session, { core, scopes }: PlaneServices): Body => {
  const scope = scopes.resolve(params.root);
  const paths = params.paths.map((p) => scopes.toRelative(scope, p));
  return core.run(session.caller, (ctx) => {
    const agent = params.callsign !== undefined ? agentByCallsign(ctx, params.callsign) : params.worktree !== undefined ? agentByWorktree(ctx, params.worktree) : undefined;
    const writer: Caller = agent ? { kind: 'agent', agentId: agent.agentId } : session.caller;
    const checked = checkPaths(ctx, writer, scope.id, paths);
    const results = !agent && params.agentOnly ? checked.map((r) => ({ ...r, allowed: false })) : checked;
    const allowed = results.every((r) => r.allowed);
    const overridden = !allowed && params.override !== undefined;
    if (overridden) {
      for (const refused of results.filter((r) => !r.allowed).slice(0, MAX_OVERRIDE_EVENTS)) {
        ctx.emit({ type: 'override.used', by: agent?.callsign ?? 'operator', path: refused.path, reason: params.override!, hook: params.hook });
      }
    }
    return {
      agent: agent ? { callsign: agent.callsign, status: agentStatus(agent, ctx.now, ctx.config) } : null,
      allowed,
      overridden,
      results,
    };
  });
};

/** The live agent of that callsign, else its latest record (gone agents hold nothing). */
function agentByCallsign(ctx: Ctx, callsign: string): AgentRecord {
  const liveId = ctx.indexes.liveCallsigns.get(callsign);
  if (liveId !== undefined) return ctx.state.agents.get(liveId)!;
  let latest: AgentRecord | undefined;
  for (const agent of ctx.state.agents.values()) {
    if (agent.callsign === callsign && (!latest || agent.joinedAt >= latest.joinedAt)) latest = agent;
  }
  if (!latest) throw new FleetError('NOT_FOUND', `no agent ${callsign} on the roster: join first (fleet join --callsign ${callsign} …, or the fleet_agent_join tool)`);
  return latest;
}

/** The live agent whose registered worktree most closely contains `path`; several are ambiguous. */
function agentByWorktree(ctx: Ctx, path: string): AgentRecord | undefined {
  const target = canonical(path);
  let best: AgentRecord[] = [];
  let bestLength = -1;
  for (const agent of ctx.state.agents.values()) {
    if (agent.gone || agent.worktree === undefined) continue;
    const root = canonical(agent.worktree);
    if (target !== root && !target.startsWith(root.endsWith(sep) ? root : root + sep)) continue;
    if (root.length > bestLength) {
      best = [agent];
      bestLength = root.length;
    } else if (root.length === bestLength) {
      best.push(agent);
    }
  }
  if (best.length > 1) {
    const names = best.map((a) => a.callsign).sort();
    throw new FleetError('INVALID_PARAMS', `several live agents registered the worktree ${best[0]!.worktree} (${names.join(', ')}): set FLEET_AS to the callsign that is writing`, { candidates: names });
  }
  return best[0];
}

/** Symlinked temp dirs (/tmp → /private/tmp) must not hide a match; paths that do not exist yet keep their form. */
function canonical(path: string): string {
  const absolute = resolve(path);
  // A file about to be created: canonicalise its nearest existing ancestor.
  const { existing, missing } = existingAncestor(absolute);
  try {
    return [realpathSync(existing), ...missing].join(sep);
  } catch {
    return absolute;
  }
}

/** This feature's keyed table, merged by the index like the others (typed there, once it is in the method table). */
export const hookHandlers = { fleet_hook_check: hookCheck };
