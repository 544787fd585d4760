import { abandonInterruptedBuilds, nextBuild, recordBuildFinished, recordBuildStarted, type BuildOutcome } from '../../core/build-gate.js';
import type { FleetCore } from '../../core/fleet-core.js';
import type { BuildRunRecord } from '../../core/orchestration-records.js';
import type { Journal } from '../persistence/journal.js';
import { gitHead } from '../repository/worktree-facts.js';
import { runBuildCommand } from './build-command.js';

/**
 * The build gate's hands: runs queued builds one at a time in the configured worktree at its
 * HEAD, with the configured timeout, and records the outcome through the core. Nobody else can
 * record a build result, so a GREEN status always means the plane saw the command pass.
 */
export class BuildRunner {
  private running: { runId: string; kill(): void } | undefined;
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly core: FleetCore,
    private readonly journal: Journal,
    private readonly log: (message: string) => void,
  ) {
    core.run(undefined, (ctx) => abandonInterruptedBuilds(ctx));
  }

  kick(): void {
    if (this.running) return;
    const run = this.core.run(undefined, (ctx) => nextBuild(ctx));
    if (run) void this.execute(run);
  }

  /** Resolves once the run has finished and its result is durable. */
  finished(runId: string): Promise<void> {
    const run = this.core.state.buildRuns.get(runId);
    if (!run || run.status === 'green' || run.status === 'red') return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(runId, [...(this.waiting.get(runId) ?? []), resolve]));
  }

  stop(): void {
    this.running?.kill();
  }

  private async execute(run: BuildRunRecord): Promise<void> {
    const config = this.core.state.buildConfigs.get(run.scope)!;
    this.running = { runId: run.id, kill: () => undefined };
    const commit = await gitHead(config.worktree);
    this.core.run(undefined, (ctx) => recordBuildStarted(ctx, run.id, commit));
    const ran = await runBuildCommand(config.command, config.worktree, config.timeoutSeconds * 1000, (kill) => {
      this.running!.kill = kill;
    });
    const outcome: BuildOutcome = { ...ran, ...(commit !== undefined && { commit }) };
    this.core.run(undefined, (ctx) => recordBuildFinished(ctx, run.id, outcome));
    await this.journal.whenDurable(this.core.state.seq).catch(() => undefined);
    this.log(`build ${run.id} ${outcome.exitCode === 0 && !outcome.timedOut ? 'GREEN' : 'RED'} (exit ${outcome.exitCode}, ${outcome.durationMs} ms)`);
    for (const resolve of this.waiting.get(run.id) ?? []) resolve();
    this.waiting.delete(run.id);
    this.running = undefined;
    this.kick();
  }
}
