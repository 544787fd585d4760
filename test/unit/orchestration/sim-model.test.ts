// The two-runtime fleet test judges the plane with an independent queue model (test/support/
// sim-replay.ts). These tests check the judge: it agrees with the core's pull at every step of a
// seeded random fleet, and it does flag an empty pull that had work beside it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FleetError } from '../../../contracts/index.js';
import { TTL_MS, claimNow, joinAgent, makeHarness, type JoinedAgent } from '../../support/core-harness.js';
import { add, complete, decide, decision, passReport, pull, report, send, verify, withPaths } from '../../support/orchestration-harness.js';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';
import { QueueModel, checkEmptyPulls } from '../../support/sim-replay.js';

test('the replay model predicts every pull of a seeded random fleet exactly (same item or both nothing)', (t) => {
  const seed = testSeed();
  t.diagnostic(`seed ${seed} (replay with FLEET_TEST_SEED=${seed})`);
  const random = new SeededRandom(seed);
  const h = makeHarness();
  const model = new QueueModel(TTL_MS);
  let applied = 0;
  const sync = () => {
    for (; applied < h.events.length; applied++) model.apply(h.events[applied]!);
  };
  const builders: JoinedAgent[] = [
    joinAgent(h, 'L1', { role: 'builder' }),
    joinAgent(h, 'L2', { role: 'worker' }),
    joinAgent(h, 'E1', { role: 'builder', tier: 'edge' }),
  ];
  const verifier = joinAgent(h, 'V', { role: 'verifier' });
  const rte = joinAgent(h, 'R', { role: 'rte' });
  const story = add(h, { title: 'story', kind: 'story' }).id;
  const ids: string[] = [];
  for (let n = 0; n < 40; n++) {
    const deps = ids.length > 0 && random.chance(0.4) ? random.sample(ids.slice(-10), random.int(1, 2)) : [];
    const paths = [`src/m${random.int(0, 4)}/${random.pick(['**', '*.ts', 'a.ts', 'b.ts'])}`];
    ids.push(
      add(h, {
        title: `t${n}`,
        dependsOn: deps,
        criteria: ['c'],
        ...(random.chance(0.7) && { parent: story }),
        ...(random.chance(0.15) && { tier: random.pick(['local', 'edge'] as const) }),
        ...(random.chance(0.1) && { role: random.pick(['worker', 'builder', 'rte'] as const) }),
        ...withPaths(paths),
      }).id,
    );
  }
  let predictions = 0;
  let nonEmpty = 0;
  for (let step = 0; step < 600; step++) {
    h.clock.advance(random.int(1, 200));
    const roll = random.next();
    try {
      if (roll < 0.35) {
        const b = random.pick(builders);
        h.core.run(b.caller, () => undefined); // the sweep and touch of the pull, before predicting
        sync();
        const predicted = model.pullableFor(b.agentId);
        const out = pull(h, b);
        assert.equal(out.item?.id, predicted, `step ${step}: ${b.callsign} pulled ${out.item?.id}, the model predicted ${predicted}`);
        predictions++;
        if (predicted) nonEmpty++;
      } else if (roll < 0.55) {
        const busy = [...h.core.state.work.values()].filter((w) => w.status === 'in_progress');
        if (busy.length > 0) {
          const w = random.pick(busy);
          complete(h, { kind: 'agent', agentId: w.assignee! }, w.id, ['c']);
        }
      } else if (roll < 0.7) {
        const item = pull(h, verifier).item;
        if (item) verify(h, verifier.caller, item.id, random.chance(0.85) ? passReport(['c']) : report({ c: 'fail' }));
      } else if (roll < 0.85) {
        const verified = [...h.core.state.work.values()].filter((w) => w.status === 'verified');
        if (verified.length > 0) decide(h, rte.caller, random.pick(verified).id, decision('accept'));
      } else if (roll < 0.93) {
        const m = send(h, random.pick(builders).caller, { to: { role: 'rte' }, type: random.pick(['REQUEST', 'BLOCKER', 'INFO'] as const), body: '?', workItem: random.pick(ids) });
        if (random.chance(0.5)) send(h, rte.caller, { to: { role: 'builder' }, type: 'RESOLUTION', body: '!', refs: [m.id] });
      } else {
        // Territory held by hand, outside the queue.
        const b = random.pick(builders);
        claimNow(h, b.caller, { patterns: [`src/m${random.int(0, 4)}/b.ts`], ttlSeconds: random.int(1, 5) });
      }
    } catch (error) {
      if (!(error instanceof FleetError)) throw error;
    }
  }
  t.diagnostic(`${predictions} pulls predicted, ${nonEmpty} of them non-empty`);
  assert.ok(predictions > 100 && nonEmpty > 10, 'the script exercised the queue');
});

test('the idle check flags an empty pull that had pullable work at every point of its bracket, and only that', () => {
  const h = makeHarness();
  const a = joinAgent(h, 'A', { role: 'builder' });
  const b = joinAgent(h, 'B', { role: 'builder' });
  const first = add(h, { title: 'first', ...withPaths(['src/x/**']) });
  const afterAdd = h.core.state.seq;
  add(h, { title: 'second', ...withPaths(['src/x/a.ts']) });
  pull(h, b); // B holds src/x/**: `second` is not pullable for A any more
  const afterPull = h.core.state.seq;
  complete(h, b.caller, first.id); // frees src/x/**: `second` is pullable for A again
  const end = h.core.state.seq;
  const pullAt = (lowSeq: number, highSeq: number) => ({ agentId: a.agentId, callsign: 'A', lowSeq, highSeq, atMs: 0 });
  const result = checkEmptyPulls(h.events, [pullAt(afterAdd, afterAdd), pullAt(afterAdd, afterPull), pullAt(afterPull, afterPull), pullAt(end, end), pullAt(0, 0)], TTL_MS);
  assert.deepEqual(
    result.violations.map((v) => [v.pull.lowSeq, v.pull.highSeq, v.pullable]),
    [
      [afterAdd, afterAdd, first.id],
      [end, end, h.core.state.work.get([...h.core.state.work.keys()][1]!)!.id],
    ],
  );
});
