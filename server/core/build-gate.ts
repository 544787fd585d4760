import { FleetError } from '../../contracts/index.js';
import { actorName } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { BuildRunRecord } from './orchestration-records.js';

export const DEFAULT_BUILD_TIMEOUT_S = 30 * 60;
const LOG_TAIL_CHARS = 4000;

export function configureBuild(ctx: Ctx, caller: Caller, input: { scope: string; command: string; worktree: string; timeoutSeconds?: number }): void {
  ctx.emit({
    type: 'build.configured',
    by: actorName(ctx.state, caller),
    scope: input.scope,
    command: input.command,
    worktree: input.worktree,
    timeoutSeconds: input.timeoutSeconds ?? DEFAULT_BUILD_TIMEOUT_S,
  });
}

/** Any agent may ask for a build; the plane runs it and records the result (invariant 7). */
export function requestBuild(ctx: Ctx, caller: Caller, scope: string): BuildRunRecord {
  const config = ctx.state.buildConfigs.get(scope);
  if (!config) throw new FleetError('INVALID_STATE', 'no build is configured for this repository: the operator sets one with fleet_build_configure (`fleet build configure`)');
  const runId = ctx.ids.id('bld');
  ctx.emit({ type: 'build.requested', by: actorName(ctx.state, caller), runId, scope, command: config.command });
  return ctx.state.buildRuns.get(runId)!;
}

/** The oldest queued run, if none is running: builds go one at a time, serializing integration. */
export function nextBuild(ctx: Ctx): BuildRunRecord | undefined {
  const runs = [...ctx.state.buildRuns.values()];
  if (runs.some((r) => r.status === 'running')) return undefined;
  return runs.find((r) => r.status === 'queued');
}

export function recordBuildStarted(ctx: Ctx, runId: string, commit: string | undefined): void {
  ctx.emit({ type: 'build.started', by: 'plane', runId, ...(commit !== undefined && { commit }) });
}

export interface BuildOutcome {
  exitCode: number | null;
  durationMs: number;
  commit?: string;
  log: string;
  timedOut: boolean;
}

export function recordBuildFinished(ctx: Ctx, runId: string, outcome: BuildOutcome): void {
  const green = outcome.exitCode === 0 && !outcome.timedOut;
  ctx.emit({
    type: 'build.finished',
    by: 'plane',
    runId,
    status: green ? 'green' : 'red',
    exitCode: outcome.exitCode,
    durationMs: outcome.durationMs,
    ...(outcome.commit !== undefined && { commit: outcome.commit }),
    logTail: outcome.log.slice(-LOG_TAIL_CHARS),
    timedOut: outcome.timedOut,
  });
}

/** Runs a plane restart interrupted can never finish: they are recorded red, never left hanging. */
export function abandonInterruptedBuilds(ctx: Ctx): void {
  for (const run of ctx.state.buildRuns.values()) {
    if (run.status === 'running') recordBuildFinished(ctx, run.id, { exitCode: null, durationMs: 0, log: 'interrupted: the plane restarted while this build ran', timedOut: false });
  }
}

/** The latest finished run per scope: the build status the digest and agents see. */
export function latestBuilds(ctx: Ctx): BuildRunRecord[] {
  const latest = new Map<string, BuildRunRecord>();
  for (const run of ctx.state.buildRuns.values()) if (run.status === 'green' || run.status === 'red') latest.set(run.scope, run);
  return [...latest.values()];
}
