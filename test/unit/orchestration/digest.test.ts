import assert from 'node:assert/strict';
import { test } from 'node:test';
import { digestSchema, type FleetEvent } from '../../../contracts/index.js';
import { configureBuild, recordBuildFinished, recordBuildStarted, requestBuild } from '../../../server/core/build-gate.js';
import { buildDigest } from '../../../server/core/digest.js';
import { renderDigestMarkdown } from '../../../server/core/digest-markdown.js';
import { heartbeat } from '../../../server/core/roster.js';
import { OPERATOR, SCOPE, TTL_MS, claimNow, joinAgent, makeHarness, restoreHarness, type Harness, type JoinedAgent } from '../../support/core-harness.js';
import { add, complete, control, decide, decision, handoff, passReport, pull, respond, send, verify, withPaths } from '../../support/orchestration-harness.js';

/**
 * A scripted day of a small fleet, touching every section of the digest. Deterministic: a fake
 * clock and counter ids, so two runs produce the same log.
 */
function scriptedDay() {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { role: 'builder' });
  const boreas = joinAgent(h, 'BOREAS', { role: 'builder', runtime: 'codex' });
  const vera = joinAgent(h, 'VERA', { role: 'verifier' });
  const rte = joinAgent(h, 'RTE1', { role: 'rte' });
  const sleepy = joinAgent(h, 'SLEEPY', { role: 'builder' });
  const live = [atlas, boreas, vera, rte];
  const tick = (ms: number, who: JoinedAgent[] = live) => {
    h.clock.advance(ms);
    for (const a of who) h.core.run(a.caller, () => undefined);
  };
  const t1 = add(h, { title: 'parser', criteria: ['parses'], ...withPaths(['src/parser/**']) }).id;
  const t2 = add(h, { title: 'lexer', ...withPaths(['src/lexer/**']) }).id;
  const t3 = add(h, { title: 'auth' }).id;
  claimNow(h, sleepy.caller, { patterns: ['docs/**'], reason: 'docs pass' });
  tick(1000);
  pull(h, atlas);
  complete(h, atlas.caller, t1, ['parses']);
  pull(h, vera);
  verify(h, vera.caller, t1, passReport(['parses']));
  decide(h, rte.caller, t1, decision('accept', 'criteria-met'));
  tick(1000);
  const lexer = pull(h, boreas);
  const ho = handoff(h, boreas, { to: { callsign: 'ATLAS' }, claims: lexer.claims.map((c) => c.id), workItem: t2, summary: 'context full' });
  respond(h, atlas, ho.id, true);
  const ho2 = handoff(h, boreas, { to: { role: 'verifier' }, summary: 'please look at the fuzz corpus' });
  respond(h, vera, ho2.id, false, 'not mine');
  send(h, boreas.caller, { to: { callsign: 'RTE1' }, type: 'BLOCKER', subject: 'staging down', body: 'staging DB is down' });
  const q = send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'REQUEST', body: 'OAuth or keys?', workItem: t3 });
  h.core.run(boreas.caller, (ctx) => heartbeat(ctx, boreas.caller, { status: 'blocked', note: 'waiting on staging' }));
  h.core.run(OPERATOR, (ctx) => configureBuild(ctx, OPERATOR, { scope: SCOPE, command: 'npm test', worktree: '/repo' }));
  const run = h.core.run(atlas.caller, (ctx) => requestBuild(ctx, atlas.caller, SCOPE));
  h.core.run(undefined, (ctx) => recordBuildStarted(ctx, run.id, 'abc123def4567890'));
  h.core.run(undefined, (ctx) => recordBuildFinished(ctx, run.id, { exitCode: 3, durationMs: 1234, commit: 'abc123def4567890', log: 'FAIL parser.test', timedOut: false }));
  // SLEEPY went silent: unknown after one TTL, expired (claims released as expired) after two.
  for (let i = 0; i < 4; i++) tick(TTL_MS / 2);
  // DOZY joins late and falls silent for more than one TTL but less than two: stale, not expired.
  const dozy = joinAgent(h, 'DOZY', { role: 'builder' });
  for (let i = 0; i < 3; i++) tick(TTL_MS / 2);
  control(h, 'drain', rte.caller, 'release day');
  return { h, atlas, boreas, vera, rte, sleepy, dozy, t1, t2, t3, q, ho, ho2 };
}

const digestOf = (h: Harness, events: readonly FleetEvent[], fromSeq = 1) =>
  buildDigest(
    events.filter((e) => e.seq >= fromSeq),
    h.core.state,
    h.core.indexes,
    fromSeq,
  );

test('same log → same digest: replaying one event log twice gives identical JSON and Markdown', () => {
  const { h } = scriptedDay();
  const log = structuredClone(h.events);
  const first = restoreHarness({ snapshot: null, tail: log });
  const second = restoreHarness({ snapshot: null, tail: log });
  const a = digestOf(first, log);
  const b = digestOf(second, log);
  assert.deepEqual(a, b);
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.equal(renderDigestMarkdown(a), renderDigestMarkdown(b));
  digestSchema.parse(a);
  // Built twice from the same events and state, nothing changes either (no hidden clock, no randomness).
  assert.deepEqual(digestOf(first, log), a);
  // And two independent runs of the same script log the same events, hence the same digest.
  const again = scriptedDay();
  assert.deepEqual(again.h.events, h.events);
  assert.deepEqual(digestOf(again.h, again.h.events), digestOf(h, h.events));
});

test(
  "the plane's live digest equals the digest rebuilt from its log",
  () => {
    const { h } = scriptedDay();
    const replayed = restoreHarness({ snapshot: null, tail: structuredClone(h.events) });
    assert.deepEqual(digestOf(h, h.events), digestOf(replayed, h.events));
  },
);

test('digest contents: claims acquired and released with the reason for each, including expired', () => {
  const { h, t1, t2 } = scriptedDay();
  const digest = digestOf(h, h.events);
  assert.deepEqual(digest.claims.acquired, [
    { holder: 'SLEEPY', pattern: 'docs/**', reason: 'docs pass' },
    { holder: 'ATLAS', pattern: 'src/parser/**', reason: `work ${t1}: parser` },
    { holder: 'BOREAS', pattern: 'src/lexer/**', reason: `work ${t2}: lexer` },
    { holder: 'ATLAS', pattern: 'src/lexer/**', reason: `work ${t2}: lexer` },
  ]);
  assert.deepEqual(digest.claims.released, [
    { holder: 'ATLAS', pattern: 'src/parser/**', reason: 'released' },
    { holder: 'BOREAS', pattern: 'src/lexer/**', reason: 'transferred' },
    { holder: 'SLEEPY', pattern: 'docs/**', reason: 'expired' },
  ]);
});

test('digest contents: handoffs with their outcome, work completed with its builder, counts', () => {
  const { h, ho, ho2, t1 } = scriptedDay();
  const digest = digestOf(h, h.events);
  assert.deepEqual(digest.handoffs, [
    { id: ho.id, from: 'BOREAS', to: 'ATLAS', status: 'accepted' },
    { id: ho2.id, from: 'BOREAS', to: 'any verifier', status: 'declined' },
  ]);
  assert.deepEqual(digest.workCompleted, [{ id: t1, title: 'parser', by: 'ATLAS' }]);
  assert.deepEqual(digest.workCounts, { done: 1, in_progress: 1, ready: 1 });
  assert.equal(digest.agents.find((a) => a.callsign === 'ATLAS')!.workCompleted, 1);
  assert.equal(digest.agents.find((a) => a.callsign === 'ATLAS')!.claims, 1, 'the lexer claim moved to ATLAS');
});

test('a container done because its children are is listed with that reason, not an unknown builder', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { role: 'builder' });
  const vera = joinAgent(h, 'VERA', { role: 'verifier' });
  const rte = joinAgent(h, 'RTE1', { role: 'rte' });
  const story = add(h, { title: 'importer', kind: 'story' });
  const task = add(h, { title: 'csv', parent: story.id }).id;
  const from = h.core.state.seq + 1;
  assert.equal(pull(h, atlas).item?.id, task);
  complete(h, atlas.caller, task, []);
  pull(h, vera);
  verify(h, vera.caller, task, passReport([]));
  decide(h, rte.caller, task, decision('accept', 'criteria-met'));
  const digest = digestOf(h, h.events, from);
  assert.deepEqual(digest.workCompleted, [
    { id: task, title: 'csv', by: 'ATLAS' },
    { id: story.id, title: 'importer', by: 'all children done' },
  ]);
});

test('digest contents: stale agents, blockers (messages, work, build, self-reported) and the control state', () => {
  const { h, q, t3 } = scriptedDay();
  const digest = digestOf(h, h.events);
  assert.deepEqual(digest.staleAgents, ['DOZY']);
  assert.equal(digest.agents.find((a) => a.callsign === 'DOZY')!.status, 'unknown');
  assert.equal(digest.agents.some((a) => a.callsign === 'SLEEPY'), false, 'an expired agent is gone from the roster');
  const kinds = digest.blockers.map((b) => `${b.kind}:${b.ref}`);
  assert.ok(kinds.includes('message:BOREAS'), `self-reported blocked agent: ${kinds}`);
  assert.ok(digest.blockers.some((b) => b.kind === 'message' && b.text.includes('staging down')), 'the open BLOCKER message');
  assert.ok(digest.blockers.some((b) => b.kind === 'work' && b.ref === t3 && b.text.includes(q.id)), 'the work item held by a request');
  assert.ok(digest.blockers.some((b) => b.kind === 'build' && b.ref === SCOPE && b.text.includes('RED')), 'the red build');
  assert.deepEqual(digest.builds, [{ scope: SCOPE, status: 'red', commit: 'abc123def4567890', exitCode: 3, finishedAt: digest.builds[0]!.finishedAt }]);
  assert.deepEqual(digest.control, { state: 'drain', reason: 'release day', setBy: 'RTE1' });
  const last = h.events.at(-1)!;
  assert.equal(digest.generatedAt, new Date(last.at).toISOString(), '"now" is taken from the log, not a clock');
  assert.equal(digest.toSeq, last.seq);
  assert.equal(digest.eventCount, h.events.length);
});

test('a digest covers only its window: events before fromSeq are not reported again', () => {
  const { h } = scriptedDay();
  const cut = h.events.find((e) => e.type === 'handoff.sent')!.seq;
  const digest = digestOf(h, h.events, cut);
  assert.equal(digest.fromSeq, cut);
  assert.deepEqual(digest.workCompleted, [], 'parser was done before the window');
  assert.ok(!digest.claims.acquired.some((c) => c.pattern === 'src/parser/**'));
  assert.ok(digest.claims.acquired.some((c) => c.holder === 'ATLAS' && c.pattern === 'src/lexer/**'));
  assert.equal(digest.eventCount, h.events.length - cut + 1);
});

test('the Markdown names every section the operator needs', () => {
  const { h } = scriptedDay();
  const md = renderDigestMarkdown(digestOf(h, h.events));
  for (const heading of ['# Fleet digest', '## Blockers', '## Stale agents', '## Agents', '## Builds', '## Work completed', '## Handoffs', '## Claims acquired', '## Claims released']) {
    assert.ok(md.includes(heading), `missing ${heading}:\n${md}`);
  }
  assert.match(md, /Fleet switch: \*\*drain\*\* \(release day\), set by RTE1/);
  assert.match(md, /SLEEPY: docs\/\*\* — expired/);
  assert.match(md, /\*\*RED\*\* at abc123def4, exit 3/);
  assert.match(md, /## Expired claims\n\n- SLEEPY: docs\/\*\* — its agent stopped heartbeating/);
  assert.match(md, /## Work completed\n\n- ATLAS: parser \(/, 'what got done, per agent');
  assert.match(md, /## Fleet switch\n\n- \S+: drain by RTE1 — release day/, "the switch's history");
});

test("the switch's history: each move in the window, with who and why", () => {
  const { h, rte } = scriptedDay();
  control(h, 'pause', rte.caller, 'night');
  const digest = digestOf(h, h.events);
  assert.deepEqual(digest.controlChanges.map((c) => [c.state, c.by, c.reason]), [['drain', 'RTE1', 'release day'], ['pause', 'RTE1', 'night']]);
});

test('an empty window still gives a valid digest', () => {
  const h = makeHarness();
  const digest = buildDigest([], h.core.state, h.core.indexes, 1);
  digestSchema.parse(digest);
  assert.equal(digest.toSeq, 0);
  assert.equal(digest.control.state, 'run');
  const md = renderDigestMarkdown(digest);
  assert.equal(md.trimEnd().split('\n').length, 1, `a quiet digest is one line:\n${md}`);
  assert.match(md, /nothing happened since event 0 and nothing waits for you/);
  assert.doesNotMatch(md, /None\./);
});

test('a window with events but nothing pending leaves its empty sections out', () => {
  const h = makeHarness();
  joinAgent(h, 'ATLAS');
  const md = renderDigestMarkdown(digestOf(h, h.events));
  assert.match(md, /No blockers\./);
  assert.doesNotMatch(md, /## (Blockers|Builds|Handoffs|Stale agents)/);
  assert.match(md, /## Agents\n\n- \*\*ATLAS\*\*/);
});
