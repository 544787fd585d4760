import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { git } from '../../support/git-repo.js';
import { expectCallError } from '../../support/orchestration-plane.js';
import { acceptedItems, eventually, statusOf, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };

/** A build command whose first run waits until `go()`; later runs pass at once. */
function heldFirstBuild(trees: string) {
  const started = join(trees, 'first-started');
  const go = join(trees, 'go');
  return {
    command: `if [ ! -e ${started} ]; then touch ${started}; while [ ! -e ${go} ]; do sleep 0.1; done; fi; true`,
    started: () => existsSync(started),
    go: () => writeFileSync(go, ''),
  };
}

test('land --done --commit: only a commit on the target that contains the item is taken, stored as its full id (a rollback reverts exactly it)', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } }]);
  const id = items[0]!.id;
  const done = (commit: string) => operator.call('fleet_land', { ids: [id], done: true, commit });
  assert.match((await expectCallError(done('no-such-thing'), 'INVALID_PARAMS')).message, /names no commit/);
  assert.match((await expectCallError(done('main'), 'INVALID_PARAMS')).message, /does not contain/, 'main\'s head holds none of the item: a rollback of it would revert the wrong change');
  assert.match((await expectCallError(done(items[0]!.commit), 'INVALID_PARAMS')).message, /is not on main/);
  const before = (await statusOf(fleet, id)).status;
  assert.notEqual(before, 'landed', 'nothing was marked');
  // Merged by hand outside the train: the merge commit, named by a short id, is what it landed as.
  const merge = git(fleet.repo, 'commit-tree', '-p', 'main', '-p', items[0]!.commit, '-m', 'merge bolt by hand', `${items[0]!.commit}^{tree}`);
  git(fleet.repo, 'update-ref', 'refs/heads/main', merge);
  await done(merge.slice(0, 10));
  const item = await statusOf(fleet, id);
  assert.equal(item.status, 'landed');
  assert.equal(item.landedCommit, merge);
});

test('an item landed by hand while its batch builds stays off the train; the batch is built again without it and the next item lands', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'c\n' } },
  ]);
  const build = heldFirstBuild(fleet.trees);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: build.command, batchSize: 1 });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(20_000, async () => assert.ok(build.started()));
  await operator.call('fleet_land', { ids: [items[0]!.id], done: true });
  await operator.call('fleet_land', { ids: [items[1]!.id], root: fleet.repo });
  build.go();
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[1]!.id)).status, 'landed'));
  const entries = (await operator.call('fleet_integrate_status', { root: fleet.repo })).entries;
  assert.equal(entries.find((e) => e.itemId === items[0]!.id)?.status, 'landed', 'the entry landed by hand never went back to the queue');
  assert.equal(git(fleet.repo, 'ls-tree', '--name-only', 'main', 'src/b.ts'), '', 'the item landed by hand was not merged by the train');
});

test('a rollback decided while the item is on the train takes it off: its build does not land it', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } }]);
  const build = heldFirstBuild(fleet.trees);
  const before = git(fleet.repo, 'rev-parse', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: build.command });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(20_000, async () => assert.ok(build.started()));
  await operator.call('fleet_work_update', { id: items[0]!.id, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'regression', refs: [], note: 'not this' } });
  build.go();
  await eventually(30_000, async () => {
    const status = await operator.call('fleet_integrate_status', { root: fleet.repo });
    assert.equal(status.batch, undefined);
    assert.notEqual(status.entries.find((e) => e.itemId === items[0]!.id)?.status, 'building');
  });
  assert.equal((await statusOf(fleet, items[0]!.id)).status, 'rolled_back');
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before, `nothing of a rolled-back item lands: ${git(fleet.repo, 'log', '--format=%s', `${before}..main`)}`);
});

test('with a remote and no --push the local branch must move: checked out, the items are land_failed (nothing moved); free, it moves and they land', async (t) => {
  const fleet = await trainRepo(t, FILES, { remote: true });
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'c\n' } },
  ]);
  const before = git(fleet.repo, 'rev-parse', 'main');
  git(fleet.repo, 'checkout', '-q', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, remote: 'origin', buildCommand: 'true' });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'land_failed'));
  assert.match((await statusOf(fleet, items[0]!.id)).statusReason ?? '', /checked out in the worktree/);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before);
  assert.equal(git(fleet.remote, 'rev-parse', 'main'), before);

  git(fleet.repo, 'checkout', '-q', 'operator');
  await operator.call('fleet_land', { ids: [items[1]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[1]!.id)).status, 'landed'));
  const landed = (await statusOf(fleet, items[1]!.id)).landedCommit!;
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), landed, 'the local branch is where it landed');
  assert.equal(git(fleet.repo, 'rev-parse', `${landed}^2`), items[1]!.commit);
  assert.equal(git(fleet.remote, 'rev-parse', 'main'), before, 'without --push the remote is not touched');
});

test('an item completed with only uncommitted edits is warned at complete, never counts as landed, its claims stay held', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  const { item } = await operator.call('fleet_work_add', { title: 'change a', paths: ['src/a.ts'], criteria: ['it works'], root: fleet.repo });
  await bolt.client.call('fleet_work_pull', {});
  writeFileSync(join(bolt.worktree, 'src/a.ts'), 'export const a = 2;\n'); // edited, never committed
  const completed = await bolt.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/a.ts'], commands: [], criteria: ['it works'] } });
  assert.match(completed.warning ?? '', /nothing is committed on bolt-work/);
  // A committed item merged by hand is seen landed by the same watch that would (wrongly) land the first.
  const { items } = await acceptedItems(fleet, [{ callsign: 'CLEO', files: { 'src/c.ts': 'c\n' } }]);
  const merge = git(fleet.repo, 'commit-tree', '-p', 'main', '-p', items[0]!.commit, '-m', 'merge cleo by hand', `${items[0]!.commit}^{tree}`);
  git(fleet.repo, 'update-ref', 'refs/heads/main', merge);
  await eventually(20_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
  const first = await statusOf(fleet, item.id);
  assert.equal(first.landedCommit, undefined, 'nothing of it is on main');
  assert.ok((await operator.call('fleet_claims', { root: fleet.repo })).claims.some((c) => c.heldFor === item.id), 'its claims stay held');
});

test('a branch git refuses to merge (unrelated history) leaves the train land_failed with git\'s message; the items after it land', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } }]);
  git(fleet.repo, 'checkout', '-q', '--orphan', 'orphan');
  git(fleet.repo, 'commit', '-q', '-m', 'a history of its own');
  git(fleet.repo, 'checkout', '-q', 'operator');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  const { entries } = await operator.call('fleet_land', { branch: 'orphan', root: fleet.repo });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
  const orphan = (await operator.call('fleet_integrate_status', { root: fleet.repo })).entries.find((e) => e.itemId === entries[0]!.itemId);
  assert.equal(orphan?.status, 'failed');
  assert.match(orphan?.reason ?? '', /unrelated histories/);
});

test('configure refuses a remote the repository does not have', async (t) => {
  const fleet = await trainRepo(t, FILES, { remote: true });
  const operator = await fleet.operator();
  assert.match((await expectCallError(operator.call('fleet_integrate_configure', { root: fleet.repo, remote: 'orign', push: true }), 'INVALID_PARAMS')).message, /no remote "orign"/);
});

test('a commit already merged by an earlier entry of the batch is taken out of it; each item lands as its own merge commit', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'WREN', files: { 'src/w.ts': 'w\n' } },
    { callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'c\n' } },
  ]);
  const build = heldFirstBuild(fleet.trees);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: build.command });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(20_000, async () => assert.ok(build.started()));
  // BOLT's branch by name, then BOLT's item at the same commit, then CLEO: one batch once the first build ends.
  await operator.call('fleet_land', { branch: items[1]!.branch, root: fleet.repo });
  await operator.call('fleet_land', { ids: [items[1]!.id, items[2]!.id], root: fleet.repo });
  build.go();
  await eventually(30_000, async () => {
    for (const item of items) assert.equal((await statusOf(fleet, item.id)).status, 'landed');
  });
  const cleo = (await statusOf(fleet, items[2]!.id)).landedCommit!;
  assert.equal(git(fleet.repo, 'rev-parse', `${cleo}^2`), items[2]!.commit, "CLEO's landing is CLEO's merge, not another item's");
  const bolt = (await statusOf(fleet, items[1]!.id)).landedCommit!;
  assert.ok(bolt === items[1]!.commit || git(fleet.repo, 'rev-parse', `${bolt}^2`) === items[1]!.commit, "BOLT's landing brings BOLT's commit");
});

test('a build whose detached grandchild keeps its output open is over when its shell exits: the item lands', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } }]);
  const pidFile = join(fleet.trees, 'grandchild.pid');
  t.after(() => {
    if (existsSync(pidFile)) try { process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL'); } catch { /* already gone */ }
  });
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 120' & true` });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
});

test('a scratch worktree whose folder vanished is made again; only its own stale entry is cleared, never another worktree\'s (one on an unmounted disk stays registered)', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'b\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'c\n' } },
  ]);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
  // The scratch folder is cleaned away, and so is the folder of someone else's worktree (its disk unmounted, say).
  const scratches = readdirSync(join(fleet.plane.home, 'integration')).map((name) => join(fleet.plane.home, 'integration', name));
  assert.equal(scratches.length, 1);
  scratches.forEach((scratch) => rmSync(scratch, { recursive: true, force: true }));
  const away = join(fleet.trees, 'on-a-usb-disk');
  execFileSync('git', ['-C', fleet.repo, 'worktree', 'add', '-q', '-b', 'usb-work', away, 'main'], { stdio: 'ignore' });
  rmSync(away, { recursive: true, force: true });

  await operator.call('fleet_land', { ids: [items[1]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[1]!.id)).status, 'landed'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^2'), items[1]!.commit, 'landed from a scratch worktree made again');
  assert.ok(git(fleet.repo, 'worktree', 'list', '--porcelain').split('\n').includes(`worktree ${away}`), 'the other worktree\'s entry is not pruned: it was not the train\'s');
});
