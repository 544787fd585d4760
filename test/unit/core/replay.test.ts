import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fleetEventSchema, type FleetEvent } from '../../../contracts/index.js';
import { lease } from '../../../server/core/leases.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { agentStatus } from '../../../server/core/liveness.js';
import { stateSchema, toPersisted, type PersistedState, type State } from '../../../server/core/state.js';
import {
  FakeClock,
  SCOPE,
  TTL_MS,
  claimNow,
  joinAgent,
  makeHarness,
  restoreHarness,
  type Harness,
} from '../../support/core-harness.js';
import { PATHS, SCOPES, driveRandomFleet } from './random-fleet.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 0x5eed, Number(process.env.FLEET_TEST_SEED ?? Date.now() % 100_000)];
const STEPS = 400;

/** What the store would hand back: JSON, so undefined fields vanish exactly as on disk. */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The persisted state, minus what is deliberately not logged: lastSeen moved by calls (touches). */
function comparable(state: PersistedState): PersistedState {
  const copy = viaJson(state);
  for (const agent of copy.agents) agent.lastSeen = 0;
  return copy;
}

/** The live State read directly (not through toPersisted), so a field toPersisted drops shows up. */
function raw(state: State): unknown {
  const entries = <V>(map: Map<string, V>) => [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
  const agents = entries(state.agents).map(([id, agent]) => [id, { ...agent, lastSeen: 0 }]);
  return viaJson({
    seq: state.seq,
    control: state.control,
    agents,
    claims: entries(state.claims),
    leases: entries(state.leases),
    memos: entries(state.memos),
    claimFences: entries(state.claimFences),
    leaseFences: entries(state.leaseFences),
    requests: entries(state.requests),
  });
}

function assertSameState(live: Harness, restored: Harness, seed: number, label: string): void {
  const a = toPersisted(live.core.state);
  const b = toPersisted(restored.core.state);
  assert.deepEqual(comparable(b), comparable(a), `${label} differs (seed ${seed})`);
  assert.deepEqual(raw(restored.core.state), raw(live.core.state), `${label}: in-memory state differs (seed ${seed})`);
  for (const agent of b.agents) {
    const liveAgent = live.core.state.agents.get(agent.agentId)!;
    assert.ok(agent.lastSeen <= liveAgent.lastSeen, `${label}: replayed lastSeen is ahead of the live one (seed ${seed})`);
  }
  assert.deepEqual([...restored.core.indexes.liveCallsigns].sort(), [...live.core.indexes.liveCallsigns].sort(), `${label}: live callsigns (seed ${seed})`);
  const owned = (h: Harness) => [...h.core.indexes.claimsByAgent].map(([agent, ids]) => [agent, [...ids].sort()]).sort();
  assert.deepEqual(owned(restored), owned(live), `${label}: claims by agent (seed ${seed})`);
  for (const scope of SCOPES) {
    for (const path of PATHS) {
      const covering = (h: Harness) => [...h.core.indexes.territory.covering(scope, path)].map((c) => c.id).sort();
      assert.deepEqual(covering(restored), covering(live), `${label}: territory covering ${path} (seed ${seed})`);
    }
  }
}

for (const seed of SEEDS) {
  test(`replaying the recorded events (or a snapshot plus the tail) rebuilds the same state (seed ${seed})`, () => {
    const h = makeHarness();
    const snapshots: { state: PersistedState; events: number }[] = [];
    driveRandomFleet(h, seed, STEPS, {
      transfers: true,
      afterStep: (step) => {
        if (step % 97 === 50) snapshots.push({ state: viaJson(toPersisted(h.core.state)), events: h.events.length });
      },
    });
    h.core.sweep();
    assert.ok(h.events.length > 100, `the random run should do something (seed ${seed}): ${h.events.length} events`);
    for (const event of h.events) fleetEventSchema.parse(event);
    const log = viaJson(h.events);

    const fromLog = restoreHarness({ snapshot: null, tail: log }, {}, new FakeClock(h.clock.now()));
    assertSameState(h, fromLog, seed, 'replay of the whole log');

    for (const snapshot of snapshots) {
      const persisted = stateSchema.parse(snapshot.state);
      assert.equal(persisted.seq, snapshot.events, 'a snapshot’s seq is the number of events it contains');
      const restored = restoreHarness({ snapshot: persisted, tail: log.slice(snapshot.events) }, {}, new FakeClock(h.clock.now()));
      assertSameState(h, restored, seed, `snapshot at seq ${snapshot.events} + tail`);
    }
  });
}

function checkInvariantsThroughout(seed: number, transfers: boolean): void {
  const h = makeHarness();
  const lastFence = new Map<string, number>();
  let checked = 0;
  driveRandomFleet(h, seed, STEPS, {
    transfers,
    afterStep: () => {
      for (const event of h.events.slice(checked)) {
        if (event.type === 'claim.granted') {
          assert.ok(event.fence > (lastFence.get(`claim ${event.scope}`) ?? 0), `fence went backwards in ${event.scope} (seed ${seed})`);
          lastFence.set(`claim ${event.scope}`, event.fence);
        }
        if (event.type === 'lease.acquired') {
          assert.ok(event.fence > (lastFence.get(`lease ${event.name}`) ?? 0), `lease fence went backwards for ${event.name} (seed ${seed})`);
          lastFence.set(`lease ${event.name}`, event.fence);
        }
      }
      checked = h.events.length;
      for (const scope of SCOPES) {
        for (const path of PATHS) {
          const covering = [...h.core.indexes.territory.covering(scope, path)];
          const agents = new Set(covering.map((c) => c.agentId));
          if (agents.size > 1) {
            assert.ok(covering.every((c) => c.mode === 'shared'), `double grant on ${path} in ${scope} (seed ${seed}): ${JSON.stringify(covering)}`);
          }
        }
      }
      for (const claim of h.core.state.claims.values()) {
        assert.ok(!h.core.state.agents.get(claim.agentId)?.gone, `claim ${claim.id} outlived its agent (seed ${seed})`);
      }
      for (const held of h.core.state.leases.values()) {
        assert.ok(!h.core.state.agents.get(held.agentId)?.gone, `lease ${held.name} outlived its holder (seed ${seed})`);
      }
    },
  });
}

for (const seed of SEEDS.slice(0, 5)) {
  test(`random commands never leave overlapping claims of two agents unless both are shared, fences only grow, nothing outlives its agent (seed ${seed})`, () =>
    checkInvariantsThroughout(seed, false),
  );
}

test(
  'the same invariants hold when the random mix includes transfers (seed 1)',
  () => checkInvariantsThroughout(1, true),
);

function plantedFleet() {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { role: 'rte' });
  const boreas = joinAgent(h, 'BOREAS');
  const agentBound = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  const withTtl = claimNow(h, boreas.caller, { patterns: ['docs/**'], ttlSeconds: 30 }).claims[0]!;
  h.core.run(atlas.caller, (ctx) => lease(ctx, atlas.caller, { action: 'acquire', ttlSeconds: 30 }));
  return { h, atlas, boreas, agentBound, withTtl };
}

const planeStarted = (seq: number, at: number): FleetEvent => ({ seq, at, type: 'plane.started', by: 'plane', pid: 1, version: 'test' });

test('a plane.started event in the log gives live agents, TTL claims and leases at least one agent TTL', () => {
  const { h, atlas, boreas, agentBound, withTtl } = plantedFleet();
  const restartAt = h.clock.now() + 10 * TTL_MS;
  const tail = [...viaJson(h.events), planeStarted(h.events.length + 1, restartAt)];
  const r = restoreHarness({ snapshot: null, tail }, {}, new FakeClock(restartAt));
  for (const agentId of [atlas.agentId, boreas.agentId]) {
    assert.equal(agentStatus(r.core.state.agents.get(agentId)!, restartAt, r.config), 'active');
  }
  assert.ok(r.core.state.claims.get(withTtl.id)!.expiresAt! >= restartAt + TTL_MS);
  assert.ok(r.core.state.leases.get('coordination/rte-lock')!.expiresAt >= restartAt + TTL_MS);
  r.clock.advance(TTL_MS - 1);
  r.core.sweep();
  assert.deepEqual(r.events, [], 'nothing lapses within one TTL of the restart');
  assert.ok(r.core.state.claims.has(agentBound.id));
  assert.ok(r.core.state.claims.has(withTtl.id));
  assert.equal(r.core.state.leases.size, 1);
  r.clock.advance(2 * TTL_MS);
  r.core.sweep();
  assert.equal(r.core.state.claims.size, 0, 'after the grace the usual deadlines apply again');
  assert.equal(r.core.state.leases.size, 0);
});

test(
  'restarting after a long outage: announceStart gives everything one TTL before anything lapses',
  () => {
    const { h, atlas, agentBound, withTtl } = plantedFleet();
    const restartAt = h.clock.now() + 10 * TTL_MS;
    const r = restoreHarness({ snapshot: null, tail: viaJson(h.events) }, {}, new FakeClock(restartAt));
    r.core.announceStart(1, 'test');
    assert.deepEqual(r.events.map((e) => e.type), ['plane.started'], 'nothing may lapse before the plane has started');
    assert.equal(r.core.state.agents.get(atlas.agentId)!.gone, undefined);
    assert.ok(r.core.state.claims.has(agentBound.id));
    assert.ok(r.core.state.claims.has(withTtl.id));
    assert.equal(r.core.state.leases.size, 1);
  },
);

test(
  'a quick restart keeps an agent that stayed alive through calls alone (claims and checks, no explicit heartbeat)',
  () => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS');
    const c = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
    for (let i = 0; i < 10; i++) {
      h.clock.advance(60_000);
      h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts']));
    }
    const restartAt = h.clock.now() + 1_000;
    const r = restoreHarness({ snapshot: null, tail: viaJson(h.events) }, {}, new FakeClock(restartAt));
    r.core.announceStart(1, 'test');
    assert.equal(r.core.state.agents.get(atlas.agentId)!.gone, undefined, `the agent was expired by the restart: ${JSON.stringify(r.events.map((e) => e.type))}`);
    assert.ok(r.core.state.claims.has(c.id));
  },
);

test('a request id retried after a restart from a snapshot returns the same grant', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const first = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-9' });
  const r = restoreHarness({ snapshot: viaJson(toPersisted(h.core.state)), tail: [] }, {}, new FakeClock(h.clock.now()));
  const retry = claimNow(r, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-9' });
  assert.deepEqual(retry.claims, first.claims);
  assert.deepEqual(r.events, []);
});

test('the restored core keeps deciding: deadlines of restored claims and agents are scheduled again', () => {
  const { h, atlas, withTtl } = plantedFleet();
  const r = restoreHarness({ snapshot: viaJson(toPersisted(h.core.state)), tail: [] }, {}, new FakeClock(h.clock.now()));
  r.clock.advance(30_000);
  r.core.sweep();
  assert.equal(r.core.state.claims.has(withTtl.id), false, 'the TTL claim lapses on its own deadline');
  assert.equal(r.core.state.leases.size, 0);
  r.clock.advance(2 * TTL_MS);
  r.core.sweep();
  assert.equal(r.core.state.agents.get(atlas.agentId)!.gone, 'expired');
  assert.equal(r.events.at(-1)!.seq, r.core.state.seq, 'sequence numbers continue from the restored state');
  assert.ok(r.events[0]!.seq === h.events.length + 1);
});
