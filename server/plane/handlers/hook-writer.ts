import { sep } from 'node:path';
import { FleetError } from '../../../contracts/index.js';
import type { Credential, Ctx } from '../../core/context.js';
import { agentOfHookSession } from '../../core/hook-sessions.js';
import type { AgentRecord } from '../../core/state.js';
import { realPath } from '../../gate/real-path.js';
import { sessionKey } from './session-key.js';

/** At most this many override events per call: one per refused path, a huge commit stays readable. */
const MAX_OVERRIDE_EVENTS = 100;

/** What a hook says about who is writing: FLEET_AS, the payload's session_id, the processes it runs under, where it writes. */
export interface WriterHints {
  callsign?: string | undefined;
  sessionId?: string | undefined;
  runtimePids?: number[] | undefined;
  where?: string | undefined;
}

/**
 * Who is writing, decided by the session, never by the file (DESIGN §11): the agent named by
 * FLEET_AS, else the live agent the session is bound to, else the live agent whose registered
 * runtime process runs the hook (the one this runtime's MCP bridge joined), else — only where no
 * session exists (git's pre-commit, a script) — the live agent that registered the worktree
 * containing `where`. A session is never taken for an agent another session or process joined.
 */
export function findWriter(ctx: Ctx, hints: WriterHints): AgentRecord | undefined {
  return findWriterBy(ctx, hints)?.agent;
}

/** findWriter, saying which rule found the agent. */
export function findWriterBy(ctx: Ctx, { callsign, sessionId, runtimePids, where }: WriterHints): { agent: AgentRecord; by: 'callsign' | 'session' | 'process' | 'worktree' } | undefined {
  if (callsign !== undefined) return { agent: agentByCallsign(ctx, callsign), by: 'callsign' };
  const bound = sessionId !== undefined ? agentOfHookSession(ctx.state, sessionKey(sessionId)) : undefined;
  if (bound) return { agent: bound, by: 'session' };
  const running = runtimePids !== undefined ? agentOfRuntime(ctx, runtimePids) : undefined;
  if (running) return { agent: running, by: 'process' };
  if (sessionId !== undefined) return undefined;
  const found = where !== undefined ? agentByWorktree(ctx, where) : undefined;
  return found && { agent: found, by: 'worktree' };
}

/**
 * A service token (the TLS listener's remote agents) names its own agent and nobody else: the
 * session, process and worktree rules are this machine's, and a remote caller that reached them
 * could act as a local session (read its id from the events, bind it, write as it).
 */
export function writerHintsFor(credential: Credential, hints: WriterHints): WriterHints {
  if (typeof credential !== 'object') return hints;
  if (hints.callsign !== undefined && hints.callsign !== credential.callsign) {
    throw new FleetError('FORBIDDEN', `a service token speaks only for ${credential.callsign}: it cannot name ${hints.callsign} as the writer`);
  }
  return { callsign: credential.callsign };
}

/** The live agent whose registered process is one of `pids` (the nearest ancestor wins). */
function agentOfRuntime(ctx: Ctx, pids: number[]): AgentRecord | undefined {
  let nearest: { agent: AgentRecord; at: number } | undefined;
  for (const agent of ctx.state.agents.values()) {
    const at = agent.gone || agent.pid === undefined ? -1 : pids.indexOf(agent.pid);
    if (at >= 0 && (!nearest || at < nearest.at)) nearest = { agent, at };
  }
  return nearest?.agent;
}

/** The operator's FLEET_OVERRIDE let these paths through: each is recorded. */
export function recordOverrides(ctx: Ctx, agent: AgentRecord | undefined, paths: string[], reason: string, hook: string): void {
  for (const path of paths.slice(0, MAX_OVERRIDE_EVENTS)) ctx.emit({ type: 'override.used', by: agent?.callsign ?? 'operator', path, reason, hook });
}

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
  const target = realPath(path);
  let best: AgentRecord[] = [];
  let bestLength = -1;
  for (const agent of ctx.state.agents.values()) {
    if (agent.gone || agent.worktree === undefined) continue;
    const root = realPath(agent.worktree);
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


