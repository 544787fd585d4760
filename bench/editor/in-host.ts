// Runs inside the real VS Code's extension host (bundled to out/bench-editor/in-host.cjs and loaded
// as the extension tests module): times the Fleet decoration provider over every file of the
// workspace, through the extension's API for its in-host tests (`fileDecoration`: exactly what the
// Explorer gets from provideFileDecoration). Meanwhile it stamps each decoration change of the
// probe file, which splits the badge latency into the extension's part and the workbench's. It
// talks to the bench through files in FLEET_BENCH_DIR, so the bench drives the Explorer first and
// the two never overlap.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { openFixture } from '../../test/vscode/suite/fixture.js';
import type { FleetApi } from '../../extension/src/api.js';
import { SIGNALS, type EditorWork, type ProbeChange, type ProviderFigures } from './signals.js';

const dir = process.env.FLEET_BENCH_DIR;

export async function run(): Promise<void> {
  if (!dir) throw new Error('FLEET_BENCH_DIR did not reach the extension host');
  const fixture = await openFixture();
  const expected = Number(process.env.FLEET_BENCH_CLAIMS);
  await fixture.state((s) => s.connection.status === 'connected' && s.claims.length >= expected, `the ${expected} claims in the view state`);
  const queued = Number(process.env.FLEET_BENCH_QUEUE ?? 0);
  if (queued > 0) await showWork(fixture.api, queued);
  // The moment the extension tells VS Code the probe's badge changed, and to what.
  const probe = fixture.uri(process.env.FLEET_BENCH_PROBE ?? '');
  const probeChanges: ProbeChange[] = [];
  const subscription = fixture.api.onDidChangeFileDecorations(async (uris) => {
    if (!uris.some((uri) => uri.toString() === probe.toString())) return;
    const at = Date.now();
    probeChanges.push({ at, badge: (await fixture.api.fileDecoration(probe))?.badge ?? '' });
  });
  const work = countWork(fixture.api);
  writeFileSync(join(dir, SIGNALS.listening), '');
  await signal(SIGNALS.go);
  subscription.dispose();

  const files = JSON.parse(readFileSync(join(dir, SIGNALS.files), 'utf8')) as string[];
  const decorate = (uri: vscode.Uri) => fixture.api.fileDecoration(uri);
  // Folder by folder, as the Explorer asks when a folder is expanded: one batch per folder, which
  // the extension's ownership cache sends to the language server as one request.
  const folders = new Map<string, vscode.Uri[]>();
  for (const file of files) {
    const uris = folders.get(dirname(file)) ?? [];
    uris.push(fixture.uri(file));
    folders.set(dirname(file), uris);
  }
  const coldPerFileUs: number[] = [];
  let badged = 0;
  const coldStart = process.hrtime.bigint();
  for (const uris of folders.values()) {
    const start = process.hrtime.bigint();
    const decorations = await Promise.all(uris.map(decorate));
    coldPerFileUs.push(Number(process.hrtime.bigint() - start) / 1000 / uris.length);
    badged += decorations.filter((decoration) => decoration !== undefined).length;
  }
  const coldTotalUs = Number(process.hrtime.bigint() - coldStart) / 1000;

  // Every answer is now cached in the extension: what a repaint of a known file costs. One
  // untimed pass first, so the timed one measures the provider rather than the JIT.
  const all = [...folders.values()].flat();
  for (const uri of all) await decorate(uri);
  const warmUs: number[] = [];
  let warmBadged = 0;
  const warmStart = process.hrtime.bigint();
  for (const uri of all) {
    const start = process.hrtime.bigint();
    const decoration = await decorate(uri);
    warmUs.push(Number(process.hrtime.bigint() - start) / 1000);
    if (decoration !== undefined) warmBadged++;
  }
  const warmTotalUs = Number(process.hrtime.bigint() - warmStart) / 1000;

  const figures: ProviderFigures = {
    vscodeVersion: vscode.version,
    files: all.length,
    folders: folders.size,
    claims: fixture.api.state()?.claims.length ?? 0,
    badged,
    warmBadged,
    cold: { totalUs: coldTotalUs, perFileUs: coldPerFileUs },
    warm: { totalUs: warmTotalUs, perCallUs: warmUs },
    probeChanges,
    work: work.stop(),
  };
  // Written aside and renamed: the bench polls for the file and must never read half of it.
  writeFileSync(join(dir, `${SIGNALS.provider}.tmp`), JSON.stringify(figures));
  renameSync(join(dir, `${SIGNALS.provider}.tmp`), join(dir, SIGNALS.provider));
  await signal(SIGNALS.done);
}

/**
 * The long queue in the view state, and the Work view on screen beside the Explorer (moved into
 * the panel, as a person may), its "Ready to pull" group open: what VS Code then asks of the view
 * is what a person watching the queue costs.
 */
async function showWork(api: FleetApi, queued: number): Promise<void> {
  await poll(() => (api.state()?.work.length ?? 0) >= queued, `the ${queued} queued items in the view state`);
  const built = api.treeWork().work.itemsBuilt;
  await vscode.commands.executeCommand('vscode.moveViews', { viewIds: ['fleet.work'], destinationId: 'workbench.panel.output' });
  await vscode.commands.executeCommand('fleet.work.focus');
  await poll(() => api.treeWork().work.itemsBuilt > built, 'the Work view to build its items');
}

async function poll(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits for the bench to create `name` in FLEET_BENCH_DIR (one existsSync every 50 ms: cheap). */
async function signal(name: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(join(dir!, name))) {
    if (Date.now() > deadline) throw new Error(`the bench did not signal ${name} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Counts the extension's work from now until stop(): what it was sent and what it updated. */
function countWork(api: FleetApi): { stop(): EditorWork } {
  const before = api.treeWork();
  const counts = { changes: 0, records: 0, wholeStates: 0, decorationUris: 0 };
  const subscriptions = [
    api.onDidChangeFileDecorations((uris) => (counts.decorationUris += uris.length)),
    api.onDidChangeFleet((changes) => {
      if (changes === 'all') return void counts.wholeStates++;
      counts.changes++;
      counts.records += changes.agents.length + changes.removedAgents.length + changes.claims.length + changes.releasedClaims.length + changes.work.length + changes.removedWork.length + (changes.control ? 1 : 0);
    }),
  ];
  return {
    stop: () => {
      for (const subscription of subscriptions) subscription.dispose();
      const after = api.treeWork();
      const trees = ['roster', 'territory', 'work'] as const;
      const delta = (key: 'rowsRefreshed' | 'fullRefreshes' | 'itemsBuilt') => trees.reduce((sum, tree) => sum + after[tree][key] - before[tree][key], 0);
      return { ...counts, rowsRefreshed: delta('rowsRefreshed'), fullRefreshes: delta('fullRefreshes'), itemsBuilt: delta('itemsBuilt') };
    },
  };
}
