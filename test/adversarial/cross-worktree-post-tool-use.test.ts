// Issue 27 item 6, DESIGN §11 "writes nobody gated are still seen", across worktrees: an agent's
// Bash call writes into another agent's linked worktree with a form no parser reads before it runs.
// The watcher records it as by `unknown` (naming the call in flight); the agent's own PostToolUse,
// the command `fleet install-hooks` wrote, must tell it — and must not tell it of the holder's own
// writes made while its call ran.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FleetEvent } from '../../contracts/index.js';
import { keepAlive, runShell } from '../integration/agents/support.js';
import { EventWatcher } from '../support/event-watcher.js';
import { planeWithLinkedWorktree } from '../support/plane-with-repo.js';
import { runCli } from '../support/run-cli.js';

type Violated = Extract<FleetEvent, { type: 'territory.violated' }>;
type Settings = { hooks: Record<string, { hooks: { command: string }[] }[]> };

test('PostToolUse tells the agent of an unattributed write into another agent\'s worktree during its call, and not of the holder\'s own writes', async (t) => {
  const { plane, repo, boltTree, connect } = await planeWithLinkedWorktree(t, { 'src/a/x.ts': 'x\n', 'src/b/y.ts': 'y\n', 'src/b/z.ts': 'z\n' });
  const installed = await runCli(['install-hooks'], { home: plane.home, cwd: repo });
  assert.equal(installed.code, 0, installed.stderr);
  const settings = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as Settings;
  const installedCommand = (event: string, verb: string) => settings.hooks[event]!.flatMap((e) => e.hooks.map((h) => h.command)).find((c) => c.includes(verb))!;
  const pre = installedCommand('PreToolUse', 'claude-pre-tool-use');
  const post = installedCommand('PostToolUse', 'claude-post-tool-use');

  const [operator, atlas, bolt] = await Promise.all(['test-operator', 'test-atlas', 'test-bolt'].map(connect));
  t.after(keepAlive(atlas!, 2000));
  t.after(keepAlive(bolt!, 2000));
  const events = await EventWatcher.follow(operator!);
  // This test process stands in for ATLAS's runtime: the hooks it runs are its children.
  await atlas!.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo, pid: process.pid });
  await bolt!.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'claude-code', worktree: boltTree });
  assert.equal((await bolt!.call('fleet_claim_path', { patterns: ['src/b/**'], root: boltTree })).granted, true);
  // BOLT's runtime runs the fleet's hooks too (its PreToolUse checked a call): its writes come through hooked calls.
  assert.equal((await operator!.call('fleet_hook_check', { paths: [join(boltTree, 'README.md')], root: boltTree, callsign: 'BOLT', hook: 'claude-pre-tool-use', fromRuntime: true })).agent?.callsign, 'BOLT');
  for (const worktree of [repo, boltTree]) await operator!.call('fleet_worktree_changes', { worktree });

  const env: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: plane.home, FLEET_PORT: '0' };
  delete env.FLEET_AS;
  delete env.FLEET_OVERRIDE;
  const hook = async (command: string, event: object) => {
    const ran = await runShell(command, { cwd: repo, env, input: JSON.stringify({ session_id: 'sess-atlas', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', ...event }) });
    assert.equal(ran.status, 0, ran.stderr);
    return ran.stdout;
  };
  const bash = (toolUseId: string, command: string) => ({ tool_name: 'Bash', tool_input: { command, description: 'run it' }, tool_use_id: toolUseId });

  // ATLAS's Bash call: a path read at run time from a list in its own folder (documented as not checked
  // before it runs), into BOLT's linked worktree.
  writeFileSync(join(repo, 'src/a/targets.txt'), `${join(boltTree, 'src/b/y.ts')}\n`);
  const sneak = 'while read -r f; do printf sneaked > "$f"; done < src/a/targets.txt';
  assert.doesNotMatch(await hook(pre, { hook_event_name: 'PreToolUse', ...bash('toolu_sneak', sneak) }), /"permissionDecision":"deny"/, 'not refused before: documented');
  const from = events.events.length;
  execFileSync('bash', ['-c', sneak], { cwd: repo, env });
  const after = await hook(post, { hook_event_name: 'PostToolUse', ...bash('toolu_sneak', sneak), tool_response: { stdout: '', stderr: '' } });
  assert.notEqual(after, '', 'PostToolUse says something about the write into BOLT\'s worktree');
  const told = (JSON.parse(after) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;
  assert.equal(told.hookEventName, 'PostToolUse');
  assert.match(told.additionalContext, new RegExp(`${join(boltTree, 'src/b/y.ts').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: held exclusively by BOLT`));
  assert.match(told.additionalContext, /If it was yours, tell BOLT/);
  const violated = (await events.waitFor((e) => e.type === 'territory.violated' && e.path === 'src/b/y.ts', from, 5000, 'the cross-worktree write')) as Violated;
  assert.deepEqual([violated.writer, violated.holder, violated.callsInFlight], ['unknown', 'BOLT', ['ATLAS']], 'the one call in flight is named, not taken for the writer');

  // A long ATLAS call (its PreToolUse allowed it, its PostToolUse has not come) while BOLT works in its own
  // territory: a Write its PreToolUse allowed, then a Bash call of its own. Neither is ATLAS's to hear of.
  assert.equal(await hook(pre, { hook_event_name: 'PreToolUse', ...bash('toolu_long', 'npm test') }), '');
  await operator!.call('fleet_hook_check', { paths: [join(boltTree, 'src/b/z.ts')], root: boltTree, callsign: 'BOLT', hook: 'claude-pre-tool-use', fromRuntime: true });
  writeFileSync(join(boltTree, 'src/b/z.ts'), 'saved\n');
  const { mark } = await operator!.call('fleet_worktree_changes', { worktree: boltTree, writer: 'BOLT', source: 'Bash' });
  writeFileSync(join(boltTree, 'src/b/y.ts'), 'built\n');
  await operator!.call('fleet_worktree_changes', { worktree: boltTree, since: mark });
  assert.equal(await hook(post, { hook_event_name: 'PostToolUse', ...bash('toolu_long', 'npm test'), tool_response: { stdout: '', stderr: '' } }), '', 'the holder\'s own writes are not the caller\'s');
  const later = events.events.slice(from).filter((e) => e.type === 'territory.violated' && e !== violated);
  assert.deepEqual(later, [], 'the holder\'s own writes are no violations');
});
