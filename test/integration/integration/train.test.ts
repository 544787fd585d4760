import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readEventLog } from '../../support/event-log-reader.js';
import { git } from '../../support/git-repo.js';
import { tempHome, removeHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { acceptedItems, eventually, landings, statusOf, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };
test('train: a batch of three lands GREEN in one build, one --no-ff merge commit per item, on the target moved by compare-and-swap', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const counter = join(tempHome('fleet-builds-'), 'count');
  t.after(() => removeHome(join(counter, '..')));
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 1;\n' } },
    { callsign: 'DANA', files: { 'src/d.ts': 'export const d = 1;\n' } },
  ]);
  const start = git(fleet.repo, 'rev-parse', 'main');
  // Through the CLI, as the operator would.
  const cli = (...args: string[]) => runCli(args, { home: fleet.plane.home, cwd: fleet.repo });
  const configured = await cli('integrate', 'configure', '--build', `echo build >> ${counter}; test -f src/b.ts && test -f src/c.ts && test -f src/d.ts`, '--batch', '4');
  assert.equal(configured.code, 0, configured.stderr);
  assert.match(configured.stdout, /batches of 4/);
  const queued = await cli('land', ...items.map((i) => i.id), '--json');
  assert.equal(queued.code, 0, queued.stderr);
  const landing = JSON.parse(queued.stdout) as { items: { status: string }[]; entries: { branch: string; commit: string; target: string }[] };
  assert.deepEqual(landing.items.map((i) => i.status), ['landing', 'landing', 'landing']);
  assert.deepEqual(landing.entries.map((e) => [e.branch, e.commit, e.target]), items.map((i) => [i.branch, i.commit, 'main']));

  await eventually(30_000, async () => assert.deepEqual(await Promise.all(items.map(async (i) => (await statusOf(fleet, i.id)).status)), ['landed', 'landed', 'landed']));
  const merges = landings(fleet.repo, start);
  assert.equal(merges.length, 3, 'one merge commit per item');
  merges.forEach((merge, i) => {
    assert.equal(merge.parents.length, 2, 'a real merge (--no-ff), so one revert undoes one item');
    assert.equal(merge.parents[1], items[i]!.commit, 'exactly the commit that was queued');
  });
  for (const [i, item] of items.entries()) assert.equal((await statusOf(fleet, item.id)).landedCommit, merges[i]!.commit);
  assert.equal(readFileSync(counter, 'utf8'), 'build\n', 'one build verified the whole batch');
  const status = await operator.call('fleet_integrate_status', { root: fleet.repo });
  assert.deepEqual(status.entries.map((e) => e.status), ['landed', 'landed', 'landed']);
  const shown = await cli('integrate', 'status');
  assert.equal(shown.code, 0, shown.stderr);
  for (const [i, item] of items.entries()) assert.match(shown.stdout, new RegExp(`${item.id}\\s+${item.branch}\\s+${item.commit.slice(0, 12)}\\s+landed\\s+${merges[i]!.commit.slice(0, 12)}`));
  // The main checkout (on its own branch) was never touched; no branch of the agents moved.
  assert.equal(git(fleet.repo, 'symbolic-ref', '--short', 'HEAD'), 'operator');
  for (const item of items) assert.equal(git(fleet.repo, 'rev-parse', `refs/heads/${item.branch}`), item.commit);
});

test('train: a RED batch is bisected: the culprit goes back to its builder as rework with the log tail, the others land, the target never holds a RED tree', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 1;\n', BROKEN: 'yes\n' } },
    { callsign: 'DANA', files: { 'src/d.ts': 'export const d = 1;\n' } },
  ]);
  const start = git(fleet.repo, 'rev-parse', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'if [ -e BROKEN ]; then echo "test suite: BROKEN found" >&2; exit 7; fi' });
  await operator.call('fleet_land', { ids: items.map((i) => i.id), root: fleet.repo });
  await eventually(60_000, async () => assert.deepEqual(await Promise.all(items.map(async (i) => (await statusOf(fleet, i.id)).status)), ['landed', 'rework', 'landed']));
  const culprit = await statusOf(fleet, items[1]!.id);
  assert.match(culprit.statusReason ?? '', /RED \(exit 7\)/);
  assert.equal(culprit.reworkRounds, 1, 'a rework round');
  const entry = (await operator.call('fleet_integrate_status', { root: fleet.repo })).entries.find((e) => e.itemId === items[1]!.id)!;
  assert.match(entry.logTail ?? '', /BROKEN found/);
  for (const { commit } of landings(fleet.repo, start)) assert.equal(git(fleet.repo, 'ls-tree', '--name-only', commit, 'BROKEN'), '', `main never pointed at a RED tree (${commit})`);
  assert.equal(landings(fleet.repo, start).length, 2);
  // The digest says what landed, by whom and how long after its accept, and how many trains were RED.
  const { digest, markdown } = await operator.call('fleet_digest', {});
  assert.deepEqual(digest.integration.landedPerAgent, { BOLT: 1, DANA: 1 });
  assert.equal(digest.integration.redBuilds, 3, 'the batch of 3, then its half of 2, then the culprit alone');
  assert.ok(digest.integration.landed.every((l) => typeof l.acceptToLandedMs === 'number' && l.acceptToLandedMs >= 0));
  assert.match(markdown, /## Landed by the train/);
  assert.match(markdown, /3 RED builds/);
  // A morning report says it first: before any section, how many landed (built GREEN) and how many builds were RED.
  const opening = markdown.slice(0, markdown.indexOf('\n## '));
  assert.match(opening, /Train: 2 landed\*\* \(each built GREEN by the plane\), 3 RED builds, 0 conflicts sent back, 0 could not land/);
});

test('train: a textual conflict returns the item to its builder naming the files and the other branch', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/a.ts': 'export const a = 2;\n' } },
    // CLEO writes a.ts outside her claims (no hooks here): the train still catches the collision.
    { callsign: 'CLEO', files: { 'src/a.ts': 'export const a = 3;\n', 'src/c.ts': 'export const c = 1;\n' }, paths: ['src/c.ts'] },
  ]);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  await operator.call('fleet_land', { ids: items.map((i) => i.id), root: fleet.repo });
  await eventually(30_000, async () => assert.deepEqual(await Promise.all(items.map(async (i) => (await statusOf(fleet, i.id)).status)), ['landed', 'rework']));
  const returned = await statusOf(fleet, items[1]!.id);
  assert.match(returned.statusReason ?? '', /cleo-work conflicts with bolt-work .* in src\/a\.ts/);
  assert.equal(readFileSync(join(fleet.repo, '.git', 'HEAD'), 'utf8').trim(), 'ref: refs/heads/operator');
  assert.equal(git(fleet.repo, 'show', 'main:src/a.ts'), 'export const a = 2;');
});

test('train: the target checked out in a worktree is never moved under it: land_failed with a clear reason', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  git(fleet.repo, 'checkout', '-q', 'main');
  const before = git(fleet.repo, 'rev-parse', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'land_failed'));
  assert.match((await statusOf(fleet, items[0]!.id)).statusReason ?? '', /checked out in the worktree/);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before);
  assert.equal(existsSync(join(fleet.repo, 'src/b.ts')), false);
  const log = readEventLog(fleet.plane.home, { tolerateTornTail: true });
  assert.equal(log.filter((e) => e.type === 'integration.batch').length, 0, 'nothing was built');
});

test('train: with land on accept, the accept queues the item; a branch that moved after it was queued goes back to review, never landing an unverified commit', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const operator = await fleet.operator();
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true', landOnAccept: true });
  const { items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^2'), items[0]!.commit);

  // CLEO's item is accepted at one commit; she commits more on the branch before the train gets to it.
  await operator.call('fleet_integrate_configure', { root: fleet.repo, landOnAccept: false });
  const { items: moved } = await acceptedItems(fleet, [{ callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 1;\n' } }]);
  const before = git(fleet.repo, 'rev-parse', 'main');
  const cleoTree = git(fleet.repo, 'worktree', 'list', '--porcelain').split('\n').find((l) => l.startsWith('worktree ') && l.includes('cleo'))!.slice('worktree '.length);
  git(cleoTree, 'commit', '-q', '--allow-empty', '-m', 'unverified afterthought');
  await operator.call('fleet_land', { ids: [moved[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, moved[0]!.id)).status, 'review'));
  assert.match((await statusOf(fleet, moved[0]!.id)).statusReason ?? '', /cleo-work moved since the commit that was verified/);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before);
});
