// DESIGN §11: a hook that cannot get the plane's answer denies, saying why, and does so before the
// runtime gives up on it: Claude Code and Codex let a tool call through when its PreToolUse hook
// times out (the installed timeout is 30 s). A plane that is alive but answers nothing (stopped,
// swapped out, stuck) is the case that hung every hook until the runtime's timeout let the write in.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { saveSession } from '../../server/home/sessions.js';
import { HOOK_PLANE_DEADLINE_MS, UNANSWERED_PLANE_DEADLINE_MS } from '../../server/hooks/plane-deadline.js';
import { runShell } from '../integration/agents/support.js';
import { makeRepo } from '../support/git-repo.js';
import { within } from '../support/within.js';
import { removeHome, startPlaneProcess, tempHome } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

type HookFile = { hooks: Record<string, { hooks: { command: string }[] }[]> };

/** The command install-hooks gave `event` in a runtime's hook file (the fleet's, found by its verb). */
function installedCommand(file: string, event: string, verb: string): string {
  return (JSON.parse(readFileSync(file, 'utf8')) as HookFile).hooks[event]!.flatMap((group) => group.hooks).find((hook) => hook.command.includes(` ${verb} --home `))!.command;
}

/** What install-hooks gave each runtime for PreToolUse, read back from the files it wrote. */
function installedPreToolUse(repo: string, codexHome: string): { claude: string; codex: string } {
  type Hooks = { hooks: { PreToolUse: { hooks: { command: string; timeout: number }[] }[] } };
  const pick = (file: string, verb: string) => {
    const hook = (JSON.parse(readFileSync(file, 'utf8')) as Hooks).hooks.PreToolUse.flatMap((group) => group.hooks).find((hook) => hook.command.includes(verb))!;
    assert.ok(HOOK_PLANE_DEADLINE_MS + 5_000 < hook.timeout * 1000, `the deadline leaves the runtime's ${hook.timeout} s timeout room`);
    return hook.command;
  };
  return { claude: pick(join(repo, '.claude', 'settings.local.json'), 'claude-pre-tool-use'), codex: pick(join(codexHome, 'hooks.json'), 'codex-pre-tool-use') };
}

test('with the plane alive but answering nothing, every PreToolUse hook denies, saying why, before the runtime would give up on it', async () => {
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const codexHome = tempHome('fleet-codex-home-');
  const plane = await startPlaneProcess();
  const env = { ...process.env, FLEET_HOME: plane.home, CODEX_HOME: codexHome, FLEET_AS: 'ATLAS', FLEET_OVERRIDE: '' };
  try {
    const installed = await runCli(['install-hooks'], { home: plane.home, cwd: repo, env: { CODEX_HOME: codexHome } });
    assert.equal(installed.code, 0, installed.stderr);
    const { claude, codex } = installedPreToolUse(repo, codexHome);
    const atlas = await plane.connect('atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo });
    atlas.close();

    plane.child.kill('SIGSTOP');
    const claudeEvent = (tool_name: string, tool_input: object) => JSON.stringify({ session_id: 's1', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 'toolu_1' });
    const codexEvent = (tool_name: string, tool_input: object) => JSON.stringify({ session_id: 'thread-1', turn_id: 'turn-1', transcript_path: null, cwd: repo, hook_event_name: 'PreToolUse', model: 'gpt-5-codex', permission_mode: 'default', tool_name, tool_input, tool_use_id: 'call-1' });
    const cases = [
      { name: 'Claude Write (the lean runner)', command: claude, input: claudeEvent('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }) },
      { name: 'Claude Bash (the lean runner)', command: claude, input: claudeEvent('Bash', { command: 'echo x > src/a.ts' }) },
      { name: 'Claude Write (the full verb)', command: `${quote(join(plane.home, 'bin', 'fleet'))} hook claude-pre-tool-use --home ${quote(plane.home)}`, input: claudeEvent('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }) },
      { name: 'Codex apply_patch', command: codex, input: codexEvent('apply_patch', { command: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch' }) },
    ];
    const started = Date.now();
    // Bounded: past the runtime's timeout the hook has lost (the write went through); SIGCONT then ends the stuck ones.
    const answers = await within(Promise.all(cases.map(async (each) => ({ ...each, ...(await runShell(each.command, { cwd: repo, env, input: each.input })), ms: Date.now() - started }))), 30_000, 'every hook answering while the plane is stopped');
    for (const answer of answers) {
      assert.ok(answer.ms < HOOK_PLANE_DEADLINE_MS + 5_000, `${answer.name} answered after ${answer.ms} ms`);
      assert.equal(answer.status, 0, `${answer.name}: ${answer.stderr}`);
      const decision = JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      assert.equal(decision.hookSpecificOutput.permissionDecision, 'deny', answer.name);
      assert.match(decision.hookSpecificOutput.permissionDecisionReason, /^The fleet could not check this write \(the plane did not answer within \d+ s/, answer.name);
    }
  } finally {
    plane.child.kill('SIGCONT');
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(codexHome);
  }
});

/**
 * A plane, hooks installed in a repository (git, Claude Code, Codex), and ATLAS joined at it; the
 * caller stops the plane (SIGSTOP) when it wants it silent.
 */
async function stalledFleet() {
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const codexHome = tempHome('fleet-codex-home-');
  // ATLAS outlives its connection (no heartbeats while the plane is stopped): its claim stays live.
  const plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: '3600' } });
  const env = { ...process.env, FLEET_HOME: plane.home, CODEX_HOME: codexHome, FLEET_AS: 'ATLAS', FLEET_OVERRIDE: '' };
  const installed = await runCli(['install-hooks'], { home: plane.home, cwd: repo, env: { CODEX_HOME: codexHome } });
  assert.equal(installed.code, 0, installed.stderr);
  const atlas = await plane.connect('atlas');
  const joined = await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo });
  // Kept as ATLAS's Claude Code session keeps it (its SessionStart joined it): SessionEnd has claims to escrow, and must ask the plane.
  await saveSession(plane.home, { callsign: 'ATLAS', runtime: 'claude-code', agentId: joined.agentId, sessionToken: joined.sessionToken });
  await atlas.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  atlas.close();
  const claudeFile = join(repo, '.claude', 'settings.local.json');
  const codexFile = join(codexHome, 'hooks.json');
  const claude = (event: string, verb: string) => installedCommand(claudeFile, event, verb);
  const codex = (event: string, verb: string) => installedCommand(codexFile, event, verb);
  const claudeEvent = (event: string, fields: object) => JSON.stringify({ session_id: 's1', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: event, ...fields });
  const codexEvent = (event: string, fields: object) => JSON.stringify({ session_id: 'thread-1', turn_id: 'turn-1', transcript_path: null, cwd: repo, hook_event_name: event, model: 'gpt-5-codex', permission_mode: 'default', ...fields });
  const run = (command: string, input: string) => runShell(command, { cwd: repo, env, input });
  return {
    repo,
    plane,
    claude,
    codex,
    claudeEvent,
    codexEvent,
    run,
    async cleanUp() {
      plane.child.kill('SIGCONT');
      await plane.stop();
      removeHome(plane.home);
      removeHome(repo);
      removeHome(codexHome);
    },
  };
}

test("with the plane stopped, git's pre-commit hook, SessionStart, PostToolUse and SessionEnd each answer within the deadline, saying why", async () => {
  const fleet = await stalledFleet();
  const { repo, plane, claude, codex, claudeEvent, codexEvent, run } = fleet;
  try {
    // Before the plane stops: PreToolUse allows a Bash call and marks the worktree, so its PostToolUse has a question to ask the plane.
    const bash = { tool_name: 'Bash', tool_input: { command: 'ls src' } };
    for (const [command, input] of [
      [claude('PreToolUse', 'claude-pre-tool-use'), claudeEvent('PreToolUse', { ...bash, tool_use_id: 'toolu_1' })],
      [codex('PreToolUse', 'codex-pre-tool-use'), codexEvent('PreToolUse', { ...bash, tool_use_id: 'call-1' })],
    ] as const) {
      const allowed = await run(command, input);
      assert.deepEqual([allowed.status, allowed.stdout], [0, ''], allowed.stderr);
    }
    writeFileSync(join(repo, 'src', 'a.ts'), 'export const a = 2;\n');
    execFileSync('git', ['add', 'src/a.ts'], { cwd: repo });

    plane.child.kill('SIGSTOP');
    const stopped = Date.now();
    const cases = [
      { name: 'git commit (the pre-commit hook)', command: 'git commit -q -m change', input: '' },
      { name: 'Claude SessionStart', command: claude('SessionStart', 'claude-session-start'), input: claudeEvent('SessionStart', { source: 'startup' }) },
      { name: 'Claude PostToolUse', command: claude('PostToolUse', 'claude-post-tool-use'), input: claudeEvent('PostToolUse', { ...bash, tool_use_id: 'toolu_1', tool_response: {} }) },
      { name: 'Claude SessionEnd', command: claude('SessionEnd', 'claude-session-end'), input: claudeEvent('SessionEnd', { reason: 'exit' }) },
      { name: 'Codex SessionStart', command: codex('SessionStart', 'codex-session-start'), input: codexEvent('SessionStart', { source: 'startup' }) },
      { name: 'Codex PostToolUse', command: codex('PostToolUse', 'codex-post-tool-use'), input: codexEvent('PostToolUse', { ...bash, tool_use_id: 'call-1', tool_response: 'ok' }) },
    ];
    // Bounded: Claude Code kills a hook at 30 s; git never does (SIGCONT in cleanUp then ends the stuck ones).
    const answers = await within(Promise.all(cases.map(async (each) => ({ ...each, ...(await run(each.command, each.input)), ms: Date.now() - stopped }))), 25_000, 'every hook answering while the plane is stopped');
    const byName = new Map(answers.map((answer) => [answer.name, answer]));
    for (const answer of answers) assert.ok(answer.ms < HOOK_PLANE_DEADLINE_MS + 5_000, `${answer.name} answered after ${answer.ms} ms`);

    const commit = byName.get('git commit (the pre-commit hook)')!;
    assert.equal(commit.status, 1, 'the commit is refused');
    assert.match(commit.stderr, /commit refused: .*the plane did not answer within \d+ s/);
    assert.equal(execFileSync('git', ['log', '--oneline'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').length, 1, 'nothing was committed');

    for (const name of ['Claude SessionStart', 'Codex SessionStart']) {
      const start = byName.get(name)!;
      assert.equal(start.status, 0, `${name}: ${start.stderr}`);
      const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
      assert.match(context, /^The fleet could not re-attach you as ATLAS \(the plane did not answer within \d+ s/, name);
    }
    for (const name of ['Claude PostToolUse', 'Codex PostToolUse']) {
      const post = byName.get(name)!;
      assert.deepEqual([post.status, post.stdout], [0, ''], `${name} reports nothing it could not learn: ${post.stderr}`);
    }
    const end = byName.get('Claude SessionEnd')!;
    assert.equal(end.status, 1);
    assert.match(end.stderr, /the plane did not answer within \d+ s.*claims were not put in escrow/);
  } finally {
    await fleet.cleanUp();
  }
});

test('after one hook missed the deadline, the next ones fail fast while the plane stays stopped, and wait in full again once it answers', async () => {
  const fleet = await stalledFleet();
  const { repo, plane, claude, claudeEvent, run } = fleet;
  const write = claudeEvent('PreToolUse', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src', 'a.ts'), content: 'x' }, tool_use_id: 'toolu_1' });
  const reasonOf = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
  const timed = async () => {
    const started = Date.now();
    const answer = await within(run(claude('PreToolUse', 'claude-pre-tool-use'), write), 25_000, 'a PreToolUse hook answering');
    return { ...answer, ms: Date.now() - started };
  };
  try {
    plane.child.kill('SIGSTOP');
    const first = await timed();
    assert.ok(first.ms >= HOOK_PLANE_DEADLINE_MS, `the first waits the full deadline (${first.ms} ms)`);
    assert.match(reasonOf(first.stdout), /the plane did not answer within 10 s/);
    for (let i = 0; i < 2; i++) {
      const next = await timed();
      assert.ok(next.ms < UNANSWERED_PLANE_DEADLINE_MS + 2_000, `call ${i + 2} failed fast (${next.ms} ms)`);
      assert.match(reasonOf(next.stdout), /^The fleet could not check this write \(the plane did not answer within 1\.5 s \(nor any hook since /);
    }
    plane.child.kill('SIGCONT');
    const answered = await timed();
    assert.deepEqual([answered.status, answered.stdout], [0, ''], 'the plane answers again: ATLAS may write its own file');
    assert.ok(!existsSync(join(plane.home, 'plane-unanswered.json')), 'an answer in time clears the note');
    plane.child.kill('SIGSTOP');
    const again = await timed();
    assert.ok(again.ms >= HOOK_PLANE_DEADLINE_MS, `a new silence waits the full deadline again (${again.ms} ms)`);
  } finally {
    await fleet.cleanUp();
  }
});

test('with FLEET_HOME gone, the installed PreToolUse hooks of both runtimes refuse the tool call (exit 2), saying how to remove the hooks', async () => {
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const codexHome = tempHome('fleet-codex-home-');
  const home = tempHome('fleet-gone-home-');
  try {
    const installed = await runCli(['install-hooks'], { home, cwd: repo, env: { CODEX_HOME: codexHome } });
    assert.equal(installed.code, 0, installed.stderr);
    const { claude, codex } = installedPreToolUse(repo, codexHome);
    removeHome(home);
    const env = { ...process.env, FLEET_HOME: home, CODEX_HOME: codexHome };
    const input = JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(repo, 'src', 'a.ts'), content: 'x' }, tool_use_id: 'toolu_1' });
    for (const [name, command, settings] of [
      ['Claude Code', claude, join(repo, '.claude', 'settings.local.json')],
      ['Codex', codex, join(codexHome, 'hooks.json')],
    ] as const) {
      const ran = await runShell(command, { cwd: repo, env, input });
      // Exit 2 is the one failure both runtimes treat as a refusal (126/127 would let the write through).
      assert.equal(ran.status, 2, `${name}: ${ran.stdout}${ran.stderr}`);
      assert.match(ran.stderr, /cannot be run by this user \(FLEET_HOME removed, or owned by another user\), so this tool call is refused/, name);
      assert.ok(ran.stderr.includes(`fleet uninstall-hooks, or delete the entries naming ${join(home, 'bin', 'fleet-hook')} from ${settings}`), `${name}: ${ran.stderr}`);
    }
  } finally {
    removeHome(repo);
    removeHome(codexHome);
  }
});
