import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readEventLog } from '../../support/event-log-reader.js';
import { git } from '../../support/git-repo.js';
import { expectCallError } from '../../support/orchestration-plane.js';
import { acceptedItems, eventually, statusOf, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };

const builds = (home: string, withTip: boolean) =>
  readEventLog(home, { tolerateTornTail: true }).filter((e) => e.type === 'integration.batch' && (e.tip !== undefined) === withTip).length;

test('train with a remote: builds on the remote head fetched into refs/fleet/*, pushes without force, then moves the local branch; a remote that moved during the build is built again, its commit kept', async (t) => {
  const fleet = await trainRepo(t, FILES, { remote: true });
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  // Someone else pushes to the remote while the first build runs.
  const other = join(fleet.trees, 'other');
  execFileSync('git', ['clone', '-q', fleet.remote, other], { stdio: 'ignore' });
  const mark = join(fleet.trees, 'pushed-once');
  const racer = `if [ ! -e ${mark} ]; then touch ${mark}; git -C ${other} -c user.name=o -c user.email=o@x commit -q --allow-empty -m other; git -C ${other} push -q origin HEAD:main; fi; test -f src/b.ts`;
  await operator.call('fleet_integrate_configure', { root: fleet.repo, remote: 'origin', push: true, buildCommand: racer });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));

  const remoteMain = git(fleet.remote, 'rev-parse', 'main');
  const otherCommit = git(other, 'rev-parse', 'HEAD');
  assert.equal(git(fleet.remote, 'rev-parse', `${remoteMain}^1`), otherCommit, 'built again on the remote head that moved: nothing of it lost, nothing forced');
  assert.equal(git(fleet.remote, 'rev-parse', `${remoteMain}^2`), items[0]!.commit);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), remoteMain, 'the local branch follows once the push is in');
  assert.equal(git(fleet.repo, 'for-each-ref', '--format=%(refname)', 'refs/remotes/'), '', 'refs/remotes/* is the user\'s: the train fetches into refs/fleet/*');
  assert.equal(git(fleet.repo, 'rev-parse', 'refs/fleet/origin/main'), otherCommit);
  assert.equal(builds(fleet.plane.home, true), 2, 'the first GREEN was not pushed (the remote had moved); the second was');
});

test('train with a remote that refuses the push (not a moved head): land_failed, the remote and the local branch untouched', async (t) => {
  const fleet = await trainRepo(t, FILES, { remote: true });
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  mkdirSync(join(fleet.remote, 'hooks'), { recursive: true });
  writeFileSync(join(fleet.remote, 'hooks', 'pre-receive'), '#!/bin/sh\necho "protected branch: pull requests only" >&2\nexit 1\n');
  chmodSync(join(fleet.remote, 'hooks', 'pre-receive'), 0o755);
  const before = git(fleet.remote, 'rev-parse', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, remote: 'origin', push: true, buildCommand: 'true' });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'land_failed'));
  assert.match((await statusOf(fleet, items[0]!.id)).statusReason ?? '', /refused the push .*protected branch/s);
  assert.equal(git(fleet.remote, 'rev-parse', 'main'), before);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before);
});

test('train: the target moved during the build (compare-and-swap lost) is built again on the new head; an unbuilt tree never lands', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  git(fleet.repo, 'branch', 'hotfix', 'main');
  const hotfix = git(fleet.repo, 'commit-tree', '-p', 'main', '-m', 'hotfix', git(fleet.repo, 'rev-parse', 'main^{tree}'));
  git(fleet.repo, 'update-ref', 'refs/heads/hotfix', hotfix);
  const mark = join(fleet.trees, 'moved-once');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: `if [ ! -e ${mark} ]; then touch ${mark}; git -C ${fleet.repo} update-ref refs/heads/main ${hotfix}; fi; true` });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^1'), hotfix, 'landed on the head that moved under the build');
  const log = readEventLog(fleet.plane.home, { tolerateTornTail: true });
  const green = log.filter((e) => e.type === 'integration.batch' && e.tip !== undefined);
  assert.equal(green.length, 2);
  assert.equal(green[1]!.type === 'integration.batch' && green[1]!.tip, git(fleet.repo, 'rev-parse', 'main'), 'main points at the tip of the build that passed on it');
});

test('train: kill -9 of the plane during the build leaves the target where it was; the restarted plane resumes, builds again and lands the item once', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  const started = join(fleet.trees, 'started');
  const resume = join(fleet.trees, 'resume');
  const before = git(fleet.repo, 'rev-parse', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: `if [ -e ${resume} ]; then exit 0; fi; touch ${started}; sleep 20` });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.ok(existsSync(started)));
  operator.close();
  await fleet.restart();
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before, 'killed mid-build: the target did not move');
  writeFileSync(resume, '');
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'landed'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^2'), items[0]!.commit);
  assert.equal(git(fleet.repo, 'rev-parse', 'main^1'), before, 'landed once');
});

test('train: hostile branch and target names are refused or used as names, never as options or shell', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [{ callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } }]);
  await expectCallError(operator.call('fleet_land', { branch: '--upload-pack=touch PWNED', root: fleet.repo }), 'NOT_FOUND');
  await expectCallError(operator.call('fleet_integrate_configure', { root: fleet.repo, target: '--force' }), 'INVALID_PARAMS');
  // A valid but hostile-looking branch name lands as a name.
  const hostile = 'feat/$(touch${IFS}PWNED);`id`|x';
  git(fleet.repo, 'branch', hostile, items[0]!.branch);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'true' });
  const queued = await operator.call('fleet_land', { branch: hostile, root: fleet.repo });
  const id = queued.entries[0]!.itemId;
  await eventually(30_000, async () => assert.equal((await operator.call('fleet_integrate_status', { root: fleet.repo })).entries.find((e) => e.itemId === id)?.status, 'landed'));
  assert.equal(git(fleet.repo, 'rev-parse', 'main^2'), items[0]!.commit);
  assert.equal(existsSync(join(fleet.repo, 'PWNED')), false);
  assert.equal(existsSync(join(fleet.plane.home, 'PWNED')), false);
});

test('train: a build that hangs is ended at its timeout and one that floods its output is kept to a bounded tail; both go back to their builders', async (t) => {
  const fleet = await trainRepo(t, FILES);
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 1;\n' } },
  ]);
  const before = git(fleet.repo, 'rev-parse', 'main');
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'sleep 60', timeoutSeconds: 1 });
  await operator.call('fleet_land', { ids: [items[0]!.id], root: fleet.repo });
  await eventually(30_000, async () => assert.equal((await statusOf(fleet, items[0]!.id)).status, 'rework'));
  assert.match((await statusOf(fleet, items[0]!.id)).statusReason ?? '', /timed out after 1 s/);

  const more = items.slice(1);
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: "head -c 30000000 /dev/zero | tr '\\0' x; echo; echo the-last-line; exit 1", timeoutSeconds: 60 });
  await operator.call('fleet_land', { ids: [more[0]!.id], root: fleet.repo });
  await eventually(60_000, async () => assert.equal((await statusOf(fleet, more[0]!.id)).status, 'rework'));
  const entry = (await operator.call('fleet_integrate_status', { root: fleet.repo })).entries.find((e) => e.itemId === more[0]!.id)!;
  assert.ok((entry.logTail ?? '').length <= 4000, `bounded tail (${entry.logTail?.length})`);
  assert.match(entry.logTail ?? '', /the-last-line/);
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), before);
});
