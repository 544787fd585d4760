// A branch of several commits landed outside the train by a rebase (a person's `git rebase` and a
// fast-forward, or a forge's "rebase and merge": every commit rewritten) is seen landed by the
// plane's landing watch through the commits' patch ids, as the range of target commits that carries
// them; a partial cherry-pick is not; a rollback reverts exactly that range through the train.
// Real plane process, real git.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { git } from '../../support/git-repo.js';
import { acceptedItems, commitFiles, completeVerifyAccept, eventually, statusOf, type Fleet, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };
const CRITERIA = ['b, c and d exist'];
const THREE: Record<string, string>[] = [{ 'src/b.ts': 'export const b = 1;\n' }, { 'src/c.ts': 'export const c = 1;\n' }, { 'src/d.ts': 'export const d = 1;\n' }];

/** An accepted item whose builder committed three commits on its own branch. */
async function threeCommitItem(fleet: Fleet, callsign: string) {
  const operator = await fleet.operator();
  const agent = await fleet.agent(callsign, `${callsign.toLowerCase()}-work`);
  const { item } = await operator.call('fleet_work_add', { title: 'b, c and d', paths: ['src/b.ts', 'src/c.ts', 'src/d.ts'], criteria: CRITERIA, root: fleet.repo });
  await agent.client.call('fleet_work_pull', {});
  const commits = THREE.map((files, i) => commitFiles(agent.worktree, files, `commit ${i + 1} of 3`));
  await completeVerifyAccept(agent.client, await fleet.verifier(), operator, item.id, CRITERIA);
  return { id: item.id, worktree: agent.worktree, branch: `${callsign.toLowerCase()}-work`, commits };
}

/** A commit on main by someone else (main is not checked out: the operator's checkout is on `operator`). */
function moveMain(fleet: Fleet, files: Record<string, string>, message: string): string {
  git(fleet.repo, 'checkout', '-q', 'main');
  const commit = commitFiles(fleet.repo, files, message);
  git(fleet.repo, 'checkout', '-q', 'operator');
  return commit;
}

/** The branch rebased onto main as it now stands and main fast-forwarded to it, by hand; main before that. */
function rebaseAndFastForward(fleet: Fleet, item: { worktree: string; branch: string }): string {
  const onto = git(fleet.repo, 'rev-parse', 'main');
  git(item.worktree, 'rebase', '-q', 'main');
  git(fleet.repo, 'checkout', '-q', 'main');
  git(fleet.repo, 'merge', '-q', '--ff-only', item.branch);
  git(fleet.repo, 'checkout', '-q', 'operator');
  return onto;
}

const heldFor = async (fleet: Fleet, id: string) => (await (await fleet.operator()).call('fleet_claims', { root: fleet.repo })).claims.filter((c) => c.heldFor === id).map((c) => c.pattern).sort();

const rollback = (fleet: Fleet, id: string) =>
  fleet.operator().then((operator) => operator.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'regression', refs: [], note: 'it broke production' } }));

test('a branch of three commits rebased onto a moved target and fast-forwarded by hand is landed, as the range of target commits that carries them; its held claims are released', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const item = await threeCommitItem(fleet, 'BOLT');
  assert.deepEqual(await heldFor(fleet, item.id), ['src/b.ts', 'src/c.ts', 'src/d.ts']);
  moveMain(fleet, { 'README.md': '# repo, moved on\n' }, 'someone else');
  const onto = rebaseAndFastForward(fleet, item);
  const last = git(fleet.repo, 'rev-parse', 'main');
  assert.equal(git(fleet.repo, 'rev-list', '--count', `${onto}..main`), '3', 'three rewritten commits on main');
  assert.ok(!item.commits.some((c) => git(fleet.repo, 'branch', '--contains', c, '--list', 'main') !== ''), 'none of its own commits is on main: only a patch id says it landed');

  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'landed'));
  const landed = await statusOf(fleet, item.id);
  assert.equal(landed.landedCommit, last, 'its landing ends at the last rebased commit');
  assert.equal(landed.landedOnto, onto, 'and starts after the target commit it was rebased onto');
  assert.match(landed.statusReason ?? '', new RegExp(`landed as ${onto.slice(0, 12)}\\.\\.${last.slice(0, 12)}`));
  assert.deepEqual(await heldFor(fleet, item.id), [], 'landing released its held claims');
});

test('only two of a branch\'s three commits cherry-picked onto the target is not a landing (its claims stay held); the third one too, after them, is', async (t) => {
  const fleet = await trainRepo(t, FILES);
  // The watch checks waiting items in the order they were made, all of them each tick (fewer than
  // its 16): once SAM's and TESS's landings, made in the same ref update as the cherry-picks, are
  // both seen, BOLT's item between them was checked against that target (never a timed wait).
  const { items: [sam] } = await acceptedItems(fleet, [{ callsign: 'SAM', files: { 'src/s.ts': 'export const s = 1;\n' } }]);
  const item = await threeCommitItem(fleet, 'BOLT');
  const { items: [tess] } = await acceptedItems(fleet, [{ callsign: 'TESS', files: { 'src/t.ts': 'export const t = 1;\n' } }]);
  git(fleet.repo, 'checkout', '-q', '--detach', 'main');
  git(fleet.repo, 'merge', '-q', '--no-ff', '-m', 'merge sam', sam!.branch);
  git(fleet.repo, 'merge', '-q', '--no-ff', '-m', 'merge tess', tess!.branch);
  const before = git(fleet.repo, 'rev-parse', 'HEAD');
  git(fleet.repo, 'cherry-pick', item.commits[0]!, item.commits[1]!);
  git(fleet.repo, 'update-ref', 'refs/heads/main', 'HEAD');
  git(fleet.repo, 'checkout', '-q', 'operator');

  await eventually(30_000, async () => assert.deepEqual([(await statusOf(fleet, sam!.id)).status, (await statusOf(fleet, tess!.id)).status], ['landed', 'landed']));
  const partial = await statusOf(fleet, item.id);
  assert.equal(partial.status, 'done', 'two of three commits on the target: not landed');
  assert.equal(partial.landedCommit, undefined);
  assert.deepEqual(await heldFor(fleet, item.id), ['src/b.ts', 'src/c.ts', 'src/d.ts'], 'its claims stay held');

  git(fleet.repo, 'checkout', '-q', 'main');
  git(fleet.repo, 'cherry-pick', item.commits[2]!);
  git(fleet.repo, 'checkout', '-q', 'operator');
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'landed'));
  const landed = await statusOf(fleet, item.id);
  assert.deepEqual([landed.landedOnto, landed.landedCommit], [before, git(fleet.repo, 'rev-parse', 'main')], 'all three, one after another: landed as their range');
  assert.deepEqual(await heldFor(fleet, item.id), []);
});

test('rollback of a rebase landing reverts exactly its range through the train: the target\'s tree is the one before it plus what landed since', async (t) => {
  const fleet = await trainRepo(t, FILES);
  await (await fleet.operator()).call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'test -f src/a.ts' });
  const item = await threeCommitItem(fleet, 'BOLT');
  moveMain(fleet, { 'README.md': '# repo, moved on\n' }, 'someone else');
  const onto = rebaseAndFastForward(fleet, item);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'landed'));
  // Unrelated work lands by the train after it.
  const { operator, items: [later] } = await acceptedItems(fleet, [{ callsign: 'CLEO', files: { 'src/z.ts': 'export const z = 1;\n' } }]);
  await operator.call('fleet_land', { ids: [later!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, later!.id)).status, 'landed'));
  const laterLanding = (await statusOf(fleet, later!.id)).landedCommit!;
  const before = git(fleet.repo, 'rev-parse', 'main');

  await rollback(fleet, item.id);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'rolled_back'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^'), before, 'one commit on top: the revert');
  assert.equal(git(fleet.repo, 'rev-list', '--parents', '-n1', 'main').split(' ').length, 2, 'a plain revert commit');
  assert.equal(git(fleet.repo, 'diff', onto, 'main'), git(fleet.repo, 'diff', `${laterLanding}^1`, laterLanding), 'the tree before the rebase landing plus the later landing: all three of its commits undone, nothing else');
  assert.match(git(fleet.repo, 'log', '-1', '--format=%B', 'main'), new RegExp(`revert ${onto.slice(0, 12)}\\.\\.`));
});

test('rollback of a rebase landing whose revert conflicts with a later landing escalates to the operator naming the files; the target is untouched', async (t) => {
  const fleet = await trainRepo(t, FILES);
  await (await fleet.operator()).call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  const item = await threeCommitItem(fleet, 'BOLT');
  moveMain(fleet, { 'README.md': '# repo, moved on\n' }, 'someone else');
  rebaseAndFastForward(fleet, item);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'landed'));
  // Later work on the lines its second commit added.
  const { operator, items: [later] } = await acceptedItems(fleet, [{ callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 2;\n' } }]);
  await operator.call('fleet_land', { ids: [later!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, later!.id)).status, 'landed'));
  const before = git(fleet.repo, 'rev-parse', 'main');

  await rollback(fleet, item.id);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, item.id)).status, 'escalated'));
  assert.match((await statusOf(fleet, item.id)).statusReason ?? '', /conflicts with later landings on main in src\/c\.ts/);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before, 'history is never rewritten, nothing half-reverted lands');
});
