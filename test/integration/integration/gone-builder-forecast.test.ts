import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { EventWatcher } from '../../support/event-watcher.js';
import { commitFiles, eventually, trainRepo } from '../../support/train-repo.js';
import { runCli } from '../../support/run-cli.js';

const SHARED = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const edited = (line: number, text: string) => `${SHARED.map((l, i) => (i === line - 1 ? text : l)).join('\n')}\n`;
const CRITERIA = ['line 2 says who'];

const between = (a: string, b: string, status: 'conflict' | 'cleared') => (e: FleetEvent) =>
  e.type === 'integration.forecast' && e.status === status && [e.callsign, e.otherCallsign].sort().join() === [a, b].sort().join();

test('a builder that completed on its own branch and left: its write-set stays while the item awaits landing, a live branch that edits the same lines is forecast to conflict with it; fleet land --done ends both', async (t) => {
  const fleet = await trainRepo(t, { 'src/shared.ts': `${SHARED.join('\n')}\n`, 'README.md': '# r\n' });
  const operator = await fleet.operator();
  const events = await EventWatcher.follow(operator);
  const atlas = await fleet.agent('ATLAS', 'atlas-work');
  const bolt = await fleet.agent('BOLT', 'bolt-work');
  const { item } = await operator.call('fleet_work_add', { title: 'line 2', paths: ['src/shared.ts'], criteria: CRITERIA, root: fleet.repo });
  assert.equal((await atlas.client.call('fleet_work_pull', {})).item?.id, item.id);
  commitFiles(atlas.worktree, { 'src/shared.ts': edited(2, 'ATLAS says two') }, 'atlas: line 2');
  await atlas.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/shared.ts'], commands: [], criteria: CRITERIA } });
  assert.deepEqual((await operator.call('fleet_claims', { root: fleet.repo })).claims.map((c) => [c.pattern, c.heldFor]), [['src/shared.ts', item.id]], 'held for the item until it lands');
  await eventually(20_000, async () => assert.deepEqual((await operator.call('fleet_conflicts', {})).writeSets.find((w) => w.callsign === 'ATLAS')?.paths, ['src/shared.ts']));

  // ATLAS's session ends: its work has not landed.
  await atlas.client.call('fleet_agent_leave', {});
  const kept = (await operator.call('fleet_conflicts', {})).writeSets.find((w) => w.callsign === 'ATLAS');
  assert.deepEqual(kept?.awaitingLanding, { agent: 'left', items: [item.id] }, "ATLAS's write-set stays, saying whose item it waits for");

  // BOLT, live on its own branch, changes the same line (outside any hook: its branch will meet ATLAS's at merge time).
  const from = events.events.length;
  writeFileSync(join(bolt.worktree, 'src/shared.ts'), edited(2, 'BOLT says two'));
  const found = await events.waitFor(between('ATLAS', 'BOLT', 'conflict'), from, 30_000, 'the ATLAS–BOLT conflict forecast');
  assert.ok(found.type === 'integration.forecast');
  assert.deepEqual(found.paths, ['src/shared.ts']);
  assert.deepEqual([found.branch, found.otherBranch].sort(), ['refs/heads/atlas-work', 'refs/heads/bolt-work']);
  assert.deepEqual((await bolt.client.call('fleet_agent_resume', {})).conflicts.map((c) => [c.callsign, c.otherCallsign, c.paths]), [['BOLT', 'ATLAS', ['src/shared.ts']]], 'BOLT is told');

  const cli = await runCli(['conflicts'], { home: fleet.plane.home, cwd: fleet.repo });
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /ATLAS \(left\) +atlas-work/);
  assert.match(cli.stdout, new RegExp(`ATLAS \\(left\\) — ${item.id} awaiting landing`));
  assert.match(cli.stdout, /forecast conflicts \(1\)[\s\S]*(ATLAS .*BOLT|BOLT .*ATLAS).*src\/shared\.ts/);
  const own = await runCli(['conflicts', 'ATLAS', '--json'], { home: fleet.plane.home, cwd: fleet.repo });
  assert.equal(own.code, 0, `fleet conflicts names a gone builder whose write-set is kept: ${own.stderr}`);
  assert.deepEqual((JSON.parse(own.stdout) as { conflicts: { otherCallsign?: string }[] }).conflicts.map((c) => c.otherCallsign), ['BOLT']);
  const status = await runCli(['status'], { home: fleet.plane.home, cwd: fleet.repo });
  assert.match(status.stdout, new RegExp(`ATLAS \\(left\\) — ${item.id} awaiting landing`));

  // The plane restarts: the log gives the same state back (the write-set kept, the conflict with it).
  await fleet.restart();
  const replayed = await (await fleet.operator()).call('fleet_conflicts', {});
  assert.deepEqual(replayed.writeSets.find((w) => w.callsign === 'ATLAS')?.awaitingLanding, { agent: 'left', items: [item.id] });
  assert.equal(replayed.conflicts.length, 1);

  // A new session joins ATLAS's worktree: a hook asking for that worktree's write-set gets the live one's, not the kept one.
  const cara = await fleet.plane.connect('CARA');
  t.after(() => cara.close());
  await cara.call('fleet_agent_join', { callsign: 'CARA', runtime: 'test', role: 'builder', worktree: atlas.worktree });
  await eventually(20_000, async () => assert.deepEqual((await cara.call('fleet_conflicts', { worktree: atlas.worktree })).writeSets.map((w) => w.callsign), ['CARA']));
  await cara.call('fleet_agent_leave', {});

  // The operator says it landed outside the train: the forecast clears and ATLAS's write-set ends.
  const watcher = await EventWatcher.follow(await fleet.operator());
  const landed = await runCli(['land', '--done', item.id], { home: fleet.plane.home, cwd: fleet.repo });
  assert.equal(landed.code, 0, landed.stderr);
  await watcher.waitFor(between('ATLAS', 'BOLT', 'cleared'), 0, 10_000, 'the forecast cleared');
  await watcher.waitFor((e) => e.type === 'integration.write_set' && e.callsign === 'ATLAS' && e.ended === true, 0, 10_000, "ATLAS's write-set ended");
  const after = await (await fleet.operator()).call('fleet_conflicts', {});
  assert.deepEqual(after.writeSets.map((w) => w.callsign), ['BOLT']);
  assert.deepEqual(after.conflicts, []);
});
