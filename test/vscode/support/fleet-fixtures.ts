// Node-side fixtures for the extension tests: the bundles, a temp git workspace, a temp FLEET_HOME
// and its plane (stopped at the end: no plane outlives its test).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectToPlane, readDiscovery } from '../../../server/client/connect.js';
import { isAlive } from '../../../server/plane/processes/process-identity.js';

/** The repository root: the extension under development (its package.json is the manifest). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const SUITE_MODULE = join(REPO_ROOT, 'out', 'vscode-suite', 'index.cjs');
export const CLI_BUNDLE = join(REPO_ROOT, 'dist', 'fleet.cjs');
/** The in-host tests a full run must pass, by name: a run that skipped some fails (both runners check). */
export const EXPECTED_IN_HOST_TESTS = 16;

/** Bundles the extension, language server, CLI and the in-host suite (esbuild, about a second). */
export function bundleForTests(): void {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'bundle.mjs'), '--tests'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bundling failed:\n${result.stdout}\n${result.stderr}`);
}

/** A git repository with a few committed files (committed, so git adds no badges of its own). */
export function makeWorkspace(): string {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-vscode-ws-')));
  const files: Record<string, string> = {
    'README.md': '# Fleet test workspace\n',
    'src/a.ts': 'export const a = 1;\nexport const alsoA = 2;\n',
    'src/b.ts': 'export const b = 2;\n',
    'src/c.ts': 'export const c = 3;\n',
    'docs/guide.md': '# Guide\n',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', ...args], { cwd: workspace, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return workspace;
}

export function makeHome(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'fleet-vscode-home-')));
}

/**
 * Ends the plane of `home`, if one runs (politely, then by force), and any late starter: a plane
 * a racing client spawned that comes up once the first one is gone (see planeProcesses).
 */
export async function stopPlane(home: string): Promise<void> {
  await stopDiscoveredPlane(home);
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    const late = planeProcesses(home);
    if (late.length === 0) return;
    await stopDiscoveredPlane(home);
    for (const pid of planeProcesses(home)) process.kill(pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The `fleet serve --home HOME` processes running now (Linux /proc; elsewhere none are found). */
export function planeProcesses(home: string): number[] {
  if (!existsSync('/proc')) return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('--home');
      if (args.includes('serve') && at >= 0 && args[at + 1] === home) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function stopDiscoveredPlane(home: string): Promise<void> {
  const found = readDiscovery(home);
  if (!found) return;
  const pid = found.discovery.pid;
  try {
    const client = await connectToPlane({ home, client: 'vscode-test-teardown', autoStart: false, credential: 'operator' });
    await client.call('fleet_plane_shutdown', {});
    client.close();
  } catch {
    // Already going away.
  }
  const deadline = Date.now() + 10_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

export function removeDir(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 3 });
}
