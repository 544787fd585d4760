// What the bench's VS Code loads: the extension bundles in dist/ (as `npm run build` makes them,
// from the sources being measured) and the in-host measuring module, bundled to CommonJS the way
// tools/bundle.mjs bundles the in-host test suite (the extension host require()s it).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build, stop } from 'esbuild';
import { REPO_ROOT } from '../../test/vscode/support/fleet-fixtures.js';

export const IN_HOST_MODULE = join(REPO_ROOT, 'out', 'bench-editor', 'in-host.cjs');

export async function bundleForBench(): Promise<void> {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'bundle.mjs')], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bundling the extension failed:\n${result.stdout}\n${result.stderr}`);
  await build({
    entryPoints: [join(REPO_ROOT, 'bench', 'editor', 'in-host.ts')],
    outfile: IN_HOST_MODULE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  // esbuild keeps a service process alive until stopped: stopped and reaped, its CPU is the bench's own.
  await stop();
}
