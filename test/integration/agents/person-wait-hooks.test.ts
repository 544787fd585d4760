// Runtimes say when they wait for a person: Claude Code's Notification hook and Codex's
// PermissionRequest hook, installed by install-hooks (Codex's at the end of its own event, after the
// user's hook there), run as the runtimes run them (the installed command through a shell, the
// payload on stdin, shaped as Claude Code's hooks reference and codex-rs/hooks/schema/generated/
// permission-request.command.input.schema.json give it). The plane records the wait on the session's
// agent, the digest lists it, the agent's next hook-checked call ends it; the hooks print nothing and
// exit 0, so they never answer the runtime's prompt (DESIGN §16) — also when the payload is garbage
// or no agent is found.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { keepAlive, runShell } from './support.js';

interface HookGroups {
  hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
}

const usersOwn = { hooks: [{ type: 'command', command: 'echo my-own-approval-log', timeout: 5 }] };

describe('Notification and PermissionRequest hooks record a runtime waiting for a person and answer nothing', () => {
  let plane: PlaneProcess;
  let operator: PlaneClient;
  let atlas: PlaneClient;
  let bolt: PlaneClient;
  const repo = makeRepo();
  const codexHome = tempHome('fleet-codex-home-');
  const stops: (() => void)[] = [];

  const installed = (file: string, event: string, verb: string): string =>
    (JSON.parse(readFileSync(file, 'utf8')) as HookGroups).hooks[event]!.flatMap((group) => group.hooks).find((hook) => hook.command.includes(` ${verb} --home `))!.command;
  const claudeNotification = () => installed(join(repo, '.claude', 'settings.local.json'), 'Notification', 'claude-notification');
  const codexPermissionRequest = () => installed(join(codexHome, 'hooks.json'), 'PermissionRequest', 'codex-permission-request');

  /** Runs an installed hook as its runtime does: through a shell, the payload on stdin, in the background (the agents keep answering). */
  const runHook = (command: string, payload: unknown) =>
    runShell(command, { cwd: repo, env: { ...process.env, FLEET_HOME: plane.home, FLEET_AS: '', FLEET_OVERRIDE: '' }, input: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  const waitOf = async (callsign: string) => (await operator.call('fleet_status', {})).agents.find((agent) => agent.callsign === callsign)?.waitingForPerson;

  before(async () => {
    plane = await startPlaneProcess();
    // The user's own PermissionRequest hook is there first: ours goes after it, and it keeps its place (Codex keys trust by place).
    writeFileSync(join(codexHome, 'hooks.json'), `${JSON.stringify({ hooks: { PermissionRequest: [usersOwn] } }, null, 2)}\n`);
    const install = await runCli(['install-hooks', '--no-git'], { home: plane.home, cwd: repo, env: { CODEX_HOME: codexHome } });
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, /Claude Code hooks \(PreToolUse, PostToolUse, SessionStart, SessionEnd, Notification\) created/);
    assert.match(install.stdout, /Codex hooks \(PreToolUse, PostToolUse, SessionStart, PermissionRequest\) updated/);
    operator = await plane.connectAsOperator();
    atlas = await plane.connect('test-atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo });
    await atlas.call('fleet_hook_session', { sessionId: 'claude-session-1', bind: true });
    bolt = await plane.connect('test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: repo });
    await bolt.call('fleet_hook_session', { sessionId: 'codex-thread-1', bind: true });
    stops.push(keepAlive(atlas), keepAlive(bolt));
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of [operator, atlas, bolt]) client?.close();
    await plane?.stop();
    removeHome(codexHome);
  });

  test('install-hooks puts Codex\'s PermissionRequest hook after the user\'s own there, and Claude Code\'s Notification hook on every notification type', () => {
    const codex = JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8')) as HookGroups;
    assert.deepEqual(codex.hooks.PermissionRequest!.map((group) => group.hooks.map((hook) => hook.command.includes('codex-permission-request') ? 'fleet' : hook.command)), [['echo my-own-approval-log'], ['fleet']]);
    assert.equal(codex.hooks.PermissionRequest![1]!.matcher, undefined, 'every tool Codex asks about');
    assert.match(codexPermissionRequest(), new RegExp(` --root '${repo}'$`));
    const claude = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as HookGroups;
    assert.equal(claude.hooks.Notification![0]!.matcher, undefined, 'every notification type: the hook picks those that wait for a person');
  });

  test('Claude Code\'s permission prompt: the agent of the session waits for a person, the digest says so, the hook says nothing; its next tool call ends the wait', async () => {
    const run = await runHook(claudeNotification(), {
      session_id: 'claude-session-1',
      transcript_path: '/tmp/transcript.jsonl',
      cwd: repo,
      hook_event_name: 'Notification',
      message: 'Claude needs your permission to use Bash',
      notification_type: 'permission_prompt',
    });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', '']);
    const wait = await waitOf('ATLAS');
    assert.deepEqual(wait && [wait.hook, wait.reason, wait.tool, wait.message], ['claude-notification', 'permission', 'Bash', 'Claude needs your permission to use Bash']);
    const { digest, markdown } = await operator.call('fleet_digest', {});
    assert.deepEqual(digest.waitingForPerson.map((w) => [w.callsign, w.runtime, w.reason]), [['ATLAS', 'claude-code', 'permission']]);
    assert.match(markdown, /## Agents waiting for a person\n\n- \*\*ATLAS\*\* \(claude-code\) asks permission since .* \(Bash\): Claude needs your permission to use Bash/);

    // The person allowed it: the runtime's next tool call reaches the PreToolUse check, and nobody is waited for.
    await atlas.call('fleet_hook_check', { paths: [join(repo, 'src', 'a.ts')], root: repo, sessionId: 'claude-session-1', hook: 'claude-pre-tool-use' });
    assert.equal(await waitOf('ATLAS'), undefined);
  });

  test('Claude Code idle 60 s waits for input; a notification that waits for nobody (auth_success) records nothing', async () => {
    const base = { session_id: 'claude-session-1', transcript_path: '/tmp/t.jsonl', cwd: repo, hook_event_name: 'Notification' };
    const done = await runHook(claudeNotification(), { ...base, message: 'Authenticated', notification_type: 'auth_success' });
    assert.deepEqual([done.status, done.stdout], [0, '']);
    assert.equal(await waitOf('ATLAS'), undefined);
    const idle = await runHook(claudeNotification(), { ...base, message: 'Claude is waiting for your input', notification_type: 'idle_prompt' });
    assert.deepEqual([idle.status, idle.stdout], [0, '']);
    assert.deepEqual((await waitOf('ATLAS'))?.reason, 'input');
  });

  test('Codex\'s PermissionRequest: recorded with the command it asks to run, and no verdict (no output, exit 0: Codex shows its own prompt)', async () => {
    const run = await runHook(codexPermissionRequest(), {
      session_id: 'codex-thread-1',
      turn_id: 'turn-7',
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'PermissionRequest',
      model: 'gpt-5-codex',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build', description: 'clean the build' },
    });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', '']);
    const wait = await waitOf('BOLT');
    assert.deepEqual(wait && [wait.hook, wait.reason, wait.tool, wait.message], ['codex-permission-request', 'permission', 'Bash', 'Codex asks to run Bash: rm -rf build (clean the build)']);
    const status = await runCli(['status'], { home: plane.home, cwd: repo });
    assert.match(status.stdout, /^ {2}BOLT asks permission \(since (now|\d+s ago)\): Codex asks to run Bash: rm -rf build \(clean the build\)$/m);
  });

  test('nothing decides when nothing can be recorded: garbage, a session no agent speaks for, another repository', async () => {
    const nobodys = ['not json {', { session_id: 'nobody', cwd: repo, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'ls' }, notification_type: 'permission_prompt' }];
    const runs = [
      ...nobodys.flatMap((payload) => [codexPermissionRequest(), claudeNotification()].map((command) => ({ command, payload }))),
      // A Codex session in another repository: this repository's hook stays silent.
      { command: codexPermissionRequest(), payload: { session_id: 'codex-thread-1', cwd: '/', tool_name: 'Bash', tool_input: { command: 'ls' } } },
    ];
    for (const { command, payload } of runs) {
      const run = await runHook(command, payload);
      assert.deepEqual([run.status, run.stdout], [0, ''], `${command} with ${JSON.stringify(payload)}: ${run.stderr}`);
    }
    const events = (await operator.call('fleet_status', {})).agents.map((agent) => [agent.callsign, agent.waitingForPerson?.message]);
    assert.deepEqual(events, [['ATLAS', 'Claude is waiting for your input'], ['BOLT', 'Codex asks to run Bash: rm -rf build (clean the build)']], 'no wait recorded for nobody');
  });
});
