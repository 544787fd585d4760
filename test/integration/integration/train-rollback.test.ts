import assert from 'node:assert/strict';
import { test } from 'node:test';
import { git } from '../../support/git-repo.js';
import { gitKillShim } from '../../support/git-kill-shim.js';
import { acceptedItems, commitFiles, completeVerifyAccept, eventually, statusOf, trainRepo, type Fleet } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };

async function landAll(fleet: Fleet, ids: string[]): Promise<void> {
  const operator = await fleet.operator();
  await operator.call('fleet_land', { ids, root: fleet.repo });
  await eventually(30_000, async () => assert.deepEqual(await Promise.all(ids.map(async (id) => (await statusOf(fleet, id)).status)), ids.map(() => 'landed')));
}

const rollback = (fleet: Fleet, id: string) =>
  fleet.operator().then((operator) => operator.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'regression', refs: [], note: 'it broke production' } }));

test('rollback of a landed item reverts exactly its landing through the train and its build; the other items of its batch stay', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 1;\n' } },
  ]);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'test -f src/a.ts' });
  await landAll(fleet, items.map((i) => i.id));
  const landedB = (await statusOf(fleet, items[0]!.id)).landedCommit!;
  const before = git(fleet.repo, 'rev-parse', 'main');

  await rollback(fleet, items[0]!.id);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'rolled_back'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^'), before, 'one commit on top: the revert');
  assert.equal(git(fleet.repo, 'rev-list', '--parents', '-n1', 'main').split(' ').length, 2, 'a plain revert commit');
  assert.equal(git(fleet.repo, 'diff', '--name-only', before, 'main'), 'src/b.ts', 'exactly its landing undone');
  assert.equal(git(fleet.repo, 'ls-tree', '--name-only', 'main', 'src/c.ts'), 'src/c.ts', 'the other item of its batch stays');
  assert.match(git(fleet.repo, 'log', '-1', '--format=%B', 'main'), new RegExp(`revert ${landedB.slice(0, 12)}`));
  assert.equal((await statusOf(fleet, items[1]!.id)).status, 'landed');
});

test('rollback whose revert conflicts with later landings escalates to the operator naming the files; the target is untouched', async (t) => {
  const fleet = await trainRepo(t, FILES);
  await (await fleet.operator()).call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  const { items: first } = await acceptedItems(fleet, [{ callsign: 'DANA', files: { 'src/a.ts': 'export const a = 2;\n' } }]);
  await landAll(fleet, [first[0]!.id]);
  // Later work on the same lines, built on top of DANA's landing.
  const { items: later } = await acceptedItems(fleet, [{ callsign: 'EZRA', files: { 'src/a.ts': 'export const a = 3;\n' } }]);
  await landAll(fleet, [later[0]!.id]);
  const before = git(fleet.repo, 'rev-parse', 'main');

  await rollback(fleet, first[0]!.id);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, first[0]!.id)).status, 'escalated'));
  assert.match((await statusOf(fleet, first[0]!.id)).statusReason ?? '', /conflicts with later landings on main in src\/a\.ts/);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before, 'history is never rewritten, nothing half-reverted lands');
});

test('rollback of an item landed by fast-forward (seen by the landing watch: its branch head on the target) reverts all of its commits, as one revert commit, not only its last', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'test -f src/a.ts' });
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  const criteria = ['b and c exist'];
  const { item } = await operator.call('fleet_work_add', { title: 'b then c', paths: ['src/b.ts', 'src/c.ts'], criteria, root: fleet.repo });
  await bolt.client.call('fleet_work_pull', {});
  commitFiles(bolt.worktree, { 'src/b.ts': 'export const b = 1;\n' }, 'add b');
  const head = commitFiles(bolt.worktree, { 'src/c.ts': 'export const c = 1;\n', 'README.md': '# repo with b and c\n' }, 'add c');
  await completeVerifyAccept(bolt.client, await fleet.verifier(), operator, item.id, criteria);
  const before = git(fleet.repo, 'rev-parse', 'main');
  // The operator lands it by hand, fast-forward: its two commits are now main's own.
  git(fleet.repo, 'update-ref', 'refs/heads/main', head, before);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'landed'));

  await rollback(fleet, item.id);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'rolled_back'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^'), head, 'one commit on top: the revert');
  assert.equal(git(fleet.repo, 'rev-list', '--parents', '-n1', 'main').split(' ').length, 2, 'a plain revert commit');
  assert.equal(git(fleet.repo, 'diff', '--name-only', before, 'main'), '', 'both of its commits undone: the tree is as before it landed');
});

test('rollback: kill -9 of the plane during the revert in the scratch worktree: the restarted plane reverts again and lands exactly one revert commit', async (t) => {
  const shim = gitKillShim('revert', 'during');
  t.after(() => shim.remove());
  const fleet = await trainRepo(t, FILES, { env: shim.env });
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'test -f src/a.ts' });
  await landAll(fleet, [items[0]!.id]);
  const landed = git(fleet.repo, 'rev-parse', 'main');
  shim.arm();
  await rollback(fleet, items[0]!.id);
  await eventually(30_000, async () => assert.ok(shim.fired(), 'the plane ran git revert'));
  await fleet.restart();
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), landed, 'killed mid-revert: the target did not move');
  await eventually(60_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'rolled_back'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^'), landed, 'exactly one revert commit on top');
  assert.equal(git(fleet.repo, 'ls-tree', '--name-only', 'main', 'src/b.ts'), '', 'its landing undone');
});
