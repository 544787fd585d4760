// The language server's mirror, kept by applying events, against the plane's own core: after a
// seeded random fleet, the roster, the live claims and the switch the mirror holds equal what the
// core's views say — whether the mirror started empty or loaded a status half way through.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_AGENT_TTL_SECONDS, type StoreHealth } from '../../../contracts/index.js';
import { workView } from '../../../server/core/orchestration-views.js';
import { agentView, claimView, controlView, iso } from '../../../server/core/views.js';
import { FleetMirror, type PlaneStatus } from '../../../server/language-server/fleet-mirror.js';
import { MirrorChanges } from '../../../server/language-server/mirror-changes.js';
import { makeHarness, type Harness } from '../../support/core-harness.js';
import { driveRandomFleet } from '../core/random-fleet.js';

function statusOf(h: Harness): PlaneStatus {
  const { state, indexes } = h.core;
  const now = h.clock.now();
  return {
    control: { state: state.control.state },
    plane: { version: 'test', pid: 1, port: 0, startedAt: iso(0), seq: state.seq, agentTtlSeconds: h.config.agentTtlMs / 1000 },
    controlDetail: controlView(state.control),
    agents: [...state.agents.values()].filter((agent) => !agent.gone).map((agent) => agentView(agent, indexes, now, h.config)),
    claims: [...state.claims.values()].map((claim) => claimView(claim, state, h.config)),
  } as PlaneStatus;
}

/** What the views show, without the times a heartbeat moves (lastSeenAt, an agent-bound claim's expiry). */
function shown(status: Pick<PlaneStatus, 'agents' | 'claims' | 'controlDetail'>) {
  return {
    control: status.controlDetail,
    agents: status.agents.map(({ agentId, callsign, claimCount, task, status, runtime, role }) => ({ agentId, callsign, claimCount, task, status, runtime, role })).sort((a, b) => a.agentId.localeCompare(b.agentId)),
    claims: status.claims.map(({ expiresAt, ...claim }) => ({ ...claim, ...(claim.ttlSeconds !== undefined && { expiresAt }) })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

function mirrorShown(mirror: FleetMirror) {
  return shown({ agents: mirror.roster, claims: [...mirror.liveClaims], controlDetail: mirror.control! });
}

for (const seed of [1, 7, 42, 2024]) {
  test(`seed ${seed}: the mirror applying events equals the core's views`, () => {
    const h = makeHarness({ agentTtlMs: DEFAULT_AGENT_TTL_SECONDS * 1000 });
    const fromStart = new FleetMirror();
    fromStart.load(statusOf(h), []);
    let halfway: FleetMirror | undefined;
    driveRandomFleet(h, seed, 400, {
      transfers: true,
      afterStep: (step) => {
        if (step !== 200) return;
        halfway = new FleetMirror();
        halfway.load(statusOf(h), [...h.core.state.work.values()].map((item) => workView(item, h.core.state)));
      },
    });
    const changes = new MirrorChanges();
    for (const event of h.events) fromStart.apply(event, changes);
    assert.equal(changes.reload, false, 'a mirror that saw every event never needs the whole state again');
    // An agent that left before the half-way load and re-joins: the language server loads the whole state again.
    for (const event of h.events) {
      const seen = new MirrorChanges();
      halfway!.apply(event, seen);
      if (seen.reload) halfway!.load(statusOf(h), []);
    }
    const expected = shown(statusOf(h));
    assert.ok(expected.claims.length + expected.agents.length > 0, `seed ${seed}: the fleet has something to show`);
    assert.deepEqual(mirrorShown(fromStart), expected, `seed ${seed}: mirror from the start`);
    assert.deepEqual(mirrorShown(halfway!), expected, `seed ${seed}: mirror loaded half way`);
    assert.ok(changes.claims.size + changes.releasedClaims.size > 0, 'the changes name the claims');
  });
}

/** A mirror that followed a small random fleet, and its first agent. */
function mirrorOfRandomFleet() {
  const h = makeHarness();
  const mirror = new FleetMirror();
  mirror.load(statusOf(h), []);
  driveRandomFleet(h, 3, 30);
  for (const event of h.events) mirror.apply(event, new MirrorChanges());
  const agent = mirror.roster[0];
  assert.ok(agent, 'an agent joined');
  return { mirror, agent };
}

test('a heartbeat alone is not urgent; a claim is, and names only itself', () => {
  const { mirror, agent } = mirrorOfRandomFleet();
  const seq = mirror.seq;
  const beat = new MirrorChanges();
  mirror.apply({ seq: seq + 1, at: Date.parse(agent.lastSeenAt) + 1000, type: 'agent.heartbeat', agentId: agent.agentId }, beat);
  assert.equal(beat.urgent, false);
  assert.deepEqual([...beat.agents], [agent.agentId]);
  const grant = new MirrorChanges();
  mirror.apply({ seq: seq + 2, at: Date.parse(agent.lastSeenAt) + 2000, type: 'claim.granted', claimId: 'new-claim', agentId: agent.agentId, scope: '/s', pattern: 'x/**', mode: 'shared', fence: 99 }, grant);
  assert.equal(grant.urgent, true);
  assert.deepEqual([...grant.claims], ['new-claim']);
  assert.equal(mirror.agent(agent.agentId)?.claimCount, agent.claimCount + 1);
  assert.equal(mirror.heldInside('/s', 'x'), 1);
  assert.equal(mirror.apply({ seq, at: 0, type: 'agent.left', agentId: agent.agentId }, new MirrorChanges()), false, 'an event already in is skipped');
});

test('a claim held for a completed item until it lands: the editor shows it as the plane does (expiresWith landing, heldFor)', () => {
  const { mirror, agent } = mirrorOfRandomFleet();
  mirror.apply({ seq: mirror.seq + 1, at: Date.parse(agent.lastSeenAt) + 1000, type: 'claim.granted', claimId: 'held', agentId: agent.agentId, scope: '/s', pattern: 'src/a.ts', mode: 'exclusive', fence: 99, heldFor: 'wk-1' }, new MirrorChanges());
  const held = [...mirror.liveClaims].find((c) => c.id === 'held');
  assert.deepEqual([held?.heldFor, held?.expiresWith, held?.expiresAt], ['wk-1', 'landing', null]);
});

test('work events move items between statuses, naming agents by callsign', () => {
  const h = makeHarness();
  const mirror = new FleetMirror();
  mirror.load(statusOf(h), []);
  const at = Date.UTC(2025, 0, 1, 9);
  const events = [
    { seq: 1, at, type: 'agent.joined', agentId: 'ag-1', callsign: 'BOREAS', runtime: 'script', role: 'worker', tier: 'local', tokenHash: 'x' },
    { seq: 2, at, type: 'work.added', itemId: 'w-1', title: 'Split the parser', kind: 'task', dependsOn: [], paths: ['src/**'], criteria: [] },
    { seq: 3, at: at + 1000, type: 'work.transitioned', itemId: 'w-1', status: 'in_progress', assignee: 'ag-1' },
    { seq: 4, at: at + 2000, type: 'work.blockers', itemId: 'w-1', blockedBy: ['w-0'] },
  ] as const;
  const changes = new MirrorChanges();
  for (const event of events) mirror.apply(structuredClone(event) as never, changes);
  const item = mirror.workItem('w-1');
  assert.equal(item?.status, 'in_progress');
  assert.equal(item?.assignee, 'BOREAS');
  assert.deepEqual(item?.blockedBy, ['w-0']);
  assert.equal(item?.updatedAt, new Date(at + 1000).toISOString());
  assert.deepEqual([...changes.work], ['w-1']);
  mirror.apply({ seq: 5, at, type: 'work.added', itemId: 'w-1', title: 'again', kind: 'task', dependsOn: [], paths: [], criteria: [] }, new MirrorChanges());
  assert.equal(mirror.workItem('w-1')?.status, 'in_progress', 'a work.added already in the loaded list changes nothing');
});

test("a pull's guidance and a removal change only the items they name: never the whole state again", () => {
  const h = makeHarness();
  const mirror = new FleetMirror();
  mirror.load(statusOf(h), []);
  const at = Date.UTC(2025, 0, 1, 9);
  for (const [seq, itemId] of [[1, 'w-1'], [2, 'w-2']] as const) {
    mirror.apply({ seq, at, type: 'work.added', itemId, title: itemId, kind: 'task', dependsOn: [], paths: [], criteria: [] }, new MirrorChanges());
  }
  const changes = new MirrorChanges();
  // What fleet_work_pull records besides the transition: the rules' version for the worktree, the packet given.
  mirror.apply({ seq: 3, at, type: 'work.guidance', by: 'BOREAS', worktree: '/repo', version: 1, policyHash: 'sha256:x' }, changes);
  mirror.apply({ seq: 4, at, type: 'work.guided', by: 'plane', packet: {} } as never, changes);
  assert.equal(changes.reload, false, "a pull's guidance is no reason to load 20,000 items again");
  assert.equal(changes.empty, true, 'and nothing the views show changed');
  mirror.apply({ seq: 5, at, type: 'work.removed', itemIds: ['w-1', 'w-9'] }, changes);
  assert.equal(changes.reload, false, 'a removal names its items');
  assert.deepEqual([...changes.removedWork], ['w-1'], 'only an item the mirror held is reported removed');
  assert.equal(mirror.workItem('w-1'), undefined);
  assert.deepEqual(mirror.work.map((item) => item.id), ['w-2']);
});

test("the store's health: news only when what it says changes, not as its staleness ticks", () => {
  const mirror = new FleetMirror();
  const h = makeHarness();
  const nats: StoreHealth = { kind: 'nats', health: 'ok', fleet: 'f', stream: 'FLEET_f', servers: ['nats://a:4222'] };
  mirror.load({ ...statusOf(h), plane: { ...statusOf(h).plane, store: nats } }, []);
  assert.equal(mirror.setStore(nats), false, 'the same health');
  const cut: StoreHealth = { ...nats, health: 'unavailable', staleSeconds: 0.4, problems: ['no quorum answers'] };
  assert.equal(mirror.setStore(cut), true);
  assert.equal(mirror.setStore({ ...cut, staleSeconds: 9 }), false, 'only older');
  assert.equal(mirror.setStore({ ...cut, problems: ['no quorum answers', 'a clock skew'] }), true, 'a problem more');
  assert.equal(mirror.setStore(nats), true, 'back');
  assert.equal(mirror.plane?.store?.health, 'ok');
});
