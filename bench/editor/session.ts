// One real VS Code window on the benchmark workspace, joined to the loaded plane: the bench drives
// the Explorer (badge latency), then hands over to the in-host module (provider cost), then drives
// the Explorer again, now that the provider has been asked about every file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkbench, type Engine, type Workbench } from '../../test/vscode/harness/index.js';
import { REPO_ROOT } from '../../test/vscode/support/fleet-fixtures.js';
import type { RawClient } from '../lib/raw-client.js';
import { badgeLatencies, revealInExplorer, type BadgeCycle } from './badge.js';
import { IN_HOST_MODULE } from './bundle.js';
import type { Churn } from './churn.js';
import { HostSampler, SETTLE_MS, type HostFigures } from './host-sampler.js';
import type { QueueChurn } from './queue.js';
import { descendantTicks } from './process-cpu.js';
import { SIGNALS, type ProviderFigures } from './signals.js';
import { PROBE, type EditorWorkspace } from './workspace.js';

// git off: 20,000 uncommitted files would each carry git's "U" badge beside Fleet's (and git would
// scan them); the welcome page off: nothing but the Explorer competes for the window.
const SETTINGS = { 'git.enabled': false, 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false };

export interface SessionFigures {
  vscodeVersion: string;
  /** Window opened → the Fleet status bar item says running (extension active, plane joined). */
  readyMs: number;
  badge: BadgeCycle[];
  /** The same cycles once the provider has been asked about all 20,000 files. */
  badgeAllKnown: BadgeCycle[];
  provider: ProviderFigures;
  /** CPU clock ticks the window's processes (VS Code server and its children, Chromium) took. */
  editorTicks: number;
  /** Plane events the churn made during the first badge cycles, and over how long. */
  churn?: { events: number; ms: number };
  /** Work items the builders moved meanwhile, with the queue that long at the start. */
  queue?: { items: number; moves: number };
  /** The extension host while the fleet churned and after, if it churned. */
  host?: HostFigures;
}

/** A session whose badge cycles failed: what was measured until then. */
export class SessionFailure extends Error {
  constructor(
    message: string,
    readonly badge: BadgeCycle[],
    readonly host: HostFigures | undefined,
  ) {
    super(message);
  }
}

export interface SessionOptions {
  engine: Engine;
  workspace: EditorWorkspace;
  home: string;
  claims: number;
  probe: RawClient;
  probeMark: string;
  cycles: number;
  cyclesAllKnown: number;
  /** Processes of the bench that are not the window's (the plane). */
  notEditor: number[];
  /** A fleet churning through the first badge cycles, if any. */
  churn?: Churn;
  /** A queue this long on the plane, builders moving its items during the churn, the Work view shown. */
  queue?: { items: number; churn: QueueChurn };
}

/** After the churn stops: the extension host's CPU is read over two SETTLE windows (host-sampler.ts). */
const SETTLED_MS = 2 * SETTLE_MS + 1_000;

export async function runSession(opts: SessionOptions): Promise<SessionFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-editor-'));
  writeFileSync(join(dir, SIGNALS.files), JSON.stringify(opts.workspace.files));
  const logs: string[] = [];
  let workbench: Workbench | undefined;
  let sampler: HostSampler | undefined;
  try {
    const opened = Date.now();
    workbench = await openWorkbench({
      engine: opts.engine,
      workspacePath: opts.workspace.root,
      extensionPath: REPO_ROOT,
      testsPath: IN_HOST_MODULE,
      env: { FLEET_HOME: opts.home, FLEET_TEST_WORKSPACE: opts.workspace.root, FLEET_BENCH_DIR: dir, FLEET_BENCH_CLAIMS: String(opts.claims), FLEET_BENCH_PROBE: PROBE.path, ...(opts.queue && { FLEET_BENCH_QUEUE: String(opts.queue.items) }) },
      settings: SETTINGS,
      onLog: (line) => logs.push(line),
    });
    const { page } = workbench;
    const ended = workbench.exit.then(({ code }) => code);
    await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 120_000 });
    const readyMs = Date.now() - opened;
    sampler = new HostSampler();
    await revealInExplorer(page, PROBE.folders, PROBE.label);
    await fileOrExit(join(dir, SIGNALS.listening), ended);
    const probe = { path: PROBE.path, label: PROBE.label, mark: opts.probeMark };
    opts.churn?.start();
    opts.queue?.churn.start();
    sampler.churnStarted();
    const badge: BadgeCycle[] = [];
    const failed = await badgeLatencies(page, opts.probe, opts.workspace.root, probe, opts.cycles, badge).then(() => undefined, (error: Error) => error);
    await Promise.all([opts.churn?.stop(), opts.queue?.churn.stop()]);
    sampler.churnStopped();
    if (opts.churn) await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
    const host = sampler.figures();
    if (failed) throw new SessionFailure(failed.message, badge, host);

    writeFileSync(join(dir, SIGNALS.go), '');
    const provider = JSON.parse(await fileOrExit(join(dir, SIGNALS.provider), ended)) as ProviderFigures;
    const badgeAllKnown = await badgeLatencies(page, opts.probe, opts.workspace.root, probe, opts.cyclesAllKnown).catch((error: Error) => {
      throw new SessionFailure(`${error.message} (a cycle after the churn, once every file was asked about)`, badge, host);
    });
    writeFileSync(join(dir, SIGNALS.done), '');
    const code = await withTimeout(ended, 30_000, 'the in-host module to end');
    if (code !== 0) throw new Error(`the in-host module failed (exit code ${code})`);
    const editorTicks = descendantTicks(opts.notEditor);
    const churn = opts.churn && { events: opts.churn.events, ms: opts.churn.stoppedAt - opts.churn.startedAt };
    const queue = opts.queue && { items: opts.queue.items, moves: opts.queue.churn.moves };
    return { vscodeVersion: opts.engine.vscodeVersion, readyMs, badge, badgeAllKnown, provider, editorTicks, ...(churn && { churn }), ...(queue && { queue }), ...(churn && host && { host }) };
  } catch (error) {
    console.error(`\n[editor ${opts.engine.vscodeVersion}] last workbench log lines:\n${logs.slice(-40).join('\n')}`);
    throw error;
  } finally {
    sampler?.dispose();
    await workbench?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the in-host module writes to `path`, or an error if its run ends (or hangs) first. */
async function fileOrExit(path: string, ended: Promise<number>, timeoutMs = 180_000): Promise<string> {
  let exitCode: number | undefined;
  void ended.then((code) => (exitCode = code), () => (exitCode = -1));
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (exitCode !== undefined) throw new Error(`the in-host module ended (exit code ${exitCode}) before writing ${path}`);
    if (Date.now() > deadline) throw new Error(`the in-host module wrote no ${path} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return readFileSync(path, 'utf8');
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
