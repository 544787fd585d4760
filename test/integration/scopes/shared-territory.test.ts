// DESIGN §13: a scope is named the same way on every machine, so clones of one origin share
// territory, `fleet.scope` overrides, a repository without origin keeps the id written for it,
// and an agent without a checkout names the repository by scope.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { PlaneCallError } from '../../../server/client/plane-client.js';
import { cloneRepo, git, makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

const ORIGIN = 'git@example.com:org/app.git';

describe('scope identity on one plane (real git repositories, a real plane process)', () => {
  const source = makeRepo();
  const [cloneA, cloneB] = [cloneRepo(source), cloneRepo(source)];
  const loner = makeRepo();
  const home = tempHome();
  let plane: PlaneProcess;
  let atlas: PlaneClient;
  let bolt: PlaneClient;

  before(async () => {
    // Each clone writes the one origin its own way: the scope is the same.
    git(cloneA, 'remote', 'set-url', 'origin', ORIGIN);
    git(cloneB, 'remote', 'set-url', 'origin', 'https://deploy:secret@example.com/org/app');
    plane = await startPlaneProcess({ home });
    atlas = await plane.connect('test-atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', worktree: cloneA });
    bolt = await plane.connect('test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'script', worktree: cloneB });
  });

  after(async () => {
    for (const client of [atlas, bolt]) client?.close();
    await plane?.stop();
    [source, cloneA, cloneB, loner, home].forEach(removeHome);
  });

  test('two clones of one origin share territory: a claim in one conflicts in the other', async () => {
    const mine = await atlas.call('fleet_claim_path', { root: cloneA, patterns: ['src/**'] });
    assert.equal(mine.granted, true);
    const theirs = await bolt.call('fleet_claim_path', { root: cloneB, patterns: ['src/a.ts'] });
    assert.equal(theirs.granted, false);
    assert.deepEqual(theirs.conflicts.map((c) => [c.holder, c.heldPattern]), [['ATLAS', 'src/**']]);
    const checked = await bolt.call('fleet_check_path', { root: cloneB, paths: [`${cloneB}/src/a.ts`] });
    assert.equal(checked.allowed, false);
    const { claims } = await atlas.call('fleet_claims', { root: cloneB });
    assert.deepEqual(claims.map((c) => [c.scope, c.pattern]), [['example.com/org/app', 'src/**']]);
    // fleet status names the repository of each claim, readably.
    const json = await runCli(['status', '--json'], { home, cwd: loner });
    assert.deepEqual(JSON.parse(json.stdout).claims.map((c: { repository: string; pattern: string }) => [c.repository, c.pattern]), [['org/app', 'src/**']]);
    const text = await runCli(['status'], { home, cwd: loner });
    assert.match(text.stdout, /HOLDER\s+REPOSITORY\s+PATTERN[\s\S]*ATLAS\s+org\/app\s+src\/\*\*/);
    await atlas.call('fleet_release_path', { root: cloneA, patterns: ['src/**'] });
  });

  test('scope without a checkout: an origin URL names the repository, paths are repository-relative', async () => {
    await atlas.call('fleet_claim_path', { root: cloneA, patterns: ['docs/**'] });
    // BOLT acts as a remote agent would: no root, the origin URL as its clone has it.
    const remote = await bolt.call('fleet_claim_path', { scope: 'https://example.com/org/app.git', patterns: ['docs/guide.md', 'lib/**'] });
    assert.equal(remote.granted, false);
    assert.deepEqual(remote.conflicts.map((c) => c.heldPattern), ['docs/**']);
    assert.equal((await bolt.call('fleet_claim_path', { scope: 'example.com/org/app', patterns: ['lib/**'] })).granted, true);
    assert.equal((await atlas.call('fleet_check_path', { root: cloneA, paths: ['lib/x.ts'] })).allowed, false, 'the claim made by scope holds in the local clone');
    await assert.rejects(bolt.call('fleet_check_path', { scope: 'example.com/org/app', paths: [`${cloneB}/lib/x.ts`] }), (error: unknown) => {
      assert.ok(error instanceof PlaneCallError);
      assert.match(error.message, /relative to the repository root, or pass root/);
      return true;
    });
    await assert.rejects(bolt.call('fleet_claim_path', { root: loner, scope: 'example.com/org/app', patterns: ['x'] }), /belongs to scope/);
    // The CLI passes scope through and then does not add the working directory as root.
    const cli = await runCli(['call', 'fleet_check_path', '--params', JSON.stringify({ scope: ORIGIN, paths: ['lib/y.ts'] })], { home, cwd: loner });
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(JSON.parse(cli.stdout).results[0].holders[0].callsign, 'BOLT');
    // So do the CLI's verbs with --scope, from a directory of another repository.
    assert.equal((await runCli(['join', '--callsign', 'CID', '--runtime', 'script'], { home, cwd: loner })).code, 0);
    const refused = await runCli(['claim', '--as', 'CID', '--scope', ORIGIN, 'docs/guide.md'], { home, cwd: loner });
    assert.equal(refused.code, 3, `refused by ATLAS's docs/**:\n${refused.stdout}${refused.stderr}`);
    assert.match(refused.stdout, /docs\/guide\.md overlaps docs\/\*\* held exclusive by ATLAS/);
  });

  test('fleet.scope overrides the origin: a clone set apart has territory of its own', async () => {
    await atlas.call('fleet_claim_path', { root: cloneA, patterns: ['apart/**'] });
    git(cloneB, 'config', 'fleet.scope', 'team/app-experiments');
    const apart = await bolt.call('fleet_claim_path', { root: cloneB, patterns: ['apart/x.ts'] });
    assert.equal(apart.granted, true, 'the running plane sees the changed config');
    const { claims } = await bolt.call('fleet_claims', { scope: 'team/app-experiments' });
    assert.deepEqual(claims.map((c) => c.pattern), ['apart/x.ts']);
    git(cloneB, 'config', '--unset', 'fleet.scope');
  });

  test('a repository without origin gets an id written once, the same after a plane restart', async () => {
    await atlas.call('fleet_claim_path', { root: loner, patterns: ['README.md'] });
    const id = git(loner, 'config', '--get', 'fleet.scope');
    const before = (await atlas.call('fleet_claims', { root: loner })).claims.map((c) => c.scope);
    assert.deepEqual(before, [id]);
    await plane.stop();
    plane = await startPlaneProcess({ home });
    atlas.close();
    atlas = await plane.connect('test-atlas-again');
    const after = await atlas.call('fleet_claims', { scope: id });
    assert.deepEqual(after.claims.map((c) => c.pattern), ['README.md']);
    assert.equal(git(loner, 'config', '--get', 'fleet.scope'), id);
    // Another process (the CLI, resolving on its own) finds the same id and the same claim.
    const cli = await runCli(['check', 'README.md'], { home, cwd: loner });
    assert.equal(cli.code, 3, `a person may not write ATLAS's exclusive claim:\n${cli.stdout}${cli.stderr}`);
  });
});
