import * as vscode from 'vscode';
import type { FleetConfig } from './config.js';
import type { FleetContext } from './fleet-context.js';

/** Which windows (extension host pids) want each glob we added to files.readonlyInclude. */
const REGISTRY_KEY = 'fleet.readonlyInclude.owners';
type Registry = Record<string, number[]>;

/**
 * The edit guard in `block` mode: another agent's exclusive territory is read-only in the editor,
 * through absolute globs in the user setting `files.readonlyInclude` (user, not workspace, settings:
 * nothing is written into the repository the agents commit from). Globs are removed as soon as the
 * claim ends, when the mode changes and when the window closes. Several windows may want the same
 * glob, so a registry in global state records which windows added what, and entries of windows
 * that died are cleaned up by the next one. Globs the person wrote are never touched.
 */
export class ReadonlyGuard implements vscode.Disposable {
  private applied: readonly string[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly appliedEmitter = new vscode.EventEmitter<readonly string[]>();
  /** After the setting is written (or found right): the globs now in force for this window. */
  readonly onDidApply = this.appliedEmitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly ctx: FleetContext,
    private readonly config: FleetConfig,
  ) {
    this.subscriptions = [
      ctx.onDidChangeReadonlyGlobs(() => void this.update()),
      config.onDidChange((event) => {
        if (event.affectsConfiguration('fleet.guard')) void this.update();
      }),
    ];
    // Also cleans up after windows that died without removing their globs.
    void this.update();
  }

  get globs(): readonly string[] {
    return this.applied;
  }

  update(): Promise<void> {
    const wanted = this.config.guard === 'block' ? [...this.ctx.readonlyGlobs] : [];
    return this.enqueue(wanted);
  }

  /** Removes what this window added; awaited on deactivation. */
  release(): Promise<void> {
    return this.enqueue([]);
  }

  private enqueue(wanted: string[]): Promise<void> {
    this.queue = this.queue.then(
      () => this.apply(wanted),
      () => this.apply(wanted),
    );
    return this.queue.catch((error: Error) => this.ctx.log.error(`files.readonlyInclude not updated: ${error.message}`));
  }

  private async apply(wanted: readonly string[]): Promise<void> {
    const me = process.pid;
    const state = this.ctx.extension.globalState;
    const registry = liveOwners(state.get<Registry>(REGISTRY_KEY, {}));
    const files = vscode.workspace.getConfiguration('files');
    const setting: Record<string, boolean> = { ...(files.inspect<Record<string, boolean>>('readonlyInclude')?.globalValue ?? {}) };
    const want = new Set(wanted);
    for (const [glob, owners] of Object.entries(registry)) {
      if (!want.has(glob)) registry[glob] = owners.filter((pid) => pid !== me);
    }
    for (const glob of want) {
      if (registry[glob]) registry[glob] = [...new Set([...registry[glob]!, me])];
      else if (setting[glob] !== true) registry[glob] = [me]; // ours only if the person had not set it
    }
    let changed = false;
    for (const [glob, owners] of Object.entries(registry)) {
      if (owners.length === 0) {
        delete registry[glob];
        if (glob in setting) {
          delete setting[glob];
          changed = true;
        }
      } else if (setting[glob] !== true) {
        setting[glob] = true;
        changed = true;
      }
    }
    if (changed) {
      await files.update('readonlyInclude', Object.keys(setting).length > 0 ? setting : undefined, vscode.ConfigurationTarget.Global);
      this.ctx.log.info(`files.readonlyInclude: ${wanted.length} glob(s) of other agents' exclusive territory in force for this window`);
    }
    await state.update(REGISTRY_KEY, Object.keys(registry).length > 0 ? registry : undefined);
    this.applied = [...wanted];
    this.appliedEmitter.fire(this.applied);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.appliedEmitter.dispose();
  }
}

function liveOwners(registry: Registry): Registry {
  const live: Registry = {};
  for (const [glob, owners] of Object.entries(registry)) live[glob] = owners.filter(isAlive);
  return live;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
