import assert from 'node:assert/strict';
import { test } from 'node:test';
import { digestSchema, MAX_DIGEST_VIOLATIONS } from '../../../contracts/index.js';
import { buildDigest } from '../../../server/core/digest.js';
import { isQuietDigest, renderDigestMarkdown } from '../../../server/core/digest-markdown.js';
import { recordReach, recordWriteSet } from '../../../server/core/integration-forecast.js';
import { joinAgent, makeHarness, type Harness } from '../../support/core-harness.js';

const WHY = "not reachable from the integrator's plane (plane a): its commits are not in /a/.git, and no remote is configured to fetch them from";

/** `count` agents with a write-set each in one scope; the first `unreachable` of them judged not compared by the integrator. */
function fleetOf(count: number, unreachable: number): Harness {
  const h = makeHarness();
  for (let i = 0; i < count; i++) {
    const agent = joinAgent(h, `AGENT${i}`);
    h.core.run(undefined, (ctx) => {
      recordWriteSet(ctx, { agentId: agent.agentId, callsign: agent.callsign, worktree: `/trees/${i}`, repository: `/clone-${i}/.git`, scope: 'github.com/o/r', branch: `refs/heads/b${i}`, target: 'refs/heads/main', head: 'h1', commit: 'c1', paths: ['src/shared.ts'], truncated: false });
      if (i < unreachable) recordReach(ctx, agent.agentId, 'c1', `${WHY} (${i})`);
    });
  }
  return h;
}

const digestOf = (h: Harness, fromSeq: number) => buildDigest(h.events.filter((e) => e.seq >= fromSeq), h.core.state, h.core.indexes, fromSeq);

test('the digest lists the write-sets the integrator could not compare, with why, in JSON and Markdown', () => {
  const h = fleetOf(3, 1);
  const digest = digestSchema.parse(digestOf(h, 1));
  assert.deepEqual(digest.notCompared, [{ callsign: 'AGENT0', branch: 'refs/heads/b0', reason: `${WHY} (0)` }]);
  assert.equal(digest.notComparedCount, 1);
  const markdown = renderDigestMarkdown(digest);
  assert.match(markdown, /## Not compared with other branches/);
  assert.ok(markdown.includes(`- AGENT0 (refs/heads/b0): ${WHY} (0)`), markdown);
  assert.ok(!markdown.includes('AGENT1 (refs/heads/b1):'), 'a compared write-set is not listed');
});

test('a later window still says what is not compared (it is the state at its end), so the digest is not quiet', () => {
  const h = fleetOf(2, 1);
  const digest = digestOf(h, h.events[h.events.length - 1]!.seq + 1);
  assert.equal(digest.eventCount, 0);
  assert.equal(digest.notComparedCount, 1);
  assert.equal(isQuietDigest(digest), false);
  assert.match(renderDigestMarkdown(digest), /AGENT0 \(refs\/heads\/b0\): not reachable/);
});

test('the list is bounded; the count past it is whole and the Markdown says how many more', () => {
  const h = fleetOf(MAX_DIGEST_VIOLATIONS + 5, MAX_DIGEST_VIOLATIONS + 3);
  const digest = digestOf(h, 1);
  assert.equal(digest.notCompared.length, MAX_DIGEST_VIOLATIONS);
  assert.equal(digest.notComparedCount, MAX_DIGEST_VIOLATIONS + 3);
  assert.match(renderDigestMarkdown(digest), /… and 3 more write-sets not compared/);
});

test('once the integrator can compare it again, the write-set leaves the list', () => {
  const h = fleetOf(2, 1);
  const agentId = [...h.core.state.writeSets.values()].find((r) => r.callsign === 'AGENT0')!.agentId;
  h.core.run(undefined, (ctx) => recordReach(ctx, agentId, 'c1', undefined));
  const digest = digestOf(h, 1);
  assert.deepEqual(digest.notCompared, []);
  assert.equal(digest.notComparedCount, 0);
  assert.doesNotMatch(renderDigestMarkdown(digest), /Not compared/);
});
