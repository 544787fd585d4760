// The installed Claude Code hook is the lean runner (FLEET_HOME/bin/fleet-hook): for every event it
// must print exactly what the full verb `fleet hook claude-pre-tool-use` prints, deciding through
// the plane itself (without loading the CLI) and handing what it cannot to the verb.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { CLI, removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The command Claude Code runs, as install-hooks wrote it into .claude/settings.local.json. */
function installedCommand(repo: string): string {
  const settings = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
  const commands = settings.hooks.PreToolUse.flatMap((entry) => entry.hooks.map((hook) => hook.command)).filter((command) => command.includes('claude-pre-tool-use'));
  assert.equal(commands.length, 1, `one fleet hook entry, found ${JSON.stringify(commands)}`);
  return commands[0]!;
}

/**
 * Runs `command` through a shell with `input` on stdin, as Claude Code does. Every Node process it
 * starts notes its main script in a file (a --require preload), so a test can see which ran.
 */
function run(command: string, input: string, cwd: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string; scripts: string[] } {
  const marks = join(tempHome('fleet-lean-marks-'), 'scripts');
  const preload = join(marks, '..', 'mark.cjs');
  writeFileSync(preload, `require('node:fs').appendFileSync(${JSON.stringify(marks)}, process.argv[1] + '\\n');\n`);
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--require ${preload}` };
  delete base.FLEET_AS;
  delete base.FLEET_OVERRIDE;
  const result = spawnSync('sh', ['-c', command], { input, cwd, env: { ...base, ...env }, encoding: 'utf8' });
  // The hook front answers without any Node process.
  const scripts = existsSync(marks) ? readFileSync(marks, 'utf8').trim().split('\n') : [];
  rmSync(join(marks, '..'), { recursive: true, force: true });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, scripts };
}

/** Relative times ("in 1m 40s") tick between two runs; everything else must match to the byte. */
const steady = (stdout: string) => stdout.replace(/, (in [0-9hms ]+|[0-9hms ]+ ago|now)\)/g, ', <when>)');

describe('the lean Claude Code hook answers exactly as the full verb, against a real plane', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n', 'README.md': '# repo\n' });
  const outside = tempHome('fleet-lean-outside-');
  const clients: PlaneClient[] = [];
  let lean: string;
  let full: string;
  const event = (tool: string, input: Record<string, unknown>) =>
    JSON.stringify({ session_id: 's1', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'toolu_1' });

  before(async () => {
    plane = await startPlaneProcess();
    const installed = await runCli(['install-hooks'], { home: plane.home, cwd: repo });
    assert.equal(installed.code, 0, installed.stderr);
    lean = installedCommand(repo);
    // The verb the hook was before: FLEET_HOME/bin/fleet hook … (an existing install still runs it).
    full = `${quote(join(plane.home, 'bin', 'fleet'))} hook claude-pre-tool-use --home ${quote(plane.home)}`;
    const atlas = await plane.connect('test-atlas');
    const bolt = await plane.connect('test-bolt');
    clients.push(atlas, bolt);
    // This test process stands in for ATLAS's runtime: the hooks it runs are its children, as a runtime's are.
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo, pid: process.pid });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: join(outside, 'elsewhere') });
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: repo, reason: 'parser rewrite' });
    await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
  });

  after(async () => {
    for (const client of clients) client.close();
    await plane?.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(outside);
  });

  test('install-hooks installs the lean runner: FLEET_HOME/bin/fleet-hook claude-pre-tool-use --home …, refusing when it cannot run', () => {
    const runner = quote(join(plane.home, 'bin', 'fleet-hook'));
    assert.ok(lean.startsWith(`[ -x ${runner} ] || { cat >/dev/null; echo `), lean);
    const front = quote(join(plane.home, 'bin', 'fleet-hook-front'));
    assert.ok(lean.endsWith(`; exit 2; }; [ -x ${front} ] && [ -x /bin/bash ] && exec ${front} claude-pre-tool-use --home ${quote(plane.home)}; exec ${runner} claude-pre-tool-use --home ${quote(plane.home)}`), lean);
  });

  test('a Write and an Edit in its own territory are allowed without loading the CLI', () => {
    for (const input of [event('Write', { file_path: join(repo, 'docs', 'new.md'), content: '# new\n' }), event('Edit', { file_path: 'docs/guide.md', old_string: 'guide', new_string: 'Guide' })]) {
      const ran = run(lean, input, repo);
      assert.deepEqual([ran.status, ran.stdout], [0, ''], input);
      assert.ok(!ran.scripts.includes(CLI), `the CLI was not loaded: ${ran.scripts.join(', ')}`);
      assert.equal(run(full, input, repo).stdout, '');
    }
  });

  test("a Write and an Edit in another agent's territory are denied naming the holder, as the full verb words it", () => {
    for (const input of [event('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }), event('Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' })]) {
      const ran = run(lean, input, repo);
      assert.equal(ran.status, 0);
      assert.ok(!ran.scripts.includes(CLI), `the CLI was not loaded: ${ran.scripts.join(', ')}`);
      const answer = JSON.parse(ran.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(answer.hookSpecificOutput.permissionDecisionReason, /held exclusively by BOLT \(claim src\/\*\*/);
      assert.equal(steady(ran.stdout), steady(run(full, input, repo).stdout));
    }
  });

  test('FLEET_AS, FLEET_OVERRIDE, a file outside every repository, MCP tools and unreadable input: the same answers', () => {
    const cases: [string, NodeJS.ProcessEnv][] = [
      [event('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }), { FLEET_AS: 'BOLT' }],
      [event('Write', { file_path: join(repo, 'README.md'), content: 'x' }), { FLEET_OVERRIDE: 'release hotfix' }],
      [event('Write', { file_path: join(outside, 'notes.md'), content: 'x' }), {}],
      [event('mcp__files__write_file', { path: join(repo, 'src', 'b.ts'), content: 'x' }), {}],
      [event('mcp__files__read_file', { path: join(repo, 'src', 'a.ts') }), {}],
      [event('Write', { content: 'x' }), {}],
      ['{ not json', {}],
    ];
    for (const [input, env] of cases) assert.equal(steady(run(lean, input, repo, env).stdout), steady(run(full, input, repo, env).stdout), `${input} ${JSON.stringify(env)}`);
  });

  test('Bash: the plane judges the command, the lean runner answers as the full verb without loading the CLI', () => {
    const denied = event('Bash', { command: 'echo hi > src/a.ts' });
    const ran = run(lean, denied, repo);
    assert.ok(!ran.scripts.includes(CLI), `the CLI was not loaded: ${ran.scripts.join(', ')}`);
    assert.match(ran.stdout, /"permissionDecision":"deny".*src\/a\.ts.*held exclusively by BOLT/);
    assert.equal(ran.stdout, run(full, denied, repo).stdout);
    for (const input of [event('Bash', { command: 'ls src && echo note > docs/note.md' }), event('Bash', { command: '  ' })]) {
      assert.deepEqual([run(lean, input, repo).stdout, run(full, input, repo).stdout], ['', ''], input);
    }
  });

  test('a command installed before (bin/fleet hook …) is replaced in place by install-hooks, and still answers meanwhile', async () => {
    const settingsPath = join(repo, '.claude', 'settings.local.json');
    const current = readFileSync(settingsPath, 'utf8');
    writeFileSync(settingsPath, current.replace(JSON.stringify(lean).slice(1, -1), JSON.stringify(full).slice(1, -1)));
    assert.equal(installedCommand(repo), full);
    assert.equal(run(installedCommand(repo), event('Write', { file_path: join(repo, 'docs', 'new.md'), content: '' }), repo).stdout, '');
    const again = await runCli(['install-hooks'], { home: plane.home, cwd: repo });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(readFileSync(settingsPath, 'utf8'), current);
  });

  test('every other hook event (PostToolUse, SessionStart, SessionEnd, Codex\'s, git pre-commit) runs without loading the CLI and answers as the full verb', () => {
    const leanVerb = (verb: string, root?: string) => `${quote(join(plane.home, 'bin', 'fleet-hook'))} ${verb} --home ${quote(plane.home)}${root ? ` --root ${quote(root)}` : ''}`;
    const fullVerb = (verb: string, root?: string) => `${quote(join(plane.home, 'bin', 'fleet'))} hook ${verb} --home ${quote(plane.home)}${root ? ` --root ${quote(root)}` : ''}`;
    const codexEvent = (name: string, fields: object) => JSON.stringify({ session_id: 'thread-1', turn_id: 'turn-1', transcript_path: null, cwd: repo, hook_event_name: name, model: 'gpt-5-codex', permission_mode: 'default', ...fields });
    const same = (name: string, verb: string, input: string, env: NodeJS.ProcessEnv, root?: string) => {
      const ran = run(leanVerb(verb, root), input, repo, env);
      assert.ok(!ran.scripts.includes(CLI), `${name}: the CLI was not loaded: ${ran.scripts.join(', ')}`);
      const full = run(fullVerb(verb, root), input, repo, env);
      assert.deepEqual([ran.status, steady(ran.stdout), steady(ran.stderr)], [full.status, steady(full.stdout), steady(full.stderr)], name);
      return ran;
    };
    // PostToolUse after an allowed Bash call (PreToolUse took the watcher's mark), nothing changed.
    for (const [id, post] of [['toolu_post1', leanVerb('claude-post-tool-use')], ['toolu_post2', fullVerb('claude-post-tool-use')]] as const) {
      assert.equal(run(lean, event('Bash', { command: 'ls docs' }).replace('toolu_1', id), repo).stdout, '');
      const answered = run(post, JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls docs' }, tool_use_id: id, tool_response: {} }), repo);
      assert.deepEqual([answered.status, answered.stdout], [0, ''], post);
    }
    const started = same('Claude SessionStart as ATLAS', 'claude-session-start', JSON.stringify({ session_id: 's9', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }), { FLEET_AS: 'ATLAS' });
    assert.match(started.stdout, /"hookEventName":"SessionStart"/);
    same('Claude SessionStart with no identity, outside every repository', 'claude-session-start', JSON.stringify({ session_id: 's10', cwd: outside, hook_event_name: 'SessionStart', source: 'startup' }), {});
    same('Claude SessionEnd as ATLAS', 'claude-session-end', JSON.stringify({ session_id: 's9', cwd: repo, hook_event_name: 'SessionEnd', reason: 'exit' }), { FLEET_AS: 'ATLAS' });
    const denied = same('Codex PreToolUse, Bash into BOLT\'s territory', 'codex-pre-tool-use', codexEvent('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo hi > src/a.ts' }, tool_use_id: 'call-1' }), {}, repo);
    assert.match(denied.stdout, /"permissionDecision":"deny".*held exclusively by BOLT/);
    same('Codex PreToolUse, apply_patch in its own territory', 'codex-pre-tool-use', codexEvent('PreToolUse', { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Update File: docs/guide.md\n@@\n-# guide\n+# Guide\n*** End Patch' }, tool_use_id: 'call-2' }), {}, repo);
    same('Codex PreToolUse, unreadable input', 'codex-pre-tool-use', '{ not json', {}, repo);
    same('Codex PostToolUse', 'codex-post-tool-use', codexEvent('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call-9', tool_response: '' }), {}, repo);
    same('Codex SessionStart as ATLAS', 'codex-session-start', codexEvent('SessionStart', { source: 'startup' }), { FLEET_AS: 'ATLAS' }, repo);
    writeFileSync(join(repo, 'src', 'a.ts'), 'export const a = 2;\n');
    spawnSync('git', ['add', 'src/a.ts'], { cwd: repo });
    try {
      const refused = same('git pre-commit, a staged file BOLT holds', 'git-pre-commit', '', {});
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /commit refused: .*src\/a\.ts: held exclusively by BOLT/s);
    } finally {
      spawnSync('git', ['reset', '-q', '--hard'], { cwd: repo });
    }
  });

  test('with no plane (and none that can start) both deny with the reason', async () => {
    await plane.stop();
    // A plane.log that is a folder: the plane the verb would start cannot open its log.
    rmSync(join(plane.home, 'plane.log'), { force: true });
    mkdirSync(join(plane.home, 'plane.log'));
    const input = event('Write', { file_path: join(repo, 'docs', 'new.md'), content: 'x' });
    const ran = run(lean, input, repo);
    const answer = JSON.parse(ran.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason, /^The fleet could not check this write \(.*plane\.log/);
    assert.equal(ran.stdout, run(full, input, repo).stdout);
  });
});
