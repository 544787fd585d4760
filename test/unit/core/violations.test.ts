import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { digestSchema, type FleetEvent } from '../../../contracts/index.js';
import { buildDigest } from '../../../server/core/digest.js';
import { renderDigestMarkdown } from '../../../server/core/digest-markdown.js';
import { toPersisted } from '../../../server/core/state.js';
import { MAX_UNACKNOWLEDGED_VIOLATIONS, acknowledgeViolations, recordViolation, type ObservedWrite } from '../../../server/core/violations.js';
import { OPERATOR, SCOPE, claimNow, eventsOfType, joinAgent, makeHarness, restoreHarness, type Harness } from '../../support/core-harness.js';

/** ATLAS holds src/a/** exclusively, BOLT holds nothing there, CARA shares docs/**. */
function fleet() {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const bolt = joinAgent(h, 'BOLT');
  const cara = joinAgent(h, 'CARA');
  claimNow(h, atlas.caller, { patterns: ['src/a/**'] });
  claimNow(h, cara.caller, { patterns: ['docs/**'], mode: 'shared' });
  return { h, atlas, bolt, cara };
}

const write = (writers: string[], path = 'src/a/x.ts', fingerprint = 'f1'): ObservedWrite => ({ scope: SCOPE, path, writers, source: 'watcher', fingerprint });
const record = (h: Harness, w: ObservedWrite) => h.core.run(undefined, (ctx) => recordViolation(ctx, w));
const violated = (h: Harness) => eventsOfType(h.events, 'territory.violated');

describe('territory violations in the core', () => {
  test("a write by the worktree's one agent in another agent's exclusive territory names writer, holder and claim", () => {
    const { h, atlas, bolt } = fleet();
    record(h, write([bolt.agentId]));
    const [event] = violated(h);
    assert.equal(event?.writer, 'BOLT');
    assert.equal(event?.writerAgentId, bolt.agentId);
    assert.equal(event?.holder, 'ATLAS');
    assert.equal(event?.holderAgentId, atlas.agentId);
    assert.equal(event?.fence, 1);
    assert.equal(h.core.state.violations.size, 1);
  });

  test('several possible writers: unknown; none of them: unknown; the holder among them: no violation', () => {
    const { h, atlas, bolt, cara } = fleet();
    record(h, write([bolt.agentId, cara.agentId], 'src/a/one.ts'));
    record(h, write([], 'src/a/two.ts'));
    record(h, write([atlas.agentId, bolt.agentId], 'src/a/three.ts'));
    record(h, write([atlas.agentId], 'src/a/four.ts'));
    assert.deepEqual(violated(h).map((e) => [e.path, e.writer]), [['src/a/one.ts', 'unknown'], ['src/a/two.ts', 'unknown']]);
  });

  test('a write seen before the claim was granted broke nothing; one seen when or after it was, did', () => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS');
    const bolt = joinAgent(h, 'BOLT');
    const seenAt = h.clock.now();
    h.clock.advance(40); // the watcher judges a burst ~100 ms after seeing it: a claim may come meanwhile
    claimNow(h, atlas.caller, { patterns: ['src/a/**'] });
    record(h, { ...write([bolt.agentId], 'src/a/before.ts'), seenAt });
    record(h, { ...write([bolt.agentId], 'src/a/at.ts'), seenAt: h.clock.now() });
    record(h, { ...write([bolt.agentId], 'src/a/after.ts'), seenAt: h.clock.now() + 10 });
    assert.deepEqual(violated(h).map((e) => e.path), ['src/a/at.ts', 'src/a/after.ts']);
  });

  test('unclaimed and shared paths are no violation', () => {
    const { h, bolt } = fleet();
    record(h, write([bolt.agentId], 'README.md'));
    record(h, write([bolt.agentId], 'docs/guide.md'));
    assert.deepEqual(violated(h), []);
  });

  test('the same path and content is one violation until acknowledged; new content is a new one', () => {
    const { h, bolt } = fleet();
    record(h, write([bolt.agentId]));
    record(h, write([bolt.agentId]));
    assert.equal(violated(h).length, 1);
    record(h, write([bolt.agentId], 'src/a/x.ts', 'f2'));
    assert.equal(violated(h).length, 2);
  });

  test('the operator acknowledges by id (unknown ids skipped, a repeat emits nothing) and then all', () => {
    const { h, bolt } = fleet();
    for (const f of ['f1', 'f2', 'f3']) record(h, write([bolt.agentId], 'src/a/x.ts', f));
    const [first] = [...h.core.state.violations.keys()];
    assert.deepEqual(h.core.run(OPERATOR, (ctx) => acknowledgeViolations(ctx, 'dana', [first!, 'vi-nope'])), [first]);
    assert.equal(h.core.state.violations.has(first!), false);
    const before = h.events.length;
    assert.deepEqual(h.core.run(OPERATOR, (ctx) => acknowledgeViolations(ctx, 'dana', [first!])), []);
    assert.equal(h.events.length, before, 'nothing to acknowledge, nothing recorded');
    assert.equal(h.core.run(OPERATOR, (ctx) => acknowledgeViolations(ctx, 'dana', 'all')).length, 2);
    assert.equal(h.core.state.violations.size, 0);
    record(h, write([bolt.agentId], 'src/a/x.ts', 'f1'));
    assert.equal(h.core.state.violations.size, 1, 'acknowledged content written again is seen again');
  });

  test('the unacknowledged list is bounded: the oldest go first', () => {
    const { h, bolt } = fleet();
    for (let i = 0; i <= MAX_UNACKNOWLEDGED_VIOLATIONS; i++) record(h, write([bolt.agentId], `src/a/f${i}.ts`));
    assert.equal(h.core.state.violations.size, MAX_UNACKNOWLEDGED_VIOLATIONS);
    assert.ok(![...h.core.state.violations.values()].some((v) => v.path === 'src/a/f0.ts'));
  });

  test('replaying the log, or loading the snapshot, gives the same unacknowledged violations', () => {
    const { h, bolt } = fleet();
    for (const f of ['f1', 'f2', 'f3']) record(h, write([bolt.agentId], 'src/a/x.ts', f));
    h.core.run(OPERATOR, (ctx) => acknowledgeViolations(ctx, 'dana', [[...h.core.state.violations.keys()][1]!]));
    const replayed = restoreHarness({ snapshot: null, tail: h.events });
    assert.deepEqual([...replayed.core.state.violations.values()], [...h.core.state.violations.values()]);
    const loaded = restoreHarness({ snapshot: structuredClone(toPersisted(h.core.state)), tail: [] });
    assert.deepEqual([...loaded.core.state.violations.values()], [...h.core.state.violations.values()]);
  });
});

describe('violations in the digest', () => {
  test('the window lists its violations and the digest counts the unacknowledged; the markdown has a section', () => {
    const { h, bolt } = fleet();
    const from = h.events.length;
    record(h, write([bolt.agentId]));
    record(h, write([], 'src/a/y.ts'));
    const window: FleetEvent[] = h.events.slice(from);
    const digest = digestSchema.parse(buildDigest(window, h.core.state, h.core.indexes, window[0]!.seq));
    assert.deepEqual(digest.violations.map((v) => [v.path, v.writer, v.holder]), [['src/a/x.ts', 'BOLT', 'ATLAS'], ['src/a/y.ts', 'unknown', 'ATLAS']]);
    assert.equal(digest.unacknowledgedViolations, 2);
    const markdown = renderDigestMarkdown(digest);
    assert.match(markdown, /## Territory violations\n\n- src\/a\/x\.ts: written by BOLT while ATLAS held it/);
    assert.match(markdown, /2 violations not yet acknowledged/);
  });

  test('a quiet window has no violations section', () => {
    const { h } = fleet();
    const digest = buildDigest(h.events, h.core.state, h.core.indexes, 1);
    assert.doesNotMatch(renderDigestMarkdown(digest), /violation/i);
  });
});
