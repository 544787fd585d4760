// DESIGN §13: the state of an older plane (snapshot version 2, scopes named by git common dir) is
// migrated forward when the plane starts: a backup, the highest fence, and overlapping claims of
// two merged scopes queued, never dropped.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scopeName } from '../../../contracts/index.js';
import { toPersisted } from '../../../server/core/state.js';
import { release } from '../../../server/core/territory.js';
import { claimNow, joinAgent, makeHarness } from '../../support/core-harness.js';
import { cloneRepo, git, makeRepo } from '../../support/git-repo.js';
import { LEGACY_SNAPSHOT_VERSION, writeLegacyStore } from '../../support/legacy-state.js';
import { removeHome, startPlaneProcess, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

test('an older plane\'s state is migrated: backup, portable ids, highest fence, overlapping claims of merged clones wait', async (t) => {
  const source = makeRepo({ 'src/a.ts': 'a\n', 'docs/guide.md': '# g\n' });
  const [cloneA, cloneB] = [cloneRepo(source), cloneRepo(source)];
  const loner = makeRepo(); // no origin: gets an id generated at migration
  const home = tempHome();
  t.after(() => [source, cloneA, cloneB, loner, home].forEach(removeHome));
  // The ids the older plane used: each clone's git common dir.
  const [oldA, oldB, oldLoner] = [cloneA, cloneB, loner].map((root) => realpathSync(join(root, '.git')));

  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const bolt = joinAgent(h, 'BOLT');
  claimNow(h, atlas.caller, { scope: oldA, patterns: ['src/**'] });
  // Fences of clone B's scope climb higher than A's: the merged scope must continue above both.
  for (let i = 0; i < 5; i++) {
    claimNow(h, bolt.caller, { scope: oldB, patterns: ['tmp/x'] });
    h.core.run(bolt.caller, (ctx) => release(ctx, bolt.caller, { scope: oldB, patterns: ['tmp/x'] }));
  }
  claimNow(h, bolt.caller, { scope: oldB, patterns: ['docs/**'] });
  claimNow(h, bolt.caller, { scope: oldLoner, patterns: ['README.md'] });
  const snapshot = toPersisted(h.core.state);
  h.clock.advance(1000);
  // After the snapshot, in the log tail: BOLT's claim in clone B overlaps ATLAS's older one in A.
  claimNow(h, bolt.caller, { scope: oldB, patterns: ['src/a.ts'] });
  const highest = Math.max(...h.core.state.claimFences.values());
  await writeLegacyStore(home, snapshot, h.events);

  const plane = await startPlaneProcess({ home });
  t.after(() => plane.stop());
  const merged = `file://${realpathSync(source)}`;
  const generated = git(loner, 'config', '--get', 'fleet.scope');
  assert.match(generated, /-[0-9a-f]{12}$/);

  const backupLine = /the state as it was is kept in (\S+)/.exec(plane.output());
  assert.ok(backupLine, `the plane's log names the backup:\n${plane.output()}`);
  const backup = backupLine[1]!;
  assert.equal(JSON.parse(readFileSync(join(backup, 'snapshot.json'), 'utf8')).state.schemaVersion, LEGACY_SNAPSHOT_VERSION, 'the backup is the old state as found');

  const operator = await plane.connectAsOperator();
  t.after(() => operator.close());
  const { claims } = await operator.call('fleet_claims', {});
  const held = claims.map((c) => `${c.holder} ${c.scope} ${c.pattern}`).sort();
  assert.deepEqual(held, [`ATLAS ${merged} src/**`, `BOLT ${merged} docs/**`, `BOLT ${generated} README.md`].sort());

  // fleet history still finds what the older plane logged, under the migrated scope.
  const history = await operator.call('fleet_path_history', { root: cloneA, path: 'src/a.ts' });
  assert.deepEqual(history.entries.map((e) => [e.holder, e.pattern]), [['ATLAS', 'src/**'], ['BOLT', 'src/a.ts']]);
  const elsewhere = await operator.call('fleet_path_history', { root: loner, path: 'src/a.ts' });
  assert.deepEqual(elsewhere.entries, []);

  // Restart: the parked claim survives, and nothing is migrated (or backed up) twice.
  await plane.stop();
  const again = await startPlaneProcess({ home });
  t.after(() => again.stop());
  assert.doesNotMatch(again.output(), /kept in/);
  assert.equal(readdirSync(home).filter((name) => name.startsWith('state.before-scope-migration-')).length, 1);

  const asAtlas = await again.connect();
  const asBolt = await again.connect();
  t.after(() => [asAtlas, asBolt].forEach((c) => c.close()));
  await asAtlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'test', sessionToken: atlas.sessionToken });
  await asBolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'test', sessionToken: bolt.sessionToken });
  // ATLAS's claim now covers clone B too: BOLT may not write src/a.ts there.
  const checked = await asBolt.call('fleet_check_path', { root: cloneB, paths: ['src/a.ts'] });
  assert.equal(checked.allowed, false);
  assert.equal(checked.results[0]!.holders[0]!.callsign, 'ATLAS');

  // `fleet status` lists the parked claim, with its repository, until it is granted.
  const parkedIn = async () => (JSON.parse((await runCli(['status', '--json'], { home, cwd: cloneB })).stdout) as { parkedClaims: { holder: string; repository: string; pattern: string }[] }).parkedClaims;
  assert.deepEqual((await parkedIn()).map((c) => [c.holder, c.repository, c.pattern]), [['BOLT', scopeName(merged), 'src/a.ts']]);
  assert.match((await runCli(['status'], { home, cwd: cloneB })).stdout, /^parked claims \(1;[^\n]*\n.*\nBOLT +\S+ +src\/a\.ts +exclusive/m);

  // When ATLAS lets go, BOLT's queued claim is granted (in the same step), with a fence above every old one.
  await asAtlas.call('fleet_release_path', { root: cloneA, patterns: ['src/**'] });
  const mine = await asBolt.call('fleet_claims', { scope: merged, holder: 'BOLT' });
  const claim = mine.claims.find((c) => c.pattern === 'src/a.ts');
  assert.ok(claim, `BOLT holds src/a.ts once ATLAS released: ${JSON.stringify(mine.claims)}`);
  assert.ok(claim.fence > highest, `fence ${claim.fence} continues above the highest old fence ${highest}`);
  assert.ok(existsSync(backup));
  assert.deepEqual(await parkedIn(), [], 'a granted claim is parked no more');
  assert.doesNotMatch((await runCli(['status'], { home, cwd: cloneB })).stdout, /parked claims/);
});
