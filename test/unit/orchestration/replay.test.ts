import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FleetError } from '../../../contracts/index.js';
import { toPersisted } from '../../../server/core/state.js';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';
import { joinAgent, makeHarness, restoreHarness, type JoinedAgent } from '../../support/core-harness.js';
import { add, complete, decide, decision, handoff, passReport, pull, report, respond, send, verify, withPaths } from '../../support/orchestration-harness.js';

test('handoffs, messages and work items persist like the rest: replaying the log rebuilds exactly the live records', (t) => {
  const seed = testSeed();
  t.diagnostic(`seed ${seed} (replay with FLEET_TEST_SEED=${seed})`);
  const random = new SeededRandom(seed);
  const h = makeHarness();
  const builders = ['A1', 'A2', 'A3'].map((c) => joinAgent(h, c, { role: 'builder' }));
  const verifier = joinAgent(h, 'VER', { role: 'verifier' });
  const rte = joinAgent(h, 'RTE', { role: 'rte' });
  const ids: string[] = [];
  for (let n = 0; n < 30; n++) {
    const deps = ids.length > 0 && random.chance(0.3) ? [random.pick(ids)] : [];
    ids.push(add(h, { title: `t${n}`, criteria: ['c'], dependsOn: deps, ...withPaths([`src/m${random.int(0, 5)}/**`]) }).id);
  }
  let refusals = 0;
  const pick = (): JoinedAgent => random.pick(builders);
  for (let step = 0; step < 300; step++) {
    h.clock.advance(random.int(1, 500));
    const roll = random.next();
    try {
      if (roll < 0.3) {
        const b = pick();
        const item = pull(h, b).item;
        if (item && random.chance(0.2)) {
          const to = random.pick(builders.filter((x) => x !== b));
          const claims = [...h.core.state.claims.values()].filter((c) => c.agentId === b.agentId).map((c) => c.id);
          const ho = handoff(h, b, { to: { callsign: to.callsign }, claims, workItem: item.id });
          respond(h, to, ho.id, random.chance(0.7));
        }
      } else if (roll < 0.5) {
        const mine = [...h.core.state.work.values()].filter((w) => w.status === 'in_progress');
        if (mine.length > 0) {
          const w = random.pick(mine);
          complete(h, { kind: 'agent', agentId: w.assignee! }, w.id, ['c']);
        }
      } else if (roll < 0.7) {
        const item = pull(h, verifier).item;
        if (item) verify(h, verifier.caller, item.id, random.chance(0.8) ? passReport(['c']) : report({ c: 'fail' }));
      } else if (roll < 0.85) {
        const verified = [...h.core.state.work.values()].filter((w) => w.status === 'verified');
        if (verified.length > 0) decide(h, rte.caller, random.pick(verified).id, decision('accept'));
      } else {
        const m = send(h, pick().caller, { to: { role: 'rte' }, type: random.pick(['REQUEST', 'INFO', 'BLOCKER'] as const), body: 'x', workItem: random.pick(ids) });
        if (random.chance(0.6)) send(h, rte.caller, { to: { role: 'builder' }, type: 'RESOLUTION', body: 'y', refs: [m.id] });
      }
    } catch (error) {
      // Refusals (a blocked accept, a handoff that cannot move) are part of the script; faults are not.
      if (!(error instanceof FleetError)) assert.fail(`step ${step}: ${(error as Error).stack}`);
      refusals++;
    }
  }
  const live = toPersisted(h.core.state);
  const replayed = toPersisted(restoreHarness({ snapshot: null, tail: h.events }).core.state);
  for (const key of ['work', 'messages', 'handoffs', 'claims', 'claimFences'] as const) assert.deepEqual(replayed[key], live[key], key);
  assert.ok(live.work.some((w) => w.status === 'done'), 'the script got some work done');
  t.diagnostic(`${h.events.length} events, ${refusals} refusals`);
});
