import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundedPaths, conflictsOf, MAX_WRITE_SET_PATH_BYTES, forecastPartners, recordForecast, recordReach, recordWriteSet, scopeHasPairs, writeSetView, type ForecastOutcome, type WriteSetInput } from '../../../server/core/integration-forecast.js';
import { toPersisted } from '../../../server/core/state.js';
import { eventsOfType, joinAgent, makeHarness, restoreHarness, type Harness, type JoinedAgent } from '../../support/core-harness.js';

const writeSet = (agent: JoinedAgent, paths: string[], commit = 'c1'): WriteSetInput => ({
  agentId: agent.agentId,
  callsign: agent.callsign,
  worktree: `/trees/${agent.callsign}`,
  repository: '/repo/.git',
  branch: `refs/heads/${agent.callsign.toLowerCase()}`,
  target: 'refs/heads/main',
  head: 'h1',
  commit,
  paths,
  truncated: false,
});
const between = (a: JoinedAgent, b: JoinedAgent, paths: string[]): ForecastOutcome => ({
  agentId: a.agentId,
  callsign: a.callsign,
  branch: `refs/heads/${a.callsign.toLowerCase()}`,
  otherAgentId: b.agentId,
  otherCallsign: b.callsign,
  otherBranch: `refs/heads/${b.callsign.toLowerCase()}`,
  paths,
  truncated: false,
});
const forecasts = (h: Harness) => eventsOfType(h.events, 'integration.forecast');

function fleet(config: Parameters<typeof makeHarness>[0] = {}) {
  const h = makeHarness(config);
  const [atlas, bolt, cleo] = ['ATLAS', 'BOLT', 'CLEO'].map((callsign) => joinAgent(h, callsign)) as [JoinedAgent, JoinedAgent, JoinedAgent];
  h.core.run(undefined, (ctx) => {
    recordWriteSet(ctx, writeSet(atlas, ['src/shared.ts', 'src/a.ts']));
    recordWriteSet(ctx, writeSet(bolt, ['src/shared.ts']));
    recordWriteSet(ctx, writeSet(cleo, ['docs/x.md']));
  });
  return { h, atlas, bolt, cleo };
}

/** ATLAS and CLEO, who share no path. */
function fleetWithout() {
  const h = makeHarness();
  const [atlas, cleo] = ['ATLAS', 'CLEO'].map((callsign) => joinAgent(h, callsign)) as [JoinedAgent, JoinedAgent];
  h.core.run(undefined, (ctx) => {
    recordWriteSet(ctx, writeSet(atlas, ['src/a.ts']));
    recordWriteSet(ctx, writeSet(cleo, ['docs/x.md']));
  });
  return h.core.state;
}

describe('write-sets and forecasts in the core (DESIGN §14)', () => {
  test('a write-set is recorded only when what people read of it changed (a new snapshot commit alone is no event)', () => {
    const { h, atlas } = fleet();
    const before = eventsOfType(h.events, 'integration.write_set').length;
    assert.equal(h.core.run(undefined, (ctx) => recordWriteSet(ctx, writeSet(atlas, ['src/shared.ts', 'src/a.ts'], 'c2'))), false);
    assert.equal(h.core.run(undefined, (ctx) => recordWriteSet(ctx, writeSet(atlas, ['src/shared.ts']))), true);
    assert.equal(eventsOfType(h.events, 'integration.write_set').length, before + 1);
  });

  test("on a shared log a new snapshot commit is recorded: the scope's integrator may be another plane, which learns the work to merge only from the log", () => {
    const { h, atlas } = fleet({ planeId: 'pl-one', planeDeathTtlMs: 60_000 });
    const before = eventsOfType(h.events, 'integration.write_set').length;
    assert.equal(h.core.run(undefined, (ctx) => recordWriteSet(ctx, writeSet(atlas, ['src/shared.ts', 'src/a.ts'], 'c2'))), true);
    assert.equal(h.core.run(undefined, (ctx) => recordWriteSet(ctx, writeSet(atlas, ['src/shared.ts', 'src/a.ts'], 'c2'))), false, 'the same snapshot again is no event');
    assert.equal(eventsOfType(h.events, 'integration.write_set').length, before + 1);
  });

  test('write-sets of one scope are partners across clones (their repositories differ); what the integrator cannot reach is said once per snapshot, and cleared', () => {
    const h = makeHarness();
    const [atlas, bolt] = ['ATLAS', 'BOLT'].map((callsign) => joinAgent(h, callsign)) as [JoinedAgent, JoinedAgent];
    h.core.run(undefined, (ctx) => {
      recordWriteSet(ctx, { ...writeSet(atlas, ['src/shared.ts']), repository: '/machine-a/repo/.git', scope: 'github.com/o/r' });
      recordWriteSet(ctx, { ...writeSet(bolt, ['src/shared.ts']), repository: '/machine-b/repo/.git', scope: 'github.com/o/r' });
    });
    assert.deepEqual(forecastPartners(h.core.state, atlas.agentId).map((w) => w.callsign), ['BOLT']);
    assert.equal(scopeHasPairs(h.core.state, 'github.com/o/r'), true, 'a pair: the scope needs its integrator');
    assert.equal(scopeHasPairs(fleetWithout(), '/repo/.git'), false, 'no shared path: no integrator is needed');
    const why = "not reachable from the integrator's plane (plane a): no remote";
    h.core.run(undefined, (ctx) => {
      recordReach(ctx, bolt.agentId, 'c1', why);
      recordReach(ctx, bolt.agentId, 'c1', why);
      recordReach(ctx, bolt.agentId, 'an-older-commit', undefined);
    });
    assert.equal(eventsOfType(h.events, 'integration.reach').length, 1, 'said once; a judgement of another snapshot is none');
    assert.equal(writeSetView(h.core.state.writeSets.get(bolt.agentId)!).notCompared, why);
    const restored = restoreHarness({ snapshot: toPersisted(h.core.state), tail: [] });
    assert.equal(restored.core.state.writeSets.get(bolt.agentId)!.notCompared, why, 'the note is in the state a new integrator takes over');
    h.core.run(undefined, (ctx) => recordReach(ctx, bolt.agentId, 'c1', undefined));
    assert.equal(writeSetView(h.core.state.writeSets.get(bolt.agentId)!).notCompared, undefined);
    h.core.run(undefined, (ctx) => recordReach(ctx, bolt.agentId, 'c1', why));
    h.core.run(undefined, (ctx) => recordWriteSet(ctx, { ...writeSet(bolt, ['src/shared.ts', 'src/b.ts'], 'c2'), repository: '/machine-b/repo/.git', scope: 'github.com/o/r' }));
    assert.equal(h.core.state.writeSets.get(bolt.agentId)!.notCompared, undefined, 'a new write-set is judged afresh');
  });

  test("a write-set event's paths stay within the log's message bound, saying they were cut", () => {
    const long = Array.from({ length: 1000 }, (_, i) => `src/${'deep/'.repeat(58)}f${i}.ts`);
    const { paths, cut } = boundedPaths(long);
    assert.equal(cut, true);
    assert.ok(paths.length > 500 && paths.length < 1000 && JSON.stringify(paths).length <= MAX_WRITE_SET_PATH_BYTES);
    assert.deepEqual(boundedPaths(['a.ts', 'b.ts']), { paths: ['a.ts', 'b.ts'], cut: false });
  });

  test('the partners of a forecast are the write-sets that share a path (or already conflict), never the whole fleet', () => {
    const { h, atlas, bolt, cleo } = fleet();
    assert.deepEqual(forecastPartners(h.core.state, atlas.agentId).map((w) => w.callsign), ['BOLT']);
    assert.deepEqual(forecastPartners(h.core.state, cleo.agentId), []);
    h.core.run(undefined, (ctx) => recordForecast(ctx, between(cleo, atlas, ['README.md'])));
    assert.deepEqual(forecastPartners(h.core.state, cleo.agentId).map((w) => w.callsign), ['ATLAS'], 'a recorded conflict keeps the pair checked, so it can clear');
    assert.ok(bolt);
  });

  test('a forecast event only on change: found once, again when its paths change, cleared once; either side sees it as its own', () => {
    const { h, atlas, bolt } = fleet();
    const run = (outcome: ForecastOutcome) => h.core.run(undefined, (ctx) => recordForecast(ctx, outcome));
    run(between(atlas, bolt, ['src/shared.ts']));
    run(between(bolt, atlas, ['src/shared.ts'])); // the same pair from the other side: no news
    run(between(atlas, bolt, ['src/a.ts', 'src/shared.ts']));
    assert.deepEqual(forecasts(h).map((e) => [e.status, e.paths.length]), [['conflict', 1], ['conflict', 2]]);
    assert.deepEqual(conflictsOf(h.core.state, bolt.agentId).map((c) => [c.callsign, c.otherCallsign]), [['BOLT', 'ATLAS']]);
    run(between(bolt, atlas, []));
    run(between(atlas, bolt, []));
    assert.deepEqual(forecasts(h).map((e) => e.status), ['conflict', 'conflict', 'cleared']);
    assert.deepEqual(conflictsOf(h.core.state, atlas.agentId), []);
  });

  test('state survives a snapshot and a replay; an agent that leaves takes its write-set and conflicts with it', () => {
    const { h, atlas, bolt } = fleet();
    h.core.run(undefined, (ctx) => recordForecast(ctx, between(atlas, bolt, ['src/shared.ts'])));
    const restored = restoreHarness({ snapshot: toPersisted(h.core.state), tail: [] });
    assert.equal(restored.core.state.forecasts.size, 1);
    const replayed = restoreHarness({ snapshot: null, tail: h.events });
    assert.deepEqual(conflictsOf(replayed.core.state, atlas.agentId)[0]?.paths, ['src/shared.ts']);
    h.core.run(bolt.caller, (ctx) => ctx.emit({ type: 'agent.left', agentId: bolt.agentId }));
    assert.equal(h.core.state.writeSets.has(bolt.agentId), false);
    assert.deepEqual(conflictsOf(h.core.state, atlas.agentId), []);
  });
});
