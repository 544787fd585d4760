import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { eventsOf, keepAlive } from './support.js';

/** The environment of a commit or hook run: this test's plane, and no FLEET_AS/FLEET_OVERRIDE from outside. */
function hookEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: home, FLEET_PORT: '0' };
  delete env.FLEET_AS;
  delete env.FLEET_OVERRIDE;
  return { ...env, ...extra };
}

function gitIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd, env, encoding: 'utf8' });
}

/** Changes `path`, stages only it, and tries to commit: the pre-commit hook decides. */
function commitChange(repo: string, home: string, path: string, extra: Record<string, string> = {}) {
  const env = hookEnv(home, extra);
  gitIn(repo, env, 'reset', '-q');
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), `// change ${Date.now()} ${Math.random()}\n`);
  assert.equal(gitIn(repo, env, 'add', path).status, 0);
  return gitIn(repo, env, 'commit', '-q', '-m', `change ${path}`);
}

/** Runs the Claude Code hook exactly as settings.json tells Claude Code to: the command through a shell, the event on stdin. */
function claudeHook(repo: string, home: string, event: Record<string, unknown>, extra: Record<string, string> = {}) {
  const settings = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: { PreToolUse: { matcher: string; hooks: { command: string }[] }[] } };
  const entry = settings.hooks.PreToolUse.find((e) => e.hooks.some((h) => h.command.includes('claude-pre-tool-use')))!;
  const run = spawnSync('sh', ['-c', entry.hooks[0]!.command], {
    cwd: repo,
    env: hookEnv(home, extra),
    input: JSON.stringify({ session_id: 's1', transcript_path: '/dev/null', cwd: repo, hook_event_name: 'PreToolUse', ...event }),
    encoding: 'utf8',
  });
  const output = run.stdout.trim() === '' ? undefined : (JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string } });
  return { status: run.status, output, stderr: run.stderr };
}

describe('hooks: a real git commit and the Claude Code PreToolUse hook, against a real plane', () => {
  let plane: PlaneProcess;
  let home: string;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n', 'README.md': '# repo\n', 'lib/x.ts': 'export {};\n' });
  const outside = tempHome('fleet-outside-');
  let atlas: PlaneClient;
  let bolt: PlaneClient;
  let operator: PlaneClient;
  const stops: (() => void)[] = [];

  before(async () => {
    plane = await startPlaneProcess();
    home = plane.home;
    const installed = await runCli(['install-hooks'], { home, cwd: repo });
    assert.equal(installed.code, 0, installed.stderr);
    atlas = await plane.connect('test-atlas');
    // This test process stands in for ATLAS's runtime: the hooks it runs are its children, as a runtime's are.
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo, pid: process.pid });
    bolt = await plane.connect('test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: join(outside, 'elsewhere') });
    operator = await plane.connectAsOperator();
    stops.push(keepAlive(atlas, 5000), keepAlive(bolt, 5000));
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: repo, reason: 'parser rewrite' });
    await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of [atlas, bolt, operator]) client?.close();
    await plane?.stop();
    removeHome(home);
    removeHome(repo);
    removeHome(outside);
  });

  test('install-hooks wrote an executable pre-commit hook, the Claude Code settings and the launcher; a second run changes nothing', async () => {
    const hook = join(repo, '.git', 'hooks', 'pre-commit');
    accessSync(hook, constants.X_OK);
    accessSync(join(home, 'bin', 'fleet'), constants.X_OK);
    const settingsPath = join(repo, '.claude', 'settings.local.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as { hooks: { PreToolUse: { matcher: string }[]; PostToolUse: { matcher: string }[] } };
    assert.equal(settings.hooks.PreToolUse[0]!.matcher, 'Write|Edit|MultiEdit|NotebookEdit|Bash|mcp__.*');
    // A file tool runs one fleet hook: checked exactly before it writes, its forecast note rides on that check.
    assert.equal(settings.hooks.PostToolUse[0]!.matcher, 'Bash|mcp__.*');
    const before = [readFileSync(hook, 'utf8'), readFileSync(settingsPath, 'utf8')];
    const again = await runCli(['install-hooks'], { home, cwd: repo });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /unchanged/);
    assert.deepEqual([readFileSync(hook, 'utf8'), readFileSync(settingsPath, 'utf8')], before);
  });

  test("git commit: refused on another agent's path, naming the holder, the claim, until when and how to ask", () => {
    const commit = commitChange(repo, home, 'src/a.ts');
    assert.notEqual(commit.status, 0, 'the commit went through');
    assert.match(commit.stderr, /commit refused: 1 staged path is outside ATLAS's territory/);
    assert.match(commit.stderr, /src\/a\.ts: held exclusively by BOLT \(claim src\/\*\*, until \d{4}-\d\d-\d\dT/);
    assert.match(commit.stderr, /fleet claim --as ATLAS src\/a\.ts/);
    assert.match(commit.stderr, /FLEET_OVERRIDE/);
  });

  test('git commit: refused on an unclaimed path', () => {
    const commit = commitChange(repo, home, 'README.md');
    assert.notEqual(commit.status, 0);
    assert.match(commit.stderr, /README\.md: unclaimed: ATLAS holds no live claim covering it/);
  });

  test("git commit: allowed on the agent's own territory (found by the worktree it registered, or named by FLEET_AS)", () => {
    const commit = commitChange(repo, home, 'docs/guide.md');
    assert.equal(commit.status, 0, commit.stderr);
    const named = commitChange(repo, home, 'docs/more.md', { FLEET_AS: 'ATLAS' });
    assert.equal(named.status, 0, named.stderr);
    const asBolt = commitChange(repo, home, 'docs/guide.md', { FLEET_AS: 'BOLT' });
    assert.notEqual(asBolt.status, 0, "BOLT may not commit ATLAS's docs");
    assert.match(asBolt.stderr, /held exclusively by ATLAS/);
  });

  test('an agent whose claim expired holds nothing and is refused', async () => {
    await atlas.call('fleet_claim_path', { patterns: ['lib/**'], root: repo, ttlSeconds: 0.3 });
    const claims = async () => (await operator.call('fleet_claims', { holder: 'ATLAS' })).claims.map((c) => c.pattern);
    assert.ok((await claims()).includes('lib/**'));
    const deadline = Date.now() + 10_000;
    while ((await claims()).includes('lib/**') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const commit = commitChange(repo, home, 'lib/x.ts');
    assert.notEqual(commit.status, 0);
    assert.match(commit.stderr, /lib\/x\.ts: unclaimed/);
  });

  test('an agent that left the roster is refused even on what it held', async () => {
    const gone = await plane.connect('test-gone');
    await gone.call('fleet_agent_join', { callsign: 'GONE', runtime: 'script', worktree: join(outside, 'gone') });
    await gone.call('fleet_claim_path', { patterns: ['notes/**'], root: repo });
    await gone.call('fleet_agent_leave', {});
    gone.close();
    const commit = commitChange(repo, home, 'notes/n.md', { FLEET_AS: 'GONE' });
    assert.notEqual(commit.status, 0);
    assert.match(commit.stderr, /GONE is not on the roster any more \(left\)/);
  });

  test('FLEET_OVERRIDE lets the commit through and is recorded as override.used', async () => {
    const commit = commitChange(repo, home, 'src/a.ts', { FLEET_OVERRIDE: 'hotfix for prod' });
    assert.equal(commit.status, 0, commit.stderr);
    assert.match(commit.stderr, /FLEET_OVERRIDE let 1 path outside the territory through/);
    const used = (await eventsOf(home)).filter((e) => e.type === 'override.used');
    assert.deepEqual(
      used.map((e) => e.type === 'override.used' && { path: e.path, reason: e.reason, hook: e.hook, by: e.by }),
      [{ path: 'src/a.ts', reason: 'hotfix for prod', hook: 'git-pre-commit', by: 'ATLAS' }],
    );
  });

  test('Claude Code hook: a Write to another agent\'s file is denied with a reason the model can act on', () => {
    const { status, output } = claudeHook(repo, home, { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/a.ts'), content: 'x' } });
    assert.equal(status, 0);
    assert.equal(output?.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny');
    const reason = output!.hookSpecificOutput.permissionDecisionReason;
    assert.match(reason, /ATLAS may not write this file/);
    assert.match(reason, /src\/a\.ts: held exclusively by BOLT \(claim src\/\*\*, until /);
    assert.match(reason, /fleet_claim_path/);
    assert.match(reason, /fleet_message_send/);
  });

  test('Claude Code hook: an Edit inside its own claim is allowed (exit 0, no decision, so Claude Code\'s own permissions still apply)', () => {
    const edit = claudeHook(repo, home, { tool_name: 'Edit', tool_input: { file_path: join(repo, 'docs/guide.md'), old_string: 'a', new_string: 'b' } });
    assert.equal(edit.status, 0);
    assert.equal(edit.output, undefined);
    const created = claudeHook(repo, home, { tool_name: 'Write', tool_input: { file_path: join(repo, 'docs/new/deep/page.md'), content: 'x' } });
    assert.equal(created.output, undefined, 'a new file under its claim, in folders that do not exist yet');
  });

  test('Claude Code hook: unclaimed NotebookEdit and MultiEdit are denied; reads and files outside any repository pass', () => {
    const notebook = claudeHook(repo, home, { tool_name: 'NotebookEdit', tool_input: { notebook_path: join(repo, 'analysis.ipynb'), new_source: 'x' } });
    assert.equal(notebook.output?.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(notebook.output!.hookSpecificOutput.permissionDecisionReason, /analysis\.ipynb: unclaimed/);
    const multi = claudeHook(repo, home, { tool_name: 'MultiEdit', tool_input: { file_path: join(repo, 'README.md'), edits: [] } });
    assert.equal(multi.output?.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(claudeHook(repo, home, { tool_name: 'Read', tool_input: { file_path: join(repo, 'src/a.ts') } }).output, undefined);
    assert.equal(claudeHook(repo, home, { tool_name: 'Write', tool_input: { file_path: join(outside, 'scratch.txt'), content: 'x' } }).output, undefined);
  });

  test('Claude Code hook: an agent that left is refused (a session that never joined: session-identity.test.ts)', () => {
    const gone = claudeHook(repo, home, { tool_name: 'Write', tool_input: { file_path: join(repo, 'notes/n.md'), content: 'x' } }, { FLEET_AS: 'GONE' });
    assert.match(gone.output!.hookSpecificOutput.permissionDecisionReason, /GONE is not on the roster any more/);
  });

  test('Claude Code hook: FLEET_OVERRIDE allows and is recorded', async () => {
    const run = claudeHook(repo, home, { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/a.ts'), content: 'x' } }, { FLEET_OVERRIDE: 'operator says so' });
    assert.equal(run.output, undefined);
    const used = (await eventsOf(home)).filter((e) => e.type === 'override.used' && e.hook === 'claude-pre-tool-use');
    assert.equal(used.length, 1);
    assert.equal(used[0]!.type === 'override.used' && used[0]!.reason, 'operator says so');
  });
});

describe('install-hooks chains with what is there, and uninstall-hooks takes out exactly what it put in', () => {
  const home = tempHome();

  after(async () => {
    await runCli(['shutdown'], { home, cwd: home });
    removeHome(home);
  });

  test('an existing pre-commit hook keeps running after the check, and comes back byte for byte', async () => {
    const repo = makeRepo();
    try {
      const hook = join(repo, '.git', 'hooks', 'pre-commit');
      const original = '#!/bin/sh\necho ran >> "$(git rev-parse --show-toplevel)/.git/chained-ran"\n';
      writeFileSync(hook, original, { mode: 0o755 });
      assert.equal((await runCli(['install-hooks', '--no-claude'], { home, cwd: repo })).code, 0);
      assert.equal(readFileSync(join(repo, '.git', 'hooks', 'pre-commit.fleet-chained'), 'utf8'), original);
      // Nobody has joined in this repository: the check for a person lets an unclaimed path through.
      const commit = commitChange(repo, home, 'src/b.ts');
      assert.equal(commit.status, 0, commit.stderr);
      assert.ok(existsSync(join(repo, '.git', 'chained-ran')), 'the chained hook ran');
      assert.equal((await runCli(['install-hooks', '--no-claude'], { home, cwd: repo })).code, 0, 'installing twice is fine');
      assert.equal(readFileSync(join(repo, '.git', 'hooks', 'pre-commit.fleet-chained'), 'utf8'), original);
      assert.equal((await runCli(['uninstall-hooks'], { home, cwd: repo })).code, 0);
      assert.equal(readFileSync(hook, 'utf8'), original);
      assert.ok(!existsSync(join(repo, '.git', 'hooks', 'pre-commit.fleet-chained')));
      assert.ok(!existsSync(join(repo, '.claude')));
    } finally {
      removeHome(repo);
    }
  });

  test('core.hooksPath is respected', async () => {
    const repo = makeRepo();
    try {
      gitIn(repo, process.env, 'config', 'core.hooksPath', '.githooks');
      assert.equal((await runCli(['install-hooks', '--no-claude'], { home, cwd: repo })).code, 0);
      accessSync(join(repo, '.githooks', 'pre-commit'), constants.X_OK);
      assert.ok(!existsSync(join(repo, '.git', 'hooks', 'pre-commit')));
      assert.equal((await runCli(['uninstall-hooks', '--no-claude'], { home, cwd: repo })).code, 0);
      assert.ok(!existsSync(join(repo, '.githooks', 'pre-commit')));
    } finally {
      removeHome(repo);
    }
  });

  test('husky: the check goes into .husky/pre-commit as a block, the rest of the file untouched, and comes out again', async () => {
    const repo = makeRepo();
    try {
      mkdirSync(join(repo, '.husky', '_'), { recursive: true });
      const original = 'npm run lint-staged\n';
      writeFileSync(join(repo, '.husky', 'pre-commit'), original);
      gitIn(repo, process.env, 'config', 'core.hooksPath', '.husky/_');
      assert.equal((await runCli(['install-hooks', '--no-claude'], { home, cwd: repo })).code, 0);
      const installed = readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8');
      assert.match(installed, /^# >>> fleet-coordination >>>\n[\s\S]*hook git-pre-commit[\s\S]*# <<< fleet-coordination <<<\nnpm run lint-staged\n$/);
      assert.ok(!existsSync(join(repo, '.husky', '_', 'pre-commit')), "husky's generated folder is left to husky");
      assert.equal((await runCli(['install-hooks', '--no-claude'], { home, cwd: repo })).code, 0);
      assert.equal(readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8'), installed, 'idempotent');
      assert.equal((await runCli(['uninstall-hooks', '--no-claude'], { home, cwd: repo })).code, 0);
      assert.equal(readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8'), original);
    } finally {
      removeHome(repo);
    }
  });

  test('existing shared Claude Code settings (--shared) are merged with, and restored on uninstall', async () => {
    const repo = makeRepo();
    try {
      const existing = {
        permissions: { allow: ['Bash(npm test)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo checked' }] }], Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      };
      mkdirSync(join(repo, '.claude'));
      writeFileSync(join(repo, '.claude', 'settings.json'), `${JSON.stringify(existing, null, 2)}\n`);
      assert.equal((await runCli(['install-hooks', '--no-git', '--shared'], { home, cwd: repo })).code, 0);
      const merged = JSON.parse(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')) as typeof existing;
      assert.deepEqual(merged.permissions, existing.permissions);
      assert.deepEqual(merged.hooks.Stop, existing.hooks.Stop);
      assert.deepEqual(merged.hooks.PreToolUse[0], existing.hooks.PreToolUse[0]);
      assert.equal(merged.hooks.PreToolUse.length, 2);
      assert.equal((await runCli(['uninstall-hooks', '--no-git'], { home, cwd: repo })).code, 0);
      assert.equal(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8'), `${JSON.stringify(existing, null, 2)}\n`);
    } finally {
      removeHome(repo);
    }
  });
});
