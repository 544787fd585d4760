// The bundled hook runner, as the VS Code extension installs it (FLEET_HOME/bin/fleet-hook →
// dist/fleet-hook.cjs): it starts the runner from V8's code cache kept beside it, one per verb,
// written by the first hooks of that verb, each adding the functions its own run compiled (a verb
// takes different paths: a Write's check, a shell command's). From a cache, without one, and from a
// damaged one (V8 refuses it and the hook writes a good one), it answers as the compiled runner does.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const COMPILED_RUNNER = join(ROOT, 'out', 'server', 'hooks', 'lean', 'fleet-hook.js');

/** Relative times ("in 1m 40s") tick between two runs; everything else must match to the byte. */
const steady = (stdout: string) => stdout.replace(/, (in [0-9hms ]+|[0-9hms ]+ ago|now)\)/g, ', <when>)');

describe('the bundled hook runner starts from its code cache and answers as the compiled one', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n' });
  const dist = tempHome('fleet-hook-bundle-');
  const clients: PlaneClient[] = [];
  const event = (tool: string, input: Record<string, unknown>) => JSON.stringify({ session_id: 's1', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'toolu_1' });
  const denied = event('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' });
  const allowed = event('Write', { file_path: join(repo, 'docs', 'guide.md'), content: 'x' });
  const shell = event('Bash', { command: 'ls docs' });
  const hook = (runner: string, input: string) => {
    const ran = spawnSync(process.execPath, [runner, 'claude-pre-tool-use', '--home', plane.home], { input, cwd: repo, env: { ...process.env, FLEET_AS: 'ATLAS' }, encoding: 'utf8' });
    assert.equal(ran.status, 0, ran.stderr);
    return ran.stdout;
  };
  const caches = () => readdirSync(dist).filter((name) => name.endsWith('.cache'));

  before(async () => {
    // The bundles as tools/bundle.mjs makes them, copied out of dist/: the caches go beside the copies.
    execFileSync(process.execPath, [join(ROOT, 'tools', 'bundle.mjs')], { cwd: ROOT, stdio: 'ignore' });
    for (const name of ['fleet-hook.cjs', 'fleet-hook-runner.cjs']) copyFileSync(join(ROOT, 'dist', name), join(dist, name));
    plane = await startPlaneProcess();
    const atlas = await plane.connect('test-atlas');
    const bolt = await plane.connect('test-bolt');
    clients.push(atlas, bolt);
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo });
    await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex' });
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  });

  after(async () => {
    for (const client of clients) client.close();
    await plane?.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(dist);
  });

  test('the first hook of a verb writes its cache; the next ones run from it; both answer as the compiled runner', () => {
    const bundled = join(dist, 'fleet-hook.cjs');
    assert.deepEqual(caches(), []);
    const expected = steady(hook(COMPILED_RUNNER, denied));
    assert.match(expected, /"permissionDecision":"deny".*held exclusively by BOLT/);
    assert.equal(steady(hook(bundled, denied)), expected, 'without a cache');
    const written = caches();
    assert.equal(written.length, 1, `one cache, for claude-pre-tool-use: ${written.join(', ')}`);
    assert.match(written[0]!, /^fleet-hook-runner\.cjs\..+\.claude-pre-tool-use\.cache$/);
    assert.equal(steady(hook(bundled, denied)), expected, 'from the cache');
    assert.equal(hook(bundled, allowed), '', 'an allowed write, from the cache');
  });

  test("a verb's first hooks each add the paths they ran to its cache (a shell call after writes), then leave it alone", () => {
    const bundled = join(dist, 'fleet-hook.cjs');
    for (const name of caches()) rmSync(join(dist, name));
    const cacheFile = () => join(dist, caches().find((name) => name.endsWith('.claude-pre-tool-use.cache'))!);
    for (let run = 0; run < 3; run++) assert.equal(hook(bundled, allowed), '');
    const writesOnly = readFileSync(cacheFile());
    // The shell path (the command check, the watcher's mark) runs functions no Write ran.
    assert.equal(hook(bundled, shell), '');
    const withShell = readFileSync(cacheFile());
    assert.ok(withShell.length > writesOnly.length, `the cache after a shell call holds its functions too: ${withShell.length} bytes, ${writesOnly.length} after writes only`);
    for (let run = 0; run < 8; run++) assert.equal(hook(bundled, run % 2 === 0 ? shell : allowed), '');
    const settled = readFileSync(cacheFile());
    assert.equal(hook(bundled, shell), '');
    assert.deepEqual(readFileSync(cacheFile()), settled, 'past its first runs, a cache V8 took is not written again');
  });

  test('a damaged cache is refused by V8: the hook answers the same and writes a good one', () => {
    const bundled = join(dist, 'fleet-hook.cjs');
    const [name] = caches();
    const file = join(dist, name!);
    const garbage = Buffer.alloc(readFileSync(file).length, 7);
    writeFileSync(file, garbage);
    assert.equal(steady(hook(bundled, denied)), steady(hook(COMPILED_RUNNER, denied)));
    assert.notDeepEqual(readFileSync(file), garbage, 'the damaged cache was replaced');
    assert.equal(hook(bundled, allowed), '');
  });
});
