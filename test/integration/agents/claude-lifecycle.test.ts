import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { eventsOf, keepAlive, runShell, until } from './support.js';

type Settings = { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };

const readSettings = (repo: string, file: string) => JSON.parse(readFileSync(join(repo, '.claude', file), 'utf8')) as Settings;

/**
 * Runs the hook of `event` exactly as Claude Code would: the command read back from the settings
 * file install-hooks wrote, through a shell, with the documented input on stdin.
 */
function runHook(repo: string, home: string, event: string, input: Record<string, unknown>, env: Record<string, string> = {}) {
  const { command, options } = hookRun(repo, home, event, input, env);
  const run = spawnSync('sh', ['-c', command], { ...options, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

/** The same, without blocking this process: its own clients keep heartbeating while the hook runs. */
async function runHookInBackground(repo: string, home: string, event: string, input: Record<string, unknown>, env: Record<string, string> = {}): Promise<void> {
  const { command, options } = hookRun(repo, home, event, input, env);
  const run = await runShell(command, options);
  assert.equal(run.status, 0, run.stderr);
}

function hookRun(repo: string, home: string, event: string, input: Record<string, unknown>, env: Record<string, string>) {
  const entry = readSettings(repo, 'settings.local.json').hooks[event]?.[0];
  assert.ok(entry, `no ${event} hook in settings.local.json`);
  const base: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: home, FLEET_PORT: '0' };
  delete base.FLEET_AS;
  delete base.FLEET_OVERRIDE;
  const stdin = JSON.stringify({ session_id: 'sess-1', transcript_path: join(home, 'transcript.jsonl'), cwd: repo, permission_mode: 'default', hook_event_name: event, ...input });
  return { command: entry.hooks[0]!.command, options: { cwd: repo, env: { ...base, ...env }, input: stdin } };
}

function startSession(repo: string, home: string, source: string, env: Record<string, string> = {}): string {
  const output = JSON.parse(runHook(repo, home, 'SessionStart', { source }, env)) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.equal(output.hookSpecificOutput.hookEventName, 'SessionStart');
  return output.hookSpecificOutput.additionalContext;
}

describe('Claude Code session lifecycle: SessionStart re-attaches and resumes, SessionEnd escrows to itself', () => {
  let plane: PlaneProcess;
  let home: string;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' });
  const clients: PlaneClient[] = [];
  const stops: (() => void)[] = [];

  before(async () => {
    plane = await startPlaneProcess();
    home = plane.home;
    const installed = await runCli(['install-hooks', '--no-git'], { home, cwd: repo });
    assert.equal(installed.code, 0, installed.stderr);
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of clients) client.close();
    await plane?.stop();
    removeHome(home);
    removeHome(repo);
  });

  /** ATLAS as the hooks left it: the session token they saved in FLEET_HOME/sessions. */
  async function asAtlas(): Promise<PlaneClient> {
    const saved = JSON.parse(readFileSync(join(home, 'sessions', 'ATLAS.json'), 'utf8')) as { sessionToken: string };
    const client = await plane.connect('test-atlas');
    clients.push(client);
    await client.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: saved.sessionToken });
    return client;
  }

  test('install-hooks writes PreToolUse, PostToolUse, SessionStart, SessionEnd and Notification into settings.local.json, and nothing into the shared settings.json', () => {
    const settings = readSettings(repo, 'settings.local.json');
    assert.deepEqual(Object.keys(settings.hooks), ['PreToolUse', 'PostToolUse', 'SessionStart', 'SessionEnd', 'Notification']);
    assert.match(settings.hooks.SessionStart![0]!.hooks[0]!.command, /\/bin\/fleet-hook' claude-session-start --home /);
    assert.match(settings.hooks.SessionEnd![0]!.hooks[0]!.command, /\/bin\/fleet-hook' claude-session-end --home /);
    assert.equal(settings.hooks.SessionStart![0]!.matcher, undefined, 'every source: startup, resume, clear, compact');
    assert.ok(!existsSync(join(repo, '.claude', 'settings.json')), 'absolute FLEET_HOME paths stay out of the committed file');
  });

  test('SessionStart with no identity says how to join and invents no callsign', async () => {
    const context = startSession(repo, home, 'startup');
    assert.match(context, /not on the fleet roster/);
    assert.match(context, /fleet_agent_join/);
    assert.ok(context.includes(`worktree "${realpathSync(repo)}"`), context);
    const operator = await plane.connectAsOperator();
    clients.push(operator);
    const roster = await operator.call('fleet_roster', {});
    assert.deepEqual(roster.agents.map((agent) => agent.callsign), [], 'nobody joined');
  });

  test('SessionStart with FLEET_AS joins, then re-attaches and injects the resume with the claims', async () => {
    const first = startSession(repo, home, 'startup', { FLEET_AS: 'ATLAS' });
    assert.match(first, /You are ATLAS in the fleet/);
    assert.match(first, /Claims: none/);
    const atlas = await asAtlas();
    stops.push(keepAlive(atlas, 2000));
    await atlas.call('fleet_claim_path', { patterns: ['src/**'], root: repo, reason: 'parser' });
    const again = startSession(repo, home, 'compact', { FLEET_AS: 'ATLAS' });
    assert.match(again, /Claims you hold:\n- src\/\*\* \(exclusive/);
  });

  test('SessionEnd escrows the claims to ATLAS itself; the next SessionStart takes them back', async () => {
    assert.equal(runHook(repo, home, 'SessionEnd', { reason: 'prompt_input_exit' }, { FLEET_AS: 'ATLAS' }), '');
    const escrowed = (await eventsOf(home)).filter((event) => event.type === 'claim.escrowed');
    assert.equal(escrowed.length, 1, 'the one claim went into escrow');
    // In escrow, nobody writes under it: not even another agent that asks.
    const bolt = await plane.connect('test-bolt');
    clients.push(bolt);
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex' });
    const refused = await bolt.call('fleet_claim_path', { patterns: ['src/a.ts'], root: repo });
    assert.equal(refused.granted, false, 'escrowed claims still hold the territory');
    const resumed = startSession(repo, home, 'resume', { FLEET_AS: 'ATLAS' });
    assert.match(resumed, /1 claim\(s\) came back out of escrow/);
    assert.match(resumed, /- src\/\*\* \(exclusive/);
    const events = await eventsOf(home);
    assert.ok(events.some((event) => event.type === 'claim.unescrowed'), 'the escrow was settled by accepting');
    // A second SessionEnd escrows again, with no duplicate handoff for claims already travelling.
    runHook(repo, home, 'SessionEnd', { reason: 'other' }, { FLEET_AS: 'ATLAS' });
    runHook(repo, home, 'SessionEnd', { reason: 'other' }, { FLEET_AS: 'ATLAS' });
    assert.equal((await eventsOf(home)).filter((event) => event.type === 'claim.escrowed').length, 2);
  });

  test('install-hooks --shared moves the hooks into settings.json; uninstall-hooks takes them out of both files', async () => {
    assert.equal((await runCli(['install-hooks', '--no-git', '--shared'], { home, cwd: repo })).code, 0);
    assert.deepEqual(Object.keys(readSettings(repo, 'settings.json').hooks), ['PreToolUse', 'PostToolUse', 'SessionStart', 'SessionEnd', 'Notification']);
    assert.ok(!existsSync(join(repo, '.claude', 'settings.local.json')), 'moved, not doubled');
    assert.equal((await runCli(['install-hooks', '--no-git'], { home, cwd: repo })).code, 0);
    assert.ok(!existsSync(join(repo, '.claude', 'settings.json')));
    const removed = await runCli(['uninstall-hooks', '--no-git'], { home, cwd: repo });
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!existsSync(join(repo, '.claude')), 'the folder the install created is gone with its files');
  });
});

describe('Claude Code session lifecycle: escrowed claims outlive the session and its agent', () => {
  const TTL_SECONDS = 1;
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });

  before(async () => {
    plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: String(TTL_SECONDS) } });
    assert.equal((await runCli(['install-hooks', '--no-git'], { home: plane.home, cwd: repo })).code, 0);
  });

  after(async () => {
    await plane?.stop();
    removeHome(plane.home);
    removeHome(repo);
  });

  test('after SessionEnd the agent goes silent and lapses, the claims stay in escrow, and the next SessionStart has them back', async () => {
    const home = plane.home;
    startSession(repo, home, 'startup', { FLEET_AS: 'ATLAS' });
    const saved = JSON.parse(readFileSync(join(home, 'sessions', 'ATLAS.json'), 'utf8')) as { sessionToken: string };
    const atlas = await plane.connect('test-atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: saved.sessionToken });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/**'], root: repo })).granted, true);
    // The runtime is alive until its SessionEnd hook has run (a TTL of 1 s is shorter than a hook on a busy machine).
    const stopHeartbeats = keepAlive(atlas, 200);
    await runHookInBackground(repo, home, 'SessionEnd', { reason: 'logout' }, { FLEET_AS: 'ATLAS' });
    stopHeartbeats();
    atlas.close();
    // The runtime is gone: nothing heartbeats for ATLAS any more, and the plane lets it lapse.
    const operator = await plane.connectAsOperator();
    try {
      await until(async () => (await operator.call('fleet_roster', {})).agents.every((agent) => agent.callsign !== 'ATLAS'), 20_000, 'ATLAS did not lapse');
      const bolt = await plane.connect('test-bolt');
      await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex' });
      assert.equal((await bolt.call('fleet_claim_path', { patterns: ['src/a.ts'], root: repo })).granted, false, 'the escrow still holds src/**');
      bolt.close();
    } finally {
      operator.close();
    }
    const resumed = startSession(repo, home, 'resume', { FLEET_AS: 'ATLAS' });
    assert.match(resumed, /1 claim\(s\) came back out of escrow/);
    assert.match(resumed, /- src\/\*\* \(exclusive/);
    const settled = (await eventsOf(home)).filter((event) => event.type === 'handoff.resolved');
    assert.deepEqual(settled.map((event) => event.type === 'handoff.resolved' && event.status), ['accepted'], 'taken back by accepting, not by expiry');
  });
});

describe('Claude Code PostToolUse: what a tool call changed in another agent\'s territory is reported, never reverted', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n' });
  const elsewhere = tempHome('fleet-elsewhere-');
  const clients: PlaneClient[] = [];
  const stops: (() => void)[] = [];
  let call = 0;

  before(async () => {
    plane = await startPlaneProcess();
    assert.equal((await runCli(['install-hooks', '--no-git'], { home: plane.home, cwd: repo })).code, 0);
    const bolt = await plane.connect('test-bolt');
    clients.push(bolt);
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: elsewhere });
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: repo, reason: 'parser rewrite' });
    stops.push(keepAlive(bolt, 2000));
    startSession(repo, plane.home, 'startup', { FLEET_AS: 'ATLAS' });
    const saved = JSON.parse(readFileSync(join(plane.home, 'sessions', 'ATLAS.json'), 'utf8')) as { sessionToken: string };
    const atlas = await plane.connect('test-atlas');
    clients.push(atlas);
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: saved.sessionToken });
    await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
    stops.push(keepAlive(atlas, 2000));
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of clients) client.close();
    await plane?.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(elsewhere);
  });

  /** PreToolUse, the command run for real in the session's directory, then PostToolUse: as Claude Code runs a Bash call. */
  function bashCall(command: string): { pre: string; post: string } {
    const toolUse = { tool_name: 'Bash', tool_input: { command, description: 'test' }, tool_use_id: `toolu_${++call}` };
    const env = { FLEET_AS: 'ATLAS' };
    const pre = runHook(repo, plane.home, 'PreToolUse', toolUse, env);
    if (pre === '') execFileSync('sh', ['-c', command], { cwd: repo });
    const post = runHook(repo, plane.home, 'PostToolUse', { ...toolUse, tool_response: { stdout: '', stderr: '', interrupted: false } }, env);
    return { pre, post };
  }

  test("a Bash call that writes into BOLT's file unseen by the parser is blocked after the fact, naming path and holder, and recorded as ATLAS's violation", async () => {
    const { pre, post } = bashCall(`node -e "require('fs').writeFileSync(['src', 'a.ts'].join('/'), 'export const a = 2;\\n')"`); // a path the program computes
    assert.equal(pre, '', 'the parser cannot see this write, so PreToolUse allowed it');
    const answer = JSON.parse(post) as { decision: string; reason: string };
    assert.equal(answer.decision, 'block');
    assert.match(answer.reason, /your Bash call changed a file another agent holds exclusively \(you are ATLAS\)/);
    assert.match(answer.reason, /src\/a\.ts: held by BOLT \(claim src\/\*\*\)/);
    assert.match(answer.reason, /Nothing was reverted/);
    assert.equal(readFileSync(join(repo, 'src', 'a.ts'), 'utf8'), 'export const a = 2;\n', 'never reverted');
    await until(async () => (await eventsOf(plane.home)).some((e) => e.type === 'territory.violated' && e.path === 'src/a.ts'), 5000, 'no territory.violated for src/a.ts');
    const violation = (await eventsOf(plane.home)).find((e) => e.type === 'territory.violated');
    assert.ok(violation?.type === 'territory.violated');
    assert.equal(violation.writer, 'ATLAS');
    assert.equal(violation.holder, 'BOLT');
    assert.equal(violation.source, 'Bash', "the hook's tool is the source");
  });

  test('a Bash call that writes only inside its own territory gets nothing back', () => {
    const { pre, post } = bashCall(`node -e "require('fs').writeFileSync(['docs', 'guide.md'].join('/'), '# mine\\n')"`);
    assert.equal(pre, '');
    assert.equal(post, '');
  });
});

describe('Claude Code hooks: the writer is the session, never the target', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const second = join(tempHome('fleet-w2-'), 'w2');
  const clients: PlaneClient[] = [];
  const stops: (() => void)[] = [];

  before(async () => {
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'w2', second], { cwd: repo });
    plane = await startPlaneProcess();
    assert.equal((await runCli(['install-hooks', '--no-git'], { home: plane.home, cwd: repo })).code, 0);
    const bolt = await plane.connect('test-bolt');
    clients.push(bolt);
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: second });
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: second });
    const atlas = await plane.connect('test-atlas');
    clients.push(atlas);
    // This test process stands in for ATLAS's Claude Code: the hooks it runs are its children.
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo, pid: process.pid });
    stops.push(keepAlive(bolt, 2000), keepAlive(atlas, 2000));
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of clients) client.close();
    await plane?.stop();
    removeHome(plane.home);
    removeHome(join(second, '..'));
    removeHome(repo);
  });

  test("ATLAS's session (cwd in W1, no FLEET_AS) writing BOLT's file in W2 is ATLAS writing, and refused", () => {
    const target = join(second, 'src', 'a.ts');
    const output = runHook(repo, plane.home, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: `echo x > ${target}` }, tool_use_id: 'toolu_w2' });
    const answer = JSON.parse(output) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(answer.hookSpecificOutput.permissionDecisionReason, /BOLT/);
    const write = JSON.parse(runHook(repo, plane.home, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: target, content: 'x' }, tool_use_id: 'toolu_w2w' })) as typeof answer;
    assert.equal(write.hookSpecificOutput.permissionDecision, 'deny', 'the file tool too');
    assert.match(write.hookSpecificOutput.permissionDecisionReason, /ATLAS may not write this file/);
  });
});
