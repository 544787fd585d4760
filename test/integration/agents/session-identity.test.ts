import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { sessionKey } from '../../../server/plane/handlers/session-key.js';
import { makeRepo } from '../../support/git-repo.js';
import { CLI, removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { eventsOf, until } from './support.js';

type HookGroups = Record<string, { matcher?: string; hooks: { command: string }[] }[]>;

/**
 * Two agents in ONE worktree, told apart by their sessions (DESIGN §11: FLEET_AS, else the agent
 * bound to the hook's session_id at SessionStart, else the worktree's agent). ATLAS runs in Claude
 * Code, BOLT in Codex; both started with FLEET_AS in their SessionStart hook's environment only, so
 * every later hook knows them by session_id alone. Every hook is the command install-hooks wrote,
 * read back from the file, run through a shell with the runtime's documented payload on stdin.
 */
describe('Session identity: hooks of two agents sharing one worktree act for their own session', () => {
  let plane: PlaneProcess;
  let home: string;
  const repo = makeRepo({ 'src/atlas/a.ts': 'export const a = 1;\n', 'src/bolt/b.ts': 'export const b = 1;\n' });
  const elsewhere = makeRepo({ 'x.ts': 'export {};\n' });
  const clients: PlaneClient[] = [];
  let call = 0;

  const claudeHooks = () => (JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: HookGroups }).hooks;
  const codexHooks = () => (JSON.parse(readFileSync(join(home, 'codex', 'hooks.json'), 'utf8')) as { hooks: HookGroups }).hooks;

  /** Runs the fleet's hook for `event` from `groups` as the runtime would: through a shell, in `cwd`, the payload on stdin. */
  function run(groups: HookGroups, event: string, payload: Record<string, unknown>, env: Record<string, string> = {}, cwd = repo): string {
    const hook = groups[event]!.flatMap((group) => group.hooks).find((h) => h.command.includes(' hook ') || h.command.includes('fleet-hook'));
    assert.ok(hook, `no fleet ${event} hook`);
    const base: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: home, FLEET_PORT: '0' };
    delete base.FLEET_AS;
    delete base.FLEET_OVERRIDE;
    const result = spawnSync('sh', ['-c', hook.command], { cwd, env: { ...base, ...env }, input: JSON.stringify({ hook_event_name: event, cwd, ...payload }), encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  }

  // Claude Code's common input fields (session_id, transcript_path, cwd, permission_mode, hook_event_name).
  const claude = (event: string, sessionId: string, payload: Record<string, unknown>, env: Record<string, string> = {}) =>
    run(claudeHooks(), event, { session_id: sessionId, transcript_path: join(home, `${sessionId}.jsonl`), permission_mode: 'default', ...payload }, env);
  // Codex's (codex-rs/hooks/src/schema.rs): session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode.
  const codex = (event: string, sessionId: string, payload: Record<string, unknown>, env: Record<string, string> = {}, cwd = repo) =>
    run(codexHooks(), event, { session_id: sessionId, turn_id: 'turn-1', transcript_path: null, model: 'gpt-5-codex', permission_mode: 'default', ...payload }, env, cwd);

  const decision = (output: string) => (output === '' ? 'allow' : (JSON.parse(output) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision);
  const reason = (output: string) => (JSON.parse(output) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
  const context = (output: string) => (JSON.parse(output) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput.additionalContext;

  /** The agent as its session's hooks left it (the token they saved), to claim with. */
  async function reattach(callsign: string, runtime: string): Promise<PlaneClient> {
    const saved = JSON.parse(readFileSync(join(home, 'sessions', `${callsign}.json`), 'utf8')) as { sessionToken: string };
    const client = await plane.connect(`test-${callsign}`);
    clients.push(client);
    await client.call('fleet_agent_join', { callsign, runtime, sessionToken: saved.sessionToken });
    return client;
  }

  before(async () => {
    plane = await startPlaneProcess();
    home = plane.home;
    const installed = await runCli(['install-hooks', '--no-git'], { home, cwd: repo });
    assert.equal(installed.code, 0, installed.stderr);
    // Each runtime's SessionStart, with FLEET_AS for that hook only: it joins at the worktree and binds the session.
    assert.match(context(claude('SessionStart', 'sess-atlas', { source: 'startup' }, { FLEET_AS: 'ATLAS' })), /You are ATLAS in the fleet/);
    assert.match(context(codex('SessionStart', 'thread-bolt', { source: 'startup' }, { FLEET_AS: 'BOLT' })), /You are BOLT in the fleet/);
    const atlas = await reattach('ATLAS', 'claude-code');
    const bolt = await reattach('BOLT', 'codex');
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/atlas/**'], root: repo })).granted, true);
    assert.equal((await bolt.call('fleet_claim_path', { patterns: ['src/bolt/**'], root: repo })).granted, true);
  });

  after(async () => {
    for (const client of clients) client.close();
    await plane?.stop();
    for (const dir of [home, repo, elsewhere]) removeHome(dir);
  });

  test('both agents registered the same worktree, and their SessionStart hooks recorded each binding, never the raw session id', async () => {
    const operator = await plane.connectAsOperator();
    clients.push(operator);
    const roster = await operator.call('fleet_roster', {});
    assert.deepEqual(roster.agents.map((a) => a.callsign).sort(), ['ATLAS', 'BOLT']);
    const events = await eventsOf(home);
    const bound = events.flatMap((e) => (e.type === 'agent.session_bound' ? [e.sessionId] : []));
    assert.deepEqual(bound.sort(), [sessionKey('sess-atlas'), sessionKey('thread-bolt')].sort());
    // Whoever reads the events (any token) must not learn an id it could speak as in the hooks' methods.
    assert.doesNotMatch(JSON.stringify(events), /sess-atlas|thread-bolt/);
  });

  test('Claude Code PreToolUse: ATLAS\'s session writes its own claim, and is refused BOLT\'s (file tool and shell)', () => {
    assert.equal(decision(claude('PreToolUse', 'sess-atlas', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/atlas/a.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` })), 'allow');
    writeFileSync(join(repo, 'src/atlas/a.ts'), 'x'); // as Claude Code writes once its hook allowed
    const write = claude('PreToolUse', 'sess-atlas', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/bolt/b.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` });
    assert.equal(decision(write), 'deny');
    assert.match(reason(write), /ATLAS may not write this file[\s\S]*BOLT/);
    const shell = claude('PreToolUse', 'sess-atlas', { tool_name: 'Bash', tool_input: { command: 'echo x > src/bolt/b.ts' }, tool_use_id: `toolu_${++call}` });
    assert.equal(decision(shell), 'deny');
    assert.match(reason(shell), /BOLT/);
  });

  test('Codex PreToolUse: BOLT\'s session patches its own claim, and is refused ATLAS\'s', () => {
    const patch = (path: string) => ({ command: `*** Begin Patch\n*** Update File: ${path}\n@@\n-x\n+y\n*** End Patch` });
    assert.equal(decision(codex('PreToolUse', 'thread-bolt', { tool_name: 'apply_patch', tool_input: patch('src/bolt/b.ts'), tool_use_id: 'call-1' })), 'allow');
    const refused = codex('PreToolUse', 'thread-bolt', { tool_name: 'apply_patch', tool_input: patch('src/atlas/a.ts'), tool_use_id: 'call-2' });
    assert.equal(decision(refused), 'deny');
    assert.match(reason(refused), /BOLT[\s\S]*src\/atlas\/a\.ts[\s\S]*ATLAS/);
  });

  test('a session bound to nobody is nobody\'s agent (DESIGN §11): it writes as a person — free files yes, held ones refused with how to join', () => {
    const output = claude('PreToolUse', 'sess-stranger', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/atlas/a.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` });
    assert.equal(decision(output), 'deny');
    assert.match(reason(output), /has not joined the fleet[\s\S]*writes as a person[\s\S]*fleet_agent_join[\s\S]*src\/atlas\/a\.ts: held exclusively by ATLAS/);
    const free = claude('PreToolUse', 'sess-stranger', { tool_name: 'Write', tool_input: { file_path: join(repo, 'notes/free.md'), content: 'x' }, tool_use_id: `toolu_${++call}` });
    assert.equal(decision(free), 'allow');
  });

  test('PostToolUse, Claude Code and Codex alike: a shell write the parser cannot see, into the other agent\'s claim, is reported for the session\'s own agent', async () => {
    // A path the program computes: the parser reads a program's write calls, not what it computes.
    const sneak = (path: string) => `node -e "require('fs').writeFileSync(${JSON.stringify(path.split('/')).replace(/"/g, "'")}.join('/'), 'changed\\n')"`;
    // As Claude Code runs a Bash call: PreToolUse, the command, PostToolUse.
    const atlasCall = { tool_name: 'Bash', tool_input: { command: sneak('src/bolt/b.ts') }, tool_use_id: `toolu_${++call}` };
    assert.equal(decision(claude('PreToolUse', 'sess-atlas', atlasCall)), 'allow');
    execFileSync('sh', ['-c', atlasCall.tool_input.command], { cwd: repo });
    const atlasPost = JSON.parse(claude('PostToolUse', 'sess-atlas', { ...atlasCall, tool_response: { stdout: '', stderr: '', interrupted: false } })) as { decision: string; reason: string };
    assert.equal(atlasPost.decision, 'block');
    assert.match(atlasPost.reason, /\(you are ATLAS\)[\s\S]*src\/bolt\/b\.ts: held by BOLT/);
    // As Codex runs one (codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json).
    const boltCall = { tool_name: 'Bash', tool_input: { command: sneak('src/atlas/a.ts') }, tool_use_id: 'call-3' };
    assert.equal(decision(codex('PreToolUse', 'thread-bolt', boltCall)), 'allow');
    execFileSync('sh', ['-c', boltCall.tool_input.command], { cwd: repo });
    const boltPost = JSON.parse(codex('PostToolUse', 'thread-bolt', { ...boltCall, tool_response: 'exit code 0' })) as { decision: string; reason: string };
    assert.equal(boltPost.decision, 'block');
    assert.match(boltPost.reason, /\(you are BOLT\)[\s\S]*src\/atlas\/a\.ts: held by ATLAS/);
    // The watcher could not tell two agents of one worktree apart; the sessions' marks named the writers.
    await until(async () => (await eventsOf(home)).filter((e) => e.type === 'territory.violated').length >= 2, 5000, 'two territory.violated events');
    const writers = (await eventsOf(home)).flatMap((e) => (e.type === 'territory.violated' ? [`${e.writer}->${e.path}`] : [])).sort();
    assert.deepEqual(writers, ['ATLAS->src/bolt/b.ts', 'BOLT->src/atlas/a.ts']);
  });

  test('an agent that joined through the MCP tool (no FLEET_AS anywhere) is bound by the PostToolUse of its own bridge\'s join, never by what a join tool\'s input named', async () => {
    // A third session in the same worktree: its model calls fleet_agent_join through the real bridge,
    // whose runtime is this test process (FLEET_RUNTIME_PID), as the hooks' shells are its children.
    const mcp = new Client({ name: 'session-identity-test', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: { ...(process.env as Record<string, string>), FLEET_HOME: home, FLEET_PORT: '0', FLEET_RUNTIME_PID: String(process.pid) }, cwd: repo, stderr: 'ignore' }));
    const boundTo = async (sessionId: string) => (await eventsOf(home)).filter((e) => e.type === 'agent.session_bound' && e.sessionId === sessionKey(sessionId)).map((e) => e.by);
    try {
      // A refused join (ATLAS is live elsewhere) and another server's tool of the same name bind nothing.
      const taken = { tool_name: 'mcp__fleet__fleet_agent_join', tool_input: { callsign: 'ATLAS', runtime: 'claude-code' }, tool_use_id: `toolu_${++call}` };
      const refused = await mcp.callTool({ name: 'fleet_agent_join', arguments: taken.tool_input });
      assert.equal(refused.isError, true, JSON.stringify(refused));
      assert.equal(claude('PostToolUse', 'sess-carol', { ...taken, tool_response: refused.content }), '');
      const impostor = { tool_name: 'mcp__other__fleet_agent_join', tool_input: { callsign: 'BOLT', runtime: 'claude-code' }, tool_use_id: `toolu_${++call}` };
      assert.equal(claude('PostToolUse', 'sess-carol', { ...impostor, tool_response: [{ type: 'text', text: '{"ok":true}' }] }), '');
      assert.deepEqual(await boundTo('sess-carol'), []);
      assert.match(reason(claude('PreToolUse', 'sess-carol', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/bolt/b.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` })), /has not joined the fleet/);

      const joinCall = { tool_name: 'mcp__fleet__fleet_agent_join', tool_input: { callsign: 'CAROL', runtime: 'claude-code' }, tool_use_id: `toolu_${++call}` };
      assert.equal(decision(claude('PreToolUse', 'sess-carol', joinCall)), 'allow');
      const joined = await mcp.callTool({ name: 'fleet_agent_join', arguments: joinCall.tool_input });
      assert.notEqual(joined.isError, true, JSON.stringify(joined));
      assert.equal(claude('PostToolUse', 'sess-carol', { ...joinCall, tool_response: joined.content }), '');
      assert.deepEqual(await boundTo('sess-carol'), ['CAROL']);
      const write = claude('PreToolUse', 'sess-carol', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/atlas/a.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` });
      assert.equal(decision(write), 'deny');
      assert.match(reason(write), /CAROL may not write this file[\s\S]*ATLAS/, 'CAROL, not three agents of one worktree');
      // Bound to CAROL, the session is never rebound to another live agent by another caller.
      const atlas = await reattach('ATLAS', 'claude-code');
      await assert.rejects(atlas.call('fleet_hook_session', { sessionId: 'sess-carol', bind: true }), /this runtime session already speaks for CAROL/);
    } finally {
      // CAROL's registered runtime is this test process: it leaves, so the later tests' hooks are no one's.
      await mcp.callTool({ name: 'fleet_agent_leave', arguments: {} });
      await mcp.close();
    }
  });

  test('the bindings survive a plane restart', async () => {
    for (const client of clients.splice(0)) client.close();
    await plane.stop();
    plane = await startPlaneProcess({ home });
    assert.equal(decision(claude('PreToolUse', 'sess-atlas', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/atlas/a.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` })), 'allow');
    assert.equal(decision(claude('PreToolUse', 'sess-atlas', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/bolt/b.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` })), 'deny');
  });

  test('SessionEnd (no FLEET_AS) escrows the bound agent\'s claims and unbinds the session; SessionStart resumes it by FLEET_AS and binds again', async () => {
    assert.equal(claude('SessionEnd', 'sess-atlas', { reason: 'prompt_input_exit' }), '');
    const events = await eventsOf(home);
    assert.ok(events.some((e) => e.type === 'claim.escrowed'), 'ATLAS\'s claims went into escrow');
    assert.ok(events.some((e) => e.type === 'agent.session_unbound' && e.sessionId === sessionKey('sess-atlas')));
    assert.equal(decision(claude('PreToolUse', 'sess-atlas', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/atlas/a.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` })), 'deny', 'unbound: nobody\'s session, and the claims are in escrow');
    const resumed = context(claude('SessionStart', 'sess-atlas', { source: 'resume' }, { FLEET_AS: 'ATLAS' }));
    assert.match(resumed, /came back out of escrow/);
    assert.equal(decision(claude('PreToolUse', 'sess-atlas', { tool_name: 'Write', tool_input: { file_path: join(repo, 'src/atlas/a.ts'), content: 'x' }, tool_use_id: `toolu_${++call}` })), 'allow');
  });

  test('SessionStart with no FLEET_AS re-attaches the session\'s bound agent (a compaction), and Codex\'s stays silent outside its repository', () => {
    assert.match(context(codex('SessionStart', 'thread-bolt', { source: 'resume' })), /You are BOLT in the fleet/);
    assert.equal(codex('SessionStart', 'thread-else', { source: 'startup' }, {}, elsewhere), '');
  });
});

describe('Session identity: with no FLEET_AS and no binding, a session is nobody\'s agent', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'a.ts': 'export {};\n' });
  const codexHome = tempHome('fleet-codex-home-');

  before(async () => {
    plane = await startPlaneProcess();
    assert.equal((await runCli(['install-hooks', '--no-git'], { home: plane.home, cwd: repo, env: { CODEX_HOME: codexHome } })).code, 0);
  });

  /** Claude Code's hook of `event` from the settings file install-hooks wrote, no FLEET_AS. */
  function claudeHook(event: string, payload: Record<string, unknown>): string {
    const hooks = (JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: HookGroups }).hooks;
    const env: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: plane.home };
    delete env.FLEET_AS;
    const input = JSON.stringify({ transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: event, ...payload });
    const result = spawnSync('sh', ['-c', hooks[event]![0]!.hooks[0]!.command], { cwd: repo, env, input, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  }

  after(async () => {
    await plane?.stop();
    for (const dir of [plane.home, repo, codexHome]) removeHome(dir);
  });

  test('SessionStart in an empty worktree: the join to make, with runtime codex, and no callsign invented', () => {
    const hooks = (JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8')) as { hooks: HookGroups }).hooks;
    assert.deepEqual(Object.keys(hooks), ['PreToolUse', 'PostToolUse', 'SessionStart', 'PermissionRequest']);
    assert.equal(hooks.PostToolUse![0]!.matcher, 'Bash|mcp__.*');
    assert.equal(hooks.SessionStart![0]!.matcher, undefined, 'startup, resume and clear');
    const env: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: plane.home };
    delete env.FLEET_AS;
    const input = JSON.stringify({ session_id: 'thread-1', transcript_path: null, cwd: repo, hook_event_name: 'SessionStart', model: 'gpt-5-codex', permission_mode: 'default', source: 'startup' });
    const result = spawnSync('sh', ['-c', hooks.SessionStart![0]!.hooks[0]!.command], { cwd: repo, env, input, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(output.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(output.hookSpecificOutput.additionalContext, /not on the fleet roster[\s\S]*runtime "codex"[\s\S]*Starting Codex with FLEET_AS/);
  });

  test('a new session in a checkout where a script agent joined is not that agent: SessionStart says how to join, its writes into the agent\'s files are refused, its SessionEnd escrows nothing', async () => {
    assert.equal((await runCli(['join', '--callsign', 'THEIRS', '--runtime', 'script'], { home: plane.home, cwd: repo })).code, 0);
    assert.equal((await runCli(['claim', '--as', 'THEIRS', 'a.ts'], { home: plane.home, cwd: repo })).code, 0);
    const started = JSON.parse(claudeHook('SessionStart', { session_id: 'sess-new', source: 'startup' })) as { hookSpecificOutput: { additionalContext: string } };
    assert.match(started.hookSpecificOutput.additionalContext, /not on the fleet roster[\s\S]*fleet_agent_join/);
    assert.doesNotMatch(started.hookSpecificOutput.additionalContext, /You are THEIRS/);
    const write = JSON.parse(claudeHook('PreToolUse', { session_id: 'sess-new', tool_name: 'Write', tool_input: { file_path: join(repo, 'a.ts'), content: 'x' }, tool_use_id: 'toolu_1' })) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.equal(write.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(write.hookSpecificOutput.permissionDecisionReason, /has not joined the fleet[\s\S]*a\.ts: held exclusively by THEIRS/);
    assert.equal(claudeHook('SessionEnd', { session_id: 'sess-new', reason: 'prompt_input_exit' }), '');
    const events = await eventsOf(plane.home);
    assert.ok(!events.some((e) => e.type === 'claim.escrowed'), 'a session never takes claims out of use that it did not join for');
    assert.ok(!events.some((e) => e.type === 'agent.session_bound'), 'nothing bound the session to THEIRS');
    // The git hook has no session: there the worktree's agent is still the writer (DESIGN §16).
    const reader = await plane.connect('test-writer');
    try {
      assert.equal((await reader.call('fleet_hook_writer', { worktree: repo })).agent?.callsign, 'THEIRS');
    } finally {
      reader.close();
    }
  });
});
