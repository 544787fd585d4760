// A kill -9 of the plane at each step of the train (DESIGN §14: "a crash at any step leaves the
// target at a GREEN commit and the queue resumable"), made at the exact git step by a `git` shim
// first on the plane's PATH: during a merge, between the GREEN record and the target's update-ref,
// after the update-ref before the landed record, and mid-push to a bare remote. After each, a plane
// restarted on the same FLEET_HOME resumes by itself and lands every item exactly once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEventLog } from '../../support/event-log-reader.js';
import { git } from '../../support/git-repo.js';
import { gitKillShim, type KillWhen } from '../../support/git-kill-shim.js';
import { acceptedItems, eventually, landings, statusOf, trainRepo } from '../../support/train-repo.js';

const FILES = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' };

/** Refs and their commits, but the target and the train's own refs/fleet/*: what the train must never move or delete. */
function othersRefs(repo: string): string {
  return git(repo, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n').filter((l) => !l.startsWith('refs/heads/main ') && !l.startsWith('refs/fleet/')).join('\n');
}

/** The worktrees but the plane's own scratch one (under its FLEET_HOME), with their HEADs and branches. */
function othersWorktrees(repo: string, home: string): string[] {
  return git(repo, 'worktree', 'list', '--porcelain').split('\n\n').filter((w) => !w.startsWith(`worktree ${home}`));
}

/** What the plane had done when it died: whether its GREEN build was recorded, and where the target then was. */
interface AtDeath {
  greenRecorded: boolean;
  /** The local target at the tip it built (else where it was before). */
  targetMoved: boolean;
}

async function killedAt(t: { after(fn: () => Promise<void> | void): void }, subcommand: string, when: KillWhen, expected: AtDeath, options: { remote?: boolean } = {}) {
  const shim = gitKillShim(subcommand, when);
  t.after(() => shim.remove());
  const fleet = await trainRepo(t, FILES, { env: shim.env, ...(options.remote === true && { remote: true }) });
  const { operator, items } = await acceptedItems(fleet, [
    { callsign: 'BOLT', files: { 'src/b.ts': 'export const b = 1;\n' } },
    { callsign: 'CLEO', files: { 'src/c.ts': 'export const c = 1;\n' } },
  ]);
  const before = git(fleet.repo, 'rev-parse', 'main');
  const refs = othersRefs(fleet.repo);
  const worktrees = othersWorktrees(fleet.repo, fleet.plane.home);
  const remoteRefs = options.remote === true ? othersRefs(fleet.remote) : '';
  await operator.call('fleet_integrate_configure', { root: fleet.repo, buildCommand: 'test -f src/b.ts && test -f src/c.ts', ...(options.remote === true && { remote: 'origin', push: true }) });
  shim.arm();
  await operator.call('fleet_land', { ids: items.map((i) => i.id), root: fleet.repo });
  await eventually(30_000, async () => assert.ok(shim.fired(), `the plane ran git ${subcommand}`));
  await eventually(10_000, async () => assert.equal(fleet.plane.child.signalCode, 'SIGKILL', 'the shim killed the plane'));
  // The kill fell on the step it names: read what the dead plane had recorded and moved.
  const dying = readEventLog(fleet.plane.home, { tolerateTornTail: true });
  const tips = dying.flatMap((e) => (e.type === 'integration.batch' && e.tip !== undefined ? [e.tip] : []));
  assert.equal(tips.length > 0, expected.greenRecorded, 'the GREEN record as the kill found it');
  assert.equal(git(fleet.repo, 'rev-parse', 'main'), expected.targetMoved ? tips[0] : before, 'the target as the kill found it');
  assert.equal(dying.filter((e) => e.type === 'integration.left').length, 0, 'nothing recorded landed yet');
  await fleet.restart();

  // Nothing is asked of the restarted plane but reads: the train resumes by itself.
  await eventually(60_000, async () => {
    for (const item of items) assert.equal((await statusOf(fleet, item.id)).status, 'landed', `${item.id} landed after the restart`);
  });
  const log = readEventLog(fleet.plane.home, { tolerateTornTail: true });
  const green = log.flatMap((e) => (e.type === 'integration.batch' && e.tip !== undefined ? [e.tip] : []));
  const main = git(fleet.repo, 'rev-parse', 'main');
  assert.ok(green.includes(main), 'the target points at a tip the plane built GREEN');
  assert.equal(log.filter((e) => e.type === 'integration.batch_ended' && e.red === true).length, 0, 'no RED build');
  const merged = landings(fleet.repo, before).map((l) => l.parents[1]);
  for (const item of items) assert.equal(merged.filter((c) => c === item.commit).length, 1, `${item.branch} landed exactly once`);
  assert.equal(landings(fleet.repo, before).length, items.length, 'one merge commit per item, nothing else');
  if (options.remote === true) {
    assert.equal(git(fleet.remote, 'rev-parse', 'main'), main, 'the remote holds the same GREEN tip');
    assert.equal(othersRefs(fleet.remote), remoteRefs, "the remote's other refs untouched");
  }
  assert.equal(othersRefs(fleet.repo), refs, 'no ref or branch the train did not create moved or went away');
  assert.deepEqual(othersWorktrees(fleet.repo, fleet.plane.home), worktrees, 'no worktree the train did not create changed');
}

test('train: kill -9 during a merge in the scratch worktree (the merge runs on, orphaned): the restarted plane merges again from the target and lands each item once', (t) => killedAt(t, 'merge', 'during', { greenRecorded: false, targetMoved: false }));

test('train: kill -9 of the plane and its git together during a merge (git\'s index.lock left in the scratch worktree): the restarted plane makes its scratch worktree again and lands each item once', (t) => killedAt(t, 'merge', 'with-git', { greenRecorded: false, targetMoved: false }));

test('train: kill -9 between the GREEN record and the target\'s update-ref: the restarted plane moves the target to the GREEN tip and records both items landed', (t) => killedAt(t, 'update-ref', 'before', { greenRecorded: true, targetMoved: false }));

test('train: kill -9 after the target\'s update-ref, before the landed record: the restarted plane finds the target at the GREEN tip and records both items landed, without landing them again', (t) => killedAt(t, 'update-ref', 'after', { greenRecorded: true, targetMoved: true }));

test('train with a remote: kill -9 mid-push (the push runs on, orphaned): the restarted plane finds the remote at the GREEN tip, moves the local branch, and lands each item once', (t) => killedAt(t, 'push', 'during', { greenRecorded: true, targetMoved: false }, { remote: true }));

test('train with a remote: kill -9 before the push: the restarted plane pushes the GREEN tip without force and lands each item once', (t) => killedAt(t, 'push', 'before', { greenRecorded: true, targetMoved: false }, { remote: true }));
