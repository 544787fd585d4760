import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { git } from '../../support/git-repo.js';
import { commitFiles, completeVerifyAccept, eventually, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n', 'README.md': '# repo\n' };
const CRITERIA = ['a changes'];

test('claims last until landed: work completed on a branch of its own keeps its changed files held for the item through complete, accept and its builder leaving; fleet land --done releases them', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  const atlas = await fleet.agent('ATLAS', 'atlas-work');
  const verifier = await fleet.verifier();
  const { item } = await operator.call('fleet_work_add', { title: 'change a', paths: ['src/a.ts', 'src/b.ts'], criteria: CRITERIA, root: fleet.repo });
  const pulled = await bolt.client.call('fleet_work_pull', {});
  assert.equal(pulled.item?.id, item.id);
  assert.equal(pulled.claims.length, 2);
  commitFiles(bolt.worktree, { 'src/a.ts': 'export const a = 2;\n' }, 'a: 2');

  await bolt.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/a.ts'], commands: [], criteria: CRITERIA } });
  const held = await operator.call('fleet_claims', { root: fleet.repo });
  assert.deepEqual(held.claims.map((c) => [c.pattern, c.heldFor, c.expiresWith]), [['src/a.ts', item.id, 'landing']], 'narrowed to the write-set: a.ts held for the item, b.ts (unchanged) released');

  // Nobody else starts on the held file, the builder included; the unchanged one is free.
  const refused = await atlas.client.call('fleet_claim_path', { patterns: ['src/a.ts'], root: fleet.repo });
  assert.equal(refused.granted, false);
  const check = await atlas.client.call('fleet_check_path', { paths: ['src/a.ts'], root: fleet.repo });
  assert.equal(check.results[0]?.holders[0]?.heldFor, item.id);
  const boltCheck = await bolt.client.call('fleet_check_path', { paths: ['src/a.ts'], root: fleet.repo });
  assert.equal(boltCheck.allowed, false, 'the held claim is the item\'s, not its builder\'s to write under');
  assert.equal((await atlas.client.call('fleet_claim_path', { patterns: ['src/b.ts'], root: fleet.repo })).granted, true);

  // Its builder cannot release it, and leaving does not end it either.
  await assert.rejects(bolt.client.call('fleet_release_path', { claimIds: [held.claims[0]!.id] }), /held for work item/);
  await completeVerifyAccept(bolt.client, verifier, operator, item.id, CRITERIA, { completed: true });
  assert.equal((await operator.call('fleet_work_list', { id: item.id })).items[0]?.status, 'done');
  await bolt.client.call('fleet_agent_leave', {});
  const stillHeld = await operator.call('fleet_claims', { root: fleet.repo });
  assert.deepEqual(stillHeld.claims.filter((c) => c.heldFor === item.id).map((c) => c.pattern), ['src/a.ts']);

  const landed = await operator.call('fleet_land', { ids: [item.id], done: true });
  assert.deepEqual(landed.items, [{ id: item.id, status: 'landed' }]);
  const after = await operator.call('fleet_claims', { root: fleet.repo });
  assert.deepEqual(after.claims.filter((c) => c.heldFor !== undefined), [], 'landing released the held claims');
  assert.equal((await atlas.client.call('fleet_claim_path', { patterns: ['src/a.ts'], root: fleet.repo })).granted, true);
});

test('claims last until landed: a merge the plane sees on the target releases them (a merge, and a squash by patch id); a shared checkout releases at complete', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  const cleo = await fleet.agent('CLEO', 'cleo-work');
  const { item: first } = await operator.call('fleet_work_add', { title: 'change a', paths: ['src/a.ts'], criteria: CRITERIA, root: fleet.repo });
  await bolt.client.call('fleet_work_pull', {});
  commitFiles(bolt.worktree, { 'src/a.ts': 'export const a = 2;\n' });
  await bolt.client.call('fleet_work_update', { id: first.id, action: 'complete', artifact: { touchedFiles: ['src/a.ts'], commands: [], criteria: CRITERIA } });
  const { item: second } = await operator.call('fleet_work_add', { title: 'change b', paths: ['src/b.ts'], criteria: CRITERIA, root: fleet.repo });
  await cleo.client.call('fleet_work_pull', {});
  commitFiles(cleo.worktree, { 'src/b.ts': 'export const b = 2;\n' });
  await cleo.client.call('fleet_work_update', { id: second.id, action: 'complete', artifact: { touchedFiles: ['src/b.ts'], commands: [], criteria: CRITERIA } });
  const heldFor = async () => (await operator.call('fleet_claims', { root: fleet.repo })).claims.flatMap((c) => (c.heldFor !== undefined ? [c.heldFor] : [])).sort();
  assert.deepEqual(await heldFor(), [first.id, second.id].sort());

  // Someone merges bolt-work into main by hand; and squashes cleo-work.
  git(fleet.repo, 'checkout', '-q', 'main');
  git(fleet.repo, 'merge', '-q', '--no-ff', '-m', 'merge bolt', 'bolt-work');
  await eventually(15_000, async () => assert.deepEqual(await heldFor(), [second.id]));
  git(fleet.repo, 'merge', '-q', '--squash', 'cleo-work');
  git(fleet.repo, 'commit', '-q', '-m', 'squash cleo');
  await eventually(15_000, async () => assert.deepEqual(await heldFor(), []));
  const list = await operator.call('fleet_work_list', { id: second.id });
  assert.equal(list.items[0]?.landedCommit, git(fleet.repo, 'rev-parse', 'HEAD'));

  // In a shared checkout (the agent works on main itself) complete releases as before.
  const dana = await fleet.plane.connect('DANA');
  t.after(() => dana.close());
  await dana.call('fleet_agent_join', { callsign: 'DANA', runtime: 'test', role: 'builder', worktree: fleet.repo });
  const { item: shared } = await operator.call('fleet_work_add', { title: 'readme', paths: ['README.md'], criteria: CRITERIA, root: fleet.repo });
  await dana.call('fleet_work_pull', {});
  await dana.call('fleet_work_update', { id: shared.id, action: 'complete', artifact: { touchedFiles: ['README.md'], commands: [], criteria: CRITERIA } });
  assert.deepEqual((await operator.call('fleet_claims', { root: fleet.repo })).claims, []);
});

test('claims last until landed: configurable per repository (release at complete)', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, releaseAt: 'complete' });
  const { item } = await operator.call('fleet_work_add', { title: 'change a', paths: ['src/a.ts'], criteria: CRITERIA, root: fleet.repo });
  await bolt.client.call('fleet_work_pull', {});
  commitFiles(bolt.worktree, { 'src/a.ts': 'export const a = 2;\n' });
  await bolt.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/a.ts'], commands: [], criteria: CRITERIA } });
  assert.deepEqual((await operator.call('fleet_claims', { root: fleet.repo })).claims, []);
});

test('an item\'s write-set at complete and its builder\'s live write-set are one computation: its committed paths and its uncommitted ones, a committed change the worktree has since put back included (it still lands)', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  const { item } = await operator.call('fleet_work_add', { title: 'change a', paths: ['src/**', 'README.md'], criteria: CRITERIA, root: fleet.repo });
  await bolt.client.call('fleet_work_pull', {});
  commitFiles(bolt.worktree, { 'src/a.ts': 'export const a = 2;\n', 'README.md': '# repo, changed\n' }, 'a: 2');
  writeFileSync(join(bolt.worktree, 'README.md'), FILES['README.md']); // put back, not committed: the commit still changes it
  writeFileSync(join(bolt.worktree, 'src/c.ts'), 'export const c = 1;\n'); // new, not committed yet
  await bolt.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/a.ts', 'src/c.ts'], commands: [], criteria: CRITERIA } });
  const atComplete = (await operator.call('fleet_work_list', { id: item.id })).items[0]!.integration?.writeSet;
  assert.deepEqual(atComplete, ['README.md', 'src/a.ts', 'src/c.ts']);
  await eventually(20_000, async () => assert.deepEqual((await operator.call('fleet_conflicts', { callsign: 'BOLT' })).writeSets[0]?.paths, atComplete, 'the live write-set says what the item holds'));
});
