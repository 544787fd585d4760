// The installed PreToolUse hooks of Claude Code and Codex run the hook front (FLEET_HOME/bin/
// fleet-hook-front, bash): the plane's POST /hooks/VERB answers a tool call without any Node process,
// and on anything unexpected the front runs the lean runner with the same event, which answers as ever.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { keepAlive, planePid, runShell, shutdownPlane, until } from './support.js';

/** The lean runner's compiled script: what the launcher bin/fleet-hook runs in this checkout. */
const LEAN_RUNNER = fileURLToPath(new URL('../../../server/hooks/lean/fleet-hook.js', import.meta.url));

interface Settings {
  hooks: Record<string, { hooks: { command: string }[] }[]>;
}

function installedPreToolUse(file: string, verb: string): string {
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Settings;
  return settings.hooks.PreToolUse!.flatMap((group) => group.hooks.map((hook) => hook.command)).find((command) => command.includes(verb))!;
}

/** Runs a hook command as the runtimes do (a shell, the event on stdin); every Node process it starts notes its script. */
async function run(command: string, input: string, cwd: string, home: string): Promise<{ status: number | null; stdout: string; stderr: string; nodeScripts: string[] }> {
  const marks = tempHome('fleet-front-marks-');
  const preload = join(marks, 'mark.cjs');
  const scripts = join(marks, 'scripts');
  writeFileSync(preload, `require('node:fs').appendFileSync(${JSON.stringify(scripts)}, process.argv[1] + '\\n');\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--require ${preload}`, FLEET_HOME: home, FLEET_PORT: '0' };
  delete env.FLEET_AS;
  delete env.FLEET_OVERRIDE;
  const ran = await runShell(command, { cwd, env, input });
  const nodeScripts = existsSync(scripts) ? readFileSync(scripts, 'utf8').trim().split('\n') : [];
  removeHome(marks);
  return { ...ran, nodeScripts };
}

describe('the hook front answers the installed PreToolUse hooks through the plane, and hands anything unusual to the lean runner', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n' });
  const codexHome = tempHome('fleet-front-codex-');
  const clients: PlaneClient[] = [];
  const stops: (() => void)[] = [];
  let claude: string;
  let codex: string;
  const claudeEvent = (tool: string, input: Record<string, unknown>, id = 'toolu_f1') => JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id });
  const codexEvent = (tool: string, input: Record<string, unknown>) => JSON.stringify({ session_id: 'thread-1', turn_id: 'turn-1', cwd: repo, hook_event_name: 'PreToolUse', model: 'gpt-5-codex', permission_mode: 'default', tool_name: tool, tool_input: input, tool_use_id: 'call-f1' });
  const ownWrite = claudeEvent('Write', { file_path: join(repo, 'docs', 'new.md'), content: '# new\n' });

  before(async () => {
    plane = await startPlaneProcess();
    const installed = await runCli(['install-hooks', '--no-git'], { home: plane.home, cwd: repo, env: { CODEX_HOME: codexHome } });
    assert.equal(installed.code, 0, installed.stderr);
    claude = installedPreToolUse(join(repo, '.claude', 'settings.local.json'), 'claude-pre-tool-use');
    codex = installedPreToolUse(join(codexHome, 'hooks.json'), 'codex-pre-tool-use');
    const atlas = await plane.connect('test-atlas');
    const bolt = await plane.connect('test-bolt');
    clients.push(atlas, bolt);
    // This test process stands in for ATLAS's runtime: the hooks it runs are its children, as a runtime's are.
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo, pid: process.pid });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: join(codexHome, 'elsewhere') });
    stops.push(keepAlive(atlas, 5000), keepAlive(bolt, 5000));
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: repo, reason: 'parser rewrite' });
    await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of clients) client.close();
    await plane?.stop();
    for (const dir of [plane?.home, repo, codexHome]) if (dir) removeHome(dir);
  });

  test('install-hooks writes bin/fleet-hook-front, and both runtimes\' PreToolUse commands run it before the lean runner', () => {
    const front = join(plane.home, 'bin', 'fleet-hook-front');
    assert.ok(existsSync(front), 'bin/fleet-hook-front installed');
    assert.match(readFileSync(front, 'utf8'), /^#!\/bin\/bash\n/);
    for (const command of [claude, codex]) assert.ok(command.includes(`&& exec '${front}' `), command);
  });

  test('Claude Code\'s Write, Bash and Codex\'s apply_patch, Bash: allowed and denied with no Node process started, ATLAS known from the runtime\'s process', async () => {
    const cases: [string, string, RegExp | ''][] = [
      [claude, ownWrite, ''],
      [claude, claudeEvent('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }), /"permissionDecision":"deny".*held exclusively by BOLT/],
      [claude, claudeEvent('Bash', { command: 'ls src' }), ''],
      [claude, claudeEvent('Bash', { command: 'echo x > src/a.ts' }), /"permissionDecision":"deny".*src\/a\.ts.*BOLT/],
      [codex, codexEvent('apply_patch', { command: '*** Begin Patch\n*** Update File: docs/guide.md\n@@\n-# guide\n+# Guide\n*** End Patch' }), ''],
      [codex, codexEvent('apply_patch', { command: '*** Begin Patch\n*** Add File: src/b.ts\n+b\n*** End Patch' }), /"permissionDecision":"deny".*src\/b\.ts.*BOLT/],
      [codex, codexEvent('Bash', { command: 'echo x > src/a.ts' }), /"permissionDecision":"deny".*BOLT/],
    ];
    for (const [command, input, expected] of cases) {
      const ran = await run(command, input, repo, plane.home);
      assert.deepEqual(ran.nodeScripts, [], `no Node process for ${input}`);
      assert.equal(ran.status, 0, ran.stderr);
      if (expected === '') assert.equal(ran.stdout, '', input);
      else assert.match(ran.stdout, expected);
    }
    // Written by ATLAS (its runtime is this process, the front's grandparent): its own claim, so allowed;
    // as a person it would be told the file is held by ATLAS.
    const mine = await run(claude, claudeEvent('Edit', { file_path: join(repo, 'docs', 'guide.md'), old_string: 'guide', new_string: 'Guide' }), repo, plane.home);
    assert.deepEqual([mine.status, mine.stdout, mine.nodeScripts], [0, '', []]);
  });

  /** The fallbacks below are the front's: the installed command runs it first. */
  const throughTheFront = () => assert.ok(claude.includes(`exec '${join(plane.home, 'bin', 'fleet-hook-front')}' claude-pre-tool-use`), claude);

  test('an event over the front\'s bound goes to the lean runner whole', async () => {
    throughTheFront();
    const big = claudeEvent('Write', { file_path: join(repo, 'docs', 'big.md'), content: 'x'.repeat(1_100_000) }, 'toolu_big');
    const ran = await run(claude, big, repo, plane.home);
    assert.deepEqual(ran.nodeScripts, [LEAN_RUNNER]);
    assert.deepEqual([ran.status, ran.stdout], [0, ''], 'allowed: the runner read all of the event');
  });

  test('a plane that refuses the route (one older than it) gets the lean runner, with the same event', async () => {
    throughTheFront();
    const discovery = join(plane.home, 'plane.json');
    const real = readFileSync(discovery, 'utf8');
    // As a plane from before the front answers any plain request; its pid is a live process (this one).
    const older = createServer((_request, response) => response.writeHead(426).end('The Fleet Coordination plane speaks WebSocket JSON-RPC only.\n'));
    older.on('upgrade', (_request, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'));
    await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
    writeFileSync(discovery, JSON.stringify({ port: (older.address() as AddressInfo).port, pid: process.pid }));
    try {
      const input = claudeEvent('Write', { file_path: join(repo, 'docs', 'x.md'), content: 'x' });
      const ran = await run(claude, input, repo, plane.home);
      assert.deepEqual(ran.nodeScripts, [LEAN_RUNNER]);
      const runner = await run(`'${join(plane.home, 'bin', 'fleet-hook')}' claude-pre-tool-use --home '${plane.home}'`, input, repo, plane.home);
      assert.equal(ran.stdout, runner.stdout);
      assert.match(ran.stdout, /"permissionDecision":"deny".*401/);
    } finally {
      writeFileSync(discovery, real);
      older.close();
    }
  });

  test('with the plane gone, the front hands the event to the lean runner, which starts a plane and answers', async () => {
    throughTheFront();
    const before = planePid(plane.home);
    for (const stop of stops) stop();
    for (const client of clients) client.close();
    await plane.stop();
    rmSync(join(plane.home, 'plane-unanswered.json'), { force: true });
    const ran = await run(claude, ownWrite, repo, plane.home);
    assert.equal(ran.nodeScripts[0], LEAN_RUNNER, ran.nodeScripts.join(', '));
    assert.deepEqual([ran.status, ran.stdout], [0, ''], ran.stderr);
    await until(() => existsSync(join(plane.home, 'plane.json')) && planePid(plane.home) !== before, 10_000, 'a plane started by the hook');
    // The plane the runner started answers the front from now on.
    const next = await run(claude, ownWrite, repo, plane.home);
    assert.deepEqual([next.status, next.stdout, next.nodeScripts], [0, '', []]);
    await shutdownPlane(plane.home);
  });
});
