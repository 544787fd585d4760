import assert from 'node:assert/strict';
import { test } from 'node:test';
import { git } from '../../support/git-repo.js';
import { expectCallError } from '../../support/orchestration-plane.js';
import { acceptedItems, statusOf, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };

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
