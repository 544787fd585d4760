// Issue 27 item 6, DESIGN §16 "Cross-worktree writes nobody can attribute are recorded as by
// `unknown`, never as the holder's": an agent in its own worktree writes into another agent's linked
// worktree with a form no parser reads before it runs. The watcher of that worktree must not take the
// change for its own agent's (the holder's), which would record nothing at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FleetEvent } from '../../contracts/index.js';
import { EventWatcher } from '../support/event-watcher.js';
import { planeWithLinkedWorktree } from '../support/plane-with-repo.js';

type Violated = Extract<FleetEvent, { type: 'territory.violated' }>;

test('a write into a hooked agent\'s worktree while another agent\'s call is in flight elsewhere is recorded as by unknown; the holder\'s own tool writes are not', async (t) => {
  const { repo, boltTree, connect } = await planeWithLinkedWorktree(t, { 'src/a/x.ts': 'x\n', 'src/b/y.ts': 'y\n', 'src/b/z.ts': 'z\n' });
  const [operator, atlas, bolt] = await Promise.all(['test-operator', 'test-atlas', 'test-bolt'].map(connect));
  const events = await EventWatcher.follow(operator!);
  await atlas!.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo });
  await bolt!.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'claude-code', worktree: boltTree });
  assert.equal((await bolt!.call('fleet_claim_path', { patterns: ['src/b/**'], root: boltTree })).granted, true);
  // Both runtimes run the fleet's hooks (their PreToolUse checked a call), so their writes come through hooked calls.
  for (const [callsign, worktree] of [['ATLAS', repo], ['BOLT', boltTree]] as const) {
    const seen = await operator!.call('fleet_hook_check', { paths: [join(worktree, 'README.md')], root: worktree, callsign, hook: 'claude-pre-tool-use', fromRuntime: true });
    assert.equal(seen.agent?.callsign, callsign);
  }
  for (const worktree of [repo, boltTree]) await operator!.call('fleet_worktree_changes', { worktree });

  // BOLT's own Write, allowed by its PreToolUse, while nobody else's call is in flight: BOLT's, no violation.
  await operator!.call('fleet_hook_check', { paths: [join(boltTree, 'src/b/z.ts')], root: boltTree, callsign: 'BOLT', hook: 'claude-pre-tool-use', fromRuntime: true });
  execFileSync('sh', ['-c', 'printf mine > "$1"', 'sh', join(boltTree, 'src/b/z.ts')]);

  // ATLAS's Bash call is in flight (its PreToolUse took a mark naming it); the command writes through a path the parser cannot read.
  const { mark } = await operator!.call('fleet_worktree_changes', { worktree: repo, writer: 'ATLAS', source: 'Bash' });
  const from = events.events.length;
  execFileSync('sh', ['-c', 'printf sneaked > "$0"', join(boltTree, 'src/b/y.ts')], { cwd: repo });
  const violated = (await events.waitFor((e) => e.type === 'territory.violated' && e.path === 'src/b/y.ts', from, 5000, 'the cross-worktree write')) as Violated;
  assert.deepEqual([violated.writer, violated.holder], ['unknown', 'BOLT'], 'nobody can say who wrote it: never the holder');

  // BOLT's own Write of its file while ATLAS's call is still in flight stays BOLT's: its PreToolUse said so.
  await operator!.call('fleet_hook_check', { paths: [join(boltTree, 'src/b/z.ts')], root: boltTree, callsign: 'BOLT', hook: 'claude-pre-tool-use', fromRuntime: true });
  execFileSync('sh', ['-c', 'printf mine-again > "$1"', 'sh', join(boltTree, 'src/b/z.ts')]);
  await operator!.call('fleet_worktree_changes', { worktree: repo, since: mark });
  // A later, attributable violation shows the watcher has judged everything before it.
  const marker = events.events.length;
  execFileSync('sh', ['-c', 'printf late > "$1"', 'sh', join(repo, 'src/b/y.ts')]);
  await events.waitFor((e) => e.type === 'territory.violated' && e.path === 'src/b/y.ts' && e.at >= violated.at && e !== violated, marker, 5000, 'a later violation in the main worktree');
  const onZ = events.events.filter((e) => e.type === 'territory.violated' && e.path === 'src/b/z.ts');
  assert.deepEqual(onZ, [], 'the holder\'s own file-tool writes are never violations');
});
