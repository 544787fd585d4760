// A builder gone with work awaiting landing (server/core/write-set-awaiting-landing.ts): its write-set
// stays, with its forecasts, until the item stops waiting; every end condition ends it with a
// cleared forecast and an ended write-set; replay (and an older log) give the live state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recordForecast, recordWriteSet, writeSetView, type WriteSetInput } from '../../../server/core/integration-forecast.js';
import { markLanded } from '../../../server/core/integration-train.js';
import { join, leave, sweepAgent } from '../../../server/core/roster.js';
import { toPersisted } from '../../../server/core/state.js';
import { removeWork } from '../../../server/core/work-removal.js';
import { OPERATOR, eventsOfType, restoreHarness, TTL_MS, type Harness, type JoinedAgent } from '../../support/core-harness.js';
import { add, artifact, decide, decision, orchestrationFleet, passReport, pull, update, verify, withPaths } from '../../support/orchestration-harness.js';

const writeSet = (agent: JoinedAgent, branch: string, commit = 'c1'): WriteSetInput => ({
  agentId: agent.agentId,
  callsign: agent.callsign,
  worktree: `/trees/${agent.callsign}`,
  repository: '/repo/.git',
  branch: `refs/heads/${branch}`,
  target: 'refs/heads/main',
  head: 'h1',
  commit,
  paths: ['src/a.ts'],
  truncated: false,
});

/** ATLAS completed an item on atlas-work (its claim held) and left; BOREAS, live on boreas-work, conflicts with it. */
function goneBuilder() {
  const fleet = orchestrationFleet();
  const { h, atlas, boreas } = fleet;
  const { id } = add(h, { title: 'a', criteria: ['c1'], ...withPaths(['src/a.ts']) });
  pull(h, atlas);
  h.core.run(undefined, (ctx) => {
    recordWriteSet(ctx, writeSet(atlas, 'atlas-work'));
    recordWriteSet(ctx, writeSet(boreas, 'boreas-work'));
  });
  update(h, atlas.caller, id, { action: 'complete', artifact: artifact(['c1']), integration: { branch: 'atlas-work', commit: 'a'.repeat(40), target: 'main', repository: '/repo/.git', writeSet: ['src/a.ts'], base: 'b'.repeat(40) } });
  h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller));
  h.core.run(undefined, (ctx) =>
    recordForecast(ctx, { agentId: boreas.agentId, callsign: 'BOREAS', branch: 'refs/heads/boreas-work', otherAgentId: atlas.agentId, otherCallsign: 'ATLAS', otherBranch: 'refs/heads/atlas-work', paths: ['src/a.ts'], truncated: false }),
  );
  return { ...fleet, id };
}

/** Asserts ATLAS's write-set ended as endWriteSet says it: its forecast cleared, then the write-set ended, and both gone from the state. */
function assertEnded(h: Harness, atlas: JoinedAgent, from: number): void {
  const said = h.events.slice(from).filter((e) => e.type === 'integration.forecast' || e.type === 'integration.write_set');
  assert.deepEqual(
    said.map((e) => [e.type, e.type === 'integration.forecast' ? e.status : e.type === 'integration.write_set' && e.ended]),
    [
      ['integration.forecast', 'cleared'],
      ['integration.write_set', true],
    ],
  );
  assert.equal(h.core.state.writeSets.has(atlas.agentId), false);
  assert.equal(h.core.state.forecasts.size, 0);
}

describe("a gone builder's write-set while its item awaits landing (DESIGN §14)", () => {
  test('it stays with its forecasts, marked with the item, and the log replays to the same state (an older log, to the state it gave)', () => {
    const { h, atlas, id } = goneBuilder();
    assert.deepEqual(eventsOfType(h.events, 'agent.left').at(-1)?.awaitingLanding, [id], 'the gone event says what it waits for');
    assert.deepEqual(writeSetView(h.core.state.writeSets.get(atlas.agentId)!).awaitingLanding, { agent: 'left', items: [id] });
    assert.equal(h.core.state.forecasts.size, 1, 'the conflict with the live branch is recorded against it');
    const replayed = restoreHarness({ snapshot: null, tail: h.events });
    assert.deepEqual(toPersisted(replayed.core.state).writeSets, toPersisted(h.core.state).writeSets);
    assert.deepEqual(toPersisted(replayed.core.state).forecasts, toPersisted(h.core.state).forecasts);
    const restored = restoreHarness({ snapshot: toPersisted(h.core.state), tail: [] });
    assert.deepEqual(restored.core.state.writeSets.get(atlas.agentId)?.awaitingLanding, { agent: 'left', items: [id] });
    // An older log (its gone event lists nothing) forgets the write-set as it did.
    const older = h.events.map((e) => (e.type === 'agent.left' ? { ...e, awaitingLanding: undefined } : e));
    const fromOlder = restoreHarness({ snapshot: null, tail: older.filter((e) => e.type !== 'integration.forecast') });
    assert.equal(fromOlder.core.state.writeSets.has(atlas.agentId), false);
  });

  test('it ends when the item is marked landed (fleet land --done)', () => {
    const { h, atlas, id } = goneBuilder();
    const from = h.events.length;
    h.core.run(OPERATOR, (ctx) => markLanded(ctx, OPERATOR, id, undefined));
    assertEnded(h, atlas, from);
    const replayed = restoreHarness({ snapshot: null, tail: h.events });
    assert.equal(replayed.core.state.writeSets.has(atlas.agentId), false);
  });

  test('it ends when the item goes back to a builder (rework, pulled by another)', () => {
    const { h, atlas, boreas, vera, rte, id } = goneBuilder();
    pull(h, vera);
    verify(h, vera.caller, id, passReport(['c1']));
    decide(h, rte.caller, id, decision('rework'));
    assert.ok(h.core.state.writeSets.has(atlas.agentId), 'a rework decision alone does not end it: the claims stay held until a builder takes the item');
    const from = h.events.length;
    assert.equal(pull(h, boreas).item?.id, id);
    assertEnded(h, atlas, from);
  });

  test('it ends when the item is rolled back, or removed', () => {
    for (const end of ['rollback', 'remove'] as const) {
      const { h, atlas, vera, rte, id } = goneBuilder();
      pull(h, vera);
      verify(h, vera.caller, id, passReport(['c1']));
      if (end === 'remove') decide(h, rte.caller, id, decision('accept'));
      const from = h.events.length;
      if (end === 'rollback') decide(h, rte.caller, id, { ...decision('rollback'), rollbackRef: 'b'.repeat(40) });
      else h.core.run(OPERATOR, (ctx) => removeWork(ctx, OPERATOR, [id]));
      assertEnded(h, atlas, from);
    }
  });

  test('an agent that expires keeps it too; back on the roster its write-set is live again, and one of another branch replaces it', () => {
    const { h, atlas, id } = goneBuilder();
    // Rejoined with its token: live again, no longer marked; a new branch's write-set replaces it, and the item landing later ends nothing of it.
    h.core.run(undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'claude-code', role: 'builder', sessionToken: atlas.sessionToken }));
    assert.equal(h.core.state.writeSets.get(atlas.agentId)?.awaitingLanding, undefined);
    h.core.run(undefined, (ctx) => recordWriteSet(ctx, writeSet(atlas, 'atlas-next', 'c2')));
    h.core.run(OPERATOR, (ctx) => markLanded(ctx, OPERATOR, id, undefined));
    assert.equal(h.core.state.writeSets.get(atlas.agentId)?.branch, 'refs/heads/atlas-next');

    // It goes silent past two TTLs: expired, its work (still held for a second item) keeps the write-set.
    const { id: second } = add(h, { title: 'a again', criteria: ['c1'], ...withPaths(['src/a.ts']) });
    assert.equal(pull(h, atlas).item?.id, second);
    update(h, atlas.caller, second, { action: 'complete', artifact: artifact(['c1']), integration: { branch: 'atlas-next', commit: 'c'.repeat(40), target: 'main', repository: '/repo/.git', writeSet: ['src/a.ts'], base: 'b'.repeat(40) } });
    h.clock.advance(3 * TTL_MS);
    h.core.run(undefined, (ctx) => sweepAgent(ctx, atlas.agentId));
    assert.deepEqual(eventsOfType(h.events, 'agent.expired').find((e) => e.agentId === atlas.agentId)?.awaitingLanding, [second]);
    assert.deepEqual(h.core.state.writeSets.get(atlas.agentId)?.awaitingLanding, { agent: 'expired', items: [second] });
  });
});
