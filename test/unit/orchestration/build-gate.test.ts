import assert from 'node:assert/strict';
import { test } from 'node:test';
import { methods } from '../../../contracts/index.js';
import {
  abandonInterruptedBuilds,
  configureBuild,
  latestBuilds,
  nextBuild,
  recordBuildFinished,
  recordBuildStarted,
  requestBuild,
} from '../../../server/core/build-gate.js';
import { OPERATOR, OTHER_SCOPE, SCOPE, eventsOfType, expectRefusedUnchanged, joinAgent, makeHarness, restoreHarness } from '../../support/core-harness.js';

function gate() {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { role: 'builder' });
  h.core.run(OPERATOR, (ctx) => configureBuild(ctx, OPERATOR, { scope: SCOPE, command: 'npm test', worktree: '/repo' }));
  return { h, atlas };
}

test('configuring records command, worktree, the 30-minute default timeout and who configured it', () => {
  const { h } = gate();
  assert.deepEqual(h.core.state.buildConfigs.get(SCOPE), { scope: SCOPE, command: 'npm test', worktree: '/repo', timeoutSeconds: 1800, configuredBy: 'dana' });
});

test('a build request without a configured gate is INVALID_STATE; any agent may request a run, which starts queued', () => {
  const { h, atlas } = gate();
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => requestBuild(ctx, atlas.caller, OTHER_SCOPE));
  const run = h.core.run(atlas.caller, (ctx) => requestBuild(ctx, atlas.caller, SCOPE));
  assert.equal(run.status, 'queued');
  assert.equal(run.requestedBy, 'ATLAS');
  assert.equal(run.command, 'npm test');
});

test('runs go one at a time, oldest first: nothing starts while one runs', () => {
  const { h, atlas } = gate();
  const a = h.core.run(atlas.caller, (ctx) => requestBuild(ctx, atlas.caller, SCOPE));
  const b = h.core.run(atlas.caller, (ctx) => requestBuild(ctx, atlas.caller, SCOPE));
  assert.equal(h.core.run(undefined, (ctx) => nextBuild(ctx))?.id, a.id);
  h.core.run(undefined, (ctx) => recordBuildStarted(ctx, a.id, 'c0ffee'));
  assert.equal(h.core.run(undefined, (ctx) => nextBuild(ctx)), undefined);
  h.core.run(undefined, (ctx) => recordBuildFinished(ctx, a.id, { exitCode: 0, durationMs: 10, commit: 'c0ffee', log: 'ok', timedOut: false }));
  assert.equal(h.core.run(undefined, (ctx) => nextBuild(ctx))?.id, b.id);
});

test('GREEN only for exit 0 without timeout; RED with the exit code, duration, commit and a bounded log tail', () => {
  const { h, atlas } = gate();
  const finish = (exitCode: number | null, timedOut: boolean, log = 'out') => {
    const run = h.core.run(atlas.caller, (ctx) => requestBuild(ctx, atlas.caller, SCOPE));
    h.core.run(undefined, (ctx) => recordBuildStarted(ctx, run.id, 'abc'));
    h.core.run(undefined, (ctx) => recordBuildFinished(ctx, run.id, { exitCode, durationMs: 42, commit: 'abc', log, timedOut }));
    return h.core.state.buildRuns.get(run.id)!;
  };
  assert.equal(finish(0, false).status, 'green');
  const red = finish(3, false, `${'x'.repeat(10_000)}THE END`);
  assert.deepEqual([red.status, red.exitCode, red.durationMs, red.commit], ['red', 3, 42, 'abc']);
  assert.equal(red.logTail!.length, 4000);
  assert.ok(red.logTail!.endsWith('THE END'), 'the tail keeps the end of the log');
  assert.equal(finish(0, true).status, 'red', 'a timed-out run is red even if it exited 0');
  assert.equal(finish(null, false).status, 'red');
  for (const event of eventsOfType(h.events, 'build.finished')) assert.equal(event.by, 'plane');
  assert.deepEqual(latestBuilds(h.core.run(undefined, (ctx) => ctx)).map((r) => r.status), ['red']);
});

test('a run interrupted by a restart is recorded red, never left running (and never green)', () => {
  const { h, atlas } = gate();
  const run = h.core.run(atlas.caller, (ctx) => requestBuild(ctx, atlas.caller, SCOPE));
  h.core.run(undefined, (ctx) => recordBuildStarted(ctx, run.id, 'abc'));
  const restarted = restoreHarness({ snapshot: null, tail: h.events });
  restarted.core.run(undefined, (ctx) => abandonInterruptedBuilds(ctx));
  const after = restarted.core.state.buildRuns.get(run.id)!;
  assert.equal(after.status, 'red');
  assert.equal(after.exitCode, null);
  assert.match(after.logTail!, /interrupted/);
});

test('no method of the table lets a caller record a build result: GREEN comes only from a plane run', () => {
  const buildMethods = Object.keys(methods).filter((name) => name.includes('build'));
  assert.deepEqual(buildMethods.sort(), ['fleet_build_configure', 'fleet_build_verify']);
  assert.equal(methods.fleet_build_configure.access, 'rte_or_operator');
  for (const extra of [{ status: 'green' }, { exitCode: 0 }, { result: 'green' }]) {
    assert.equal(methods.fleet_build_verify.params.safeParse({ root: '/repo', ...extra }).success, false, JSON.stringify(extra));
    assert.equal(methods.fleet_build_configure.params.safeParse({ root: '/repo', command: 'true', ...extra }).success, false, JSON.stringify(extra));
  }
});
