// The train (issue 24, DESIGN §14): N branches with a planted conflict graph (one pair of every
// eight edits the same line) and one planted RED branch, landed through a real plane with a build
// of fixed duration, in batches against one at a time: landed per hour, builds per landing, and the
// two safety figures, commits lost (a landed branch's commit not on the target) and RED commits on
// the target (a first-parent commit whose tree holds the planted RED file).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, makeRepo } from '../../test/support/git-repo.js';
import { readEventLog } from '../../test/support/event-log-reader.js';
import { removeHome, startPlaneProcess } from '../../test/support/plane-process.js';
import { count, type Report } from '../lib/report.js';

const BUILD_SECONDS = 1;
const BATCH = 4;

function plantBranches(repo: string, n: number): string[] {
  const branches: string[] = [];
  for (let i = 0; i < n; i++) {
    const branch = `agent-${i}`;
    git(repo, 'checkout', '-q', '-b', branch, 'main');
    const files: Record<string, string> = { [`src/f${i}.ts`]: `export const f${i} = ${i};\n` };
    if (i % 8 === 6 || i % 8 === 7) files['src/shared.ts'] = `export const shared = ${i};\n`;
    if (i === 3) files.RED = 'the build fails while this file is in the tree\n';
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), content);
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', `work ${i}`);
    branches.push(branch);
  }
  git(repo, 'checkout', '-q', 'operator');
  return branches;
}

async function landAll(n: number, batchSize: number) {
  const repo = makeRepo({ 'src/shared.ts': 'export const shared = 0;\n', 'README.md': '# bench\n' });
  git(repo, 'branch', 'operator', 'main');
  const branches = plantBranches(repo, n);
  const start = git(repo, 'rev-parse', 'main');
  const plane = await startPlaneProcess();
  try {
    const operator = await plane.connectAsOperator();
    await operator.call('fleet_integrate_configure', { root: repo, batchSize, buildCommand: `sleep ${BUILD_SECONDS}; test ! -e RED` });
    const began = performance.now();
    for (const branch of branches) await operator.call('fleet_land', { root: repo, branch });
    for (;;) {
      const { entries } = await operator.call('fleet_integrate_status', { root: repo });
      if (entries.every((e) => e.status !== 'queued' && e.status !== 'building')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsedMs = performance.now() - began;
    const { entries } = await operator.call('fleet_integrate_status', { root: repo });
    operator.close();
    const landed = entries.filter((e) => e.status === 'landed');
    const builds = readEventLog(plane.home, { tolerateTornTail: true }).filter((e) => e.type === 'integration.batch' && e.tip === undefined).length;
    const lost = landed.filter((e) => {
      try {
        execFileSync('git', ['-C', repo, 'merge-base', '--is-ancestor', e.commit, 'main']);
        return false;
      } catch {
        return true;
      }
    }).length;
    const firstParents = git(repo, 'rev-list', '--first-parent', `${start}..main`).split('\n').filter(Boolean);
    const red = firstParents.filter((c) => git(repo, 'ls-tree', '--name-only', c, 'RED') !== '').length;
    return { landed: landed.length, sentBack: entries.length - landed.length, builds, elapsedMs, lost, red };
  } finally {
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
  }
}

export async function integration(options: { quick: boolean }, report: Report): Promise<void> {
  const sizes = options.quick ? [8] : [8, 16, 32];
  const figures: Record<string, unknown> = {};
  for (const n of sizes) {
    const batched = await landAll(n, BATCH);
    const single = await landAll(n, 1);
    figures[n] = { batched, single };
    const perHour = (r: typeof batched) => (r.landed / r.elapsedMs) * 3_600_000;
    report.add({
      section: 'integration',
      figure: `N=${n}: landed per hour, batches of ${BATCH} (build ${BUILD_SECONDS} s; ${batched.landed} landed, ${batched.sentBack} sent back)`,
      value: count(perHour(batched)),
      reference: `one at a time ${count(perHour(single))}`,
      ratio: `${(perHour(batched) / perHour(single)).toFixed(2)}×`,
    });
    report.add({ section: 'integration', figure: `N=${n}: builds per landing`, value: (batched.builds / batched.landed).toFixed(2), reference: `one at a time ${(single.builds / single.landed).toFixed(2)}` });
    report.add({ section: 'integration', figure: `N=${n}: commits lost / RED commits on the target`, value: `${batched.lost} / ${batched.red}`, reference: `one at a time ${single.lost} / ${single.red}`, met: batched.lost + batched.red + single.lost + single.red === 0 });
  }
  report.set('integration', figures);
}
