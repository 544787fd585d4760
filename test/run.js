#!/usr/bin/env node
// Runs the compiled test files (Node 20's `node --test` takes no globs): every *.test.js under
// out/test/<tier>/ for the tiers named on the command line, all tiers by default.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const allTiers = ['unit', 'integration', 'adversarial', 'vscode', 'clients'];
const args = process.argv.slice(2);
// `npm run test:vscode -- --desktop`: the same in-host tests in a desktop VS Code (@vscode/test-electron),
// where one can be downloaded or is installed; the code-server tier is what runs without internet.
if (args.includes('--desktop')) {
  if (args.some((arg) => arg !== '--desktop' && arg !== 'vscode')) {
    console.error('--desktop runs the vscode tier only: npm run test:vscode -- --desktop');
    process.exit(2);
  }
  const desktop = spawnSync(process.execPath, [join('out', 'test', 'vscode', 'desktop', 'run-desktop.js')], { stdio: 'inherit' });
  process.exit(desktop.status ?? 1);
}
const tiers = args.length > 0 ? args : allTiers;
const unknown = tiers.filter((tier) => !allTiers.includes(tier));
if (unknown.length > 0) {
  console.error(`unknown test tier(s): ${unknown.join(', ')}; tiers are ${allTiers.join(', ')}`);
  process.exit(2);
}

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

const files = tiers.flatMap((tier) => testFiles(join('out', 'test', tier)).sort());
if (files.length === 0) {
  console.error(`no compiled tests under out/test/{${tiers.join(',')}}: run \`npx tsc -b\` first`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
