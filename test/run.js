#!/usr/bin/env node
// Runs the compiled test files (Node 20's `node --test` takes no globs): every *.test.js under
// out/test/<tier>/ for the tiers named on the command line, all tiers by default.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const allTiers = ['unit', 'integration', 'adversarial', 'vscode'];
const tiers = process.argv.slice(2).length > 0 ? process.argv.slice(2) : allTiers;
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
