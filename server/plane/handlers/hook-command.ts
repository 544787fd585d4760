import { homedir } from 'node:os';
import { dirname, isAbsolute } from 'node:path';
import type { z } from 'zod';
import { FleetError } from '../../../contracts/index.js';
import type { hookCheckCommand as spec } from '../../../contracts/methods/hooks.js';
import type { Caller, Ctx } from '../../core/context.js';
import { claimExpiresAt, agentStatus } from '../../core/liveness.js';
import { GlobBudget } from '../../core/glob/index.js';
import { checkPaths } from '../../core/path-check.js';
import { compileClaimPattern } from '../../core/patterns.js';
import type { AgentRecord, ClaimRecord } from '../../core/state.js';
import { callsignOf, iso } from '../../core/views.js';
import { refusalsFor } from '../../gate/identity-rules.js';
import { existingDirectory, realPath } from '../../gate/real-path.js';
import { absoluteTarget } from '../../gate/shell-analysis.js';
import { withoutReading, withScriptFiles } from '../../gate/script-files.js';
import { concreteWrites, type WriteCheck } from '../../gate/shell-targets.js';
import type { Scope, ScopeResolver } from '../repository/scope-resolver.js';
import type { Session } from '../rpc/session.js';
import type { PlaneServices } from './handler.js';
import { hookCallWriter, markForAllowedCall } from './hook-mark.js';
import { recordOverrides, writerHintsFor } from './hook-writer.js';

type Params = z.infer<typeof spec.params>;
type Body = Omit<z.infer<typeof spec.result>, 'control'>;
type Refused = Body['refused'][number];

const MAX_HOLDERS_LISTED = 5;
const MAX_NOTES = 20;

/** A write located in its repository, or in none (then nobody's: allowed). */
type Located = WriteCheck & { scope?: Scope; relative?: string; fromTokens?: boolean };

/** fleet_hook_check_command: parse, locate each named write on disk, then judge it in the core. */
export const hookCheckCommand = async (params: Params, session: Session, { core, scopes, home, shell, worktrees }: PlaneServices): Promise<Body> => {
  if (!isAbsolute(params.cwd)) throw new FleetError('INVALID_PARAMS', `cwd "${params.cwd}" must be an absolute path: the directory the command runs in (the hook payload's cwd)`, { cwd: params.cwd });
  const homes = [...new Set([home, realPath(home)])];
  const known = { HOME: homedir(), FLEET_HOME: home };
  // A remote agent's scripts, programs and git configuration are on its own machine: the plane never reads its own disk for one (nor says what is there).
  const remote = typeof session.credential === 'object';
  const command = await shell.analyze(params.command, params.cwd, known, homes, !remote);
  const { analysis, notes } = remote ? { analysis: withoutReading(command), notes: [] } : await withScriptFiles(command, known, (script, cwd, scriptKnown) => shell.analyze(script, cwd, scriptKnown, homes, true));
  if (analysis.parseError !== undefined) notes.push(`The command was not parsed (${analysis.parseError}): only the paths its words name were checked, and one another agent holds exclusively is refused.`);
  if (analysis.namedWrites > analysis.writes.length) notes.push(`The command names ${analysis.namedWrites} writes: the first ${analysis.writes.length} were checked.`);
  const located: Located[] = concreteWrites(analysis.writes).map((check) => locate(check, scopes));
  // Words of what was not parsed (the command, or a script inside it): a path another holds exclusively refuses it.
  for (const token of analysis.tokens) {
    located.push({ ...locate({ kind: 'file', path: realPath(absoluteTarget(token, params.cwd)), via: 'a word of the unparsed command', shown: token }, scopes), fromTokens: true });
  }
  for (const write of located) if (write.kind === 'unknown') notes.push(`${write.shown} (${write.via}): nothing says where it points, so it was not checked.`);

  let marker: string | undefined;
  const verdict = core.run(session.caller, (ctx) => {
    const found = hookCallWriter(ctx, writerHintsFor(session.credential, { callsign: params.callsign, sessionId: params.sessionId, runtimePids: params.runtimePids, where: params.cwd }), params.hook);
    const agent = found.agent;
    marker = found.marker;
    const identity = agent || params.fromRuntime ? refusalsFor(analysis.findings, agent?.callsign) : [];
    const refused: Refused[] = [];
    // Bounded by the analysis (500 writes, 500 tokens), the symlink scan's budget and one glob budget for the command.
    const budget = GlobBudget.forRequest();
    for (const write of located) {
      const verdict = judge(ctx, write, agent, agent ? { kind: 'agent', agentId: agent.agentId } : session.caller, budget);
      if (verdict) refused.push(verdict);
    }
    const overridden = refused.length > 0 && identity.length === 0 && params.override !== undefined;
    if (overridden) recordOverrides(ctx, agent, refused.map((r) => r.path), params.override!, params.hook);
    return {
      agent: agent ? { callsign: agent.callsign, status: agentStatus(agent, ctx.now, ctx.config) } : null,
      allowed: identity.length === 0 && (refused.length === 0 || overridden),
      overridden,
      refused,
      identity,
      notes: [...new Set(notes)].slice(0, MAX_NOTES),
    };
  });
  return params.mark && verdict.allowed ? { ...verdict, mark: await markForAllowedCall(worktrees, params.mark, marker) } : verdict;
};

/** Finds the repository of each write; writes outside every repository are nobody's territory. */
function locate(check: WriteCheck, scopes: ScopeResolver): Located {
  if (check.kind === 'unknown') return check;
  const at = check.kind === 'file' ? existingDirectory(dirname(check.path)) : existingDirectory(check.dir);
  let scope: Scope;
  try {
    scope = scopes.resolve(at);
  } catch (error) {
    if (error instanceof FleetError && error.errorName === 'OUTSIDE_REPOSITORY') return check;
    throw error;
  }
  if (check.kind === 'file') return { ...check, scope, relative: scopes.relativePath(scope, check.path) };
  if (check.kind === 'worktree') return { ...check, scope };
  const dir = scopes.relativePath(scope, check.dir);
  return { ...check, scope, relative: dir === '' ? check.pattern : `${dir}/${check.pattern}` };
}

function judge(ctx: Ctx, write: Located, agent: AgentRecord | undefined, writer: Caller, budget: GlobBudget): Refused | undefined {
  if (write.scope === undefined || write.kind === 'unknown') return undefined;
  const refusal = (path: string, holders: Refused['holders']): Refused => ({ path, written: write.shown, via: write.via, holders });
  if (write.kind === 'file') {
    const [result] = checkPaths(ctx, writer, write.scope.id, [write.relative!]);
    const othersExclusive = result!.holders.some((h) => h.mode === 'exclusive' && h.callsign !== agent?.callsign);
    // A word of an unparsed command may not be a path at all: only another's exclusive claim refuses it.
    const allowed = write.fromTokens ? !othersExclusive : result!.allowed;
    return allowed ? undefined : refusal(result!.path, result!.holders);
  }
  if (write.kind === 'pattern') {
    const held = othersExclusive(ctx, write.scope.id, patternOf(write.relative!), agent, budget);
    return held.length > 0 ? refusal(write.relative!, held.slice(0, MAX_HOLDERS_LISTED).map((c) => holder(ctx, c))) : undefined;
  }
  // The whole worktree: refused while another live agent working in this same worktree holds files in it.
  const root = realPath(write.scope.worktree);
  const neighbours = new Set([...ctx.state.agents.values()].filter((a) => !a.gone && a !== agent && a.worktree !== undefined && realPath(a.worktree) === root).map((a) => a.agentId));
  const held = othersExclusive(ctx, write.scope.id, patternOf('**'), agent, budget).filter((c) => neighbours.has(c.agentId));
  return held.length > 0 ? refusal(`${write.scope.worktree} (every file)`, held.slice(0, MAX_HOLDERS_LISTED).map((c) => holder(ctx, c))) : undefined;
}

/** A glob as written may use syntax claims do not (extglobs): then its literal directory stands for it. */
function patternOf(glob: string) {
  try {
    return compileClaimPattern(glob);
  } catch {
    const literal = glob.split('/').filter((segment, i, all) => all.slice(0, i + 1).every((s) => !/[*?[{(!@+]/.test(s)) && segment !== '');
    return compileClaimPattern(literal.length > 0 ? `${literal.join('/')}/**` : '**');
  }
}

/** Others' exclusive claims a glob may meet; one the budget could not decide counts as met (refuse, never let through unseen). */
function othersExclusive(ctx: Ctx, scope: string, pattern: ReturnType<typeof compileClaimPattern>, agent: AgentRecord | undefined, budget: GlobBudget): ClaimRecord[] {
  const matters = (claim: ClaimRecord) => claim.mode === 'exclusive' && claim.agentId !== agent?.agentId;
  return [...ctx.indexes.territory.overlapping(scope, pattern, budget, matters)].map((meeting) => meeting.claim);
}

function holder(ctx: Ctx, claim: ClaimRecord): Refused['holders'][number] {
  return { callsign: callsignOf(ctx.state, claim.agentId), mode: claim.mode, pattern: claim.pattern, expiresAt: iso(claimExpiresAt(claim, ctx.state, ctx.config)) };
}
