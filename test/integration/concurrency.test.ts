// Many agents, random overlapping claims, one real plane: afterwards the event log on disk is
// replayed by an independent checker (test/support/grant-checker.ts) that must find zero double
// grants, strictly increasing fences and no early expiry, and the log must agree with what the
// clients saw acknowledged and with the plane's own view. Rerun a failure with FLEET_TEST_SEED.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it, test } from 'node:test';
import type { FleetEvent, Result } from '../../contracts/index.js';
import { eventsDir, readEventLog, segmentCount } from '../support/event-log-reader.js';
import { EventWatcher } from '../support/event-watcher.js';
import { makeRepo } from '../support/git-repo.js';
import { describeViolations, GrantChecker, type CheckedClaim, type ViolationKind } from '../support/grant-checker.js';
import { ackedGrantsMissingFromLog, LoadRecorder, requestIdProblems } from '../support/load-recorder.js';
import { REPO_FILES } from '../support/pattern-universe.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';
import { RandomAgent } from '../support/random-agent.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

const AGENTS = 32;
const OPS_PER_AGENT = 1_600; // 51,200 operations in all
const IN_FLIGHT = 4; // requests pipelined on each connection
const SLEEPERS = 4; // agents that go silent until the plane expires them, twice each
const NAPS = 2;
const LEAVERS = 2; // agents that leave at the end, taking their claims with them
const AGENT_TTL_S = 1;

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
console.log(`concurrency: ${replay}`);

interface Run {
  recorder: LoadRecorder;
  checker: GrantChecker;
  /** The checker's live set at the seq the final fleet_status was taken at. */
  liveAtStatus: CheckedClaim[];
  status: Result<'fleet_status'>;
  streamed: FleetEvent[];
  logged: FleetEvent[];
  agentIds: Set<string>;
}

async function runLoad(): Promise<Run> {
  const random = new SeededRandom(seed);
  const roots = [makeRepo(REPO_FILES), makeRepo(REPO_FILES)];
  let plane: PlaneProcess | undefined;
  try {
    plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: String(AGENT_TTL_S) } });
    const watcher = await EventWatcher.follow(await plane.connect('watcher'));
    const recorder = new LoadRecorder();
    const agents = await Promise.all(
      Array.from({ length: AGENTS }, async (_, i) => {
        const agent = new RandomAgent({
          callsign: `AGENT${String(i).padStart(2, '0')}`,
          client: await plane!.connect(`agent-${i}`),
          roots,
          random: random.fork(i),
          recorder,
          watcher,
          inFlight: IN_FLIGHT,
          agentTtlMs: AGENT_TTL_S * 1000,
        });
        await agent.join();
        return agent;
      }),
    );
    const started = performance.now();
    // Agents that finish early just go quiet (and expire, taking their claims with them); the last
    // few leave right away instead, while they are certainly still live.
    await Promise.all(
      agents.map(async (agent, i) => {
        await agent.run(OPS_PER_AGENT, i < SLEEPERS ? NAPS : 0);
        if (i >= AGENTS - LEAVERS) await agent.leave();
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const operator = await plane.connectAsOperator('operator');
    const status = await operator.call('fleet_status', {});
    // The stream must have caught up with the status before the plane goes: wait for that event.
    await watcher.waitFor((e) => e.seq >= status.plane.seq, 0, 30_000, `event seq ${status.plane.seq} on the stream`);
    const exitCode = await plane.stop();
    assert.equal(exitCode, 0, `the plane did not shut down cleanly:\n${plane.output()}`);

    const logged = readEventLog(plane.home);
    const segments = segmentCount(plane.home);
    const checker = new GrantChecker({ agentTtlMs: AGENT_TTL_S * 1000 });
    let liveAtStatus: CheckedClaim[] = [];
    for (const event of logged) {
      checker.apply(event);
      if (event.seq === status.plane.seq) liveAtStatus = [...checker.live.values()].map((c) => ({ ...c }));
    }
    const ops = recorder.totalOps;
    console.log(
      `concurrency: ${ops} operations by ${AGENTS} agents (${IN_FLIGHT} in flight each) in ${seconds.toFixed(1)} s = ${Math.round(ops / seconds)} ops/s; ` +
        `${logged.length} events in ${segments} segments; ops ${JSON.stringify(recorder.ops)}; outcomes ${JSON.stringify(recorder.outcomes)}; errors ${JSON.stringify(recorder.errors)}; ` +
        `releases ${JSON.stringify(checker.stats.releases)}; agent expiries ${checker.stats.agentExpiries} (planned naps ${recorder.planned.naps}, unplanned re-joins ${recorder.unplannedRejoins}); ` +
        `max live claims ${checker.stats.maxLive}; ${replay}`,
    );
    return { recorder, checker, liveAtStatus, status, streamed: watcher.events, logged, agentIds: new Set(agents.map((a) => a.agentId)) };
  } finally {
    await plane?.kill();
    if (plane) removeHome(plane.home);
    for (const root of roots) removeHome(root);
  }
}

const violationsOf = (checker: GrantChecker, kinds: ViolationKind[]) => checker.violations.filter((v) => kinds.includes(v.kind));

describe(`concurrency: ${AGENTS} agents, random overlapping claims`, { timeout: 180_000 }, () => {
  let run: Run;
  before(async () => {
    run = await runLoad();
  });

  it(`ran at least 50,000 operations, with conflicts, TTL expiries and agent expiries`, () => {
    const { recorder, checker } = run;
    assert.ok(recorder.totalOps >= 50_000, `only ${recorder.totalOps} operations; ${replay}`);
    assert.equal(run.agentIds.size, AGENTS);
    assert.ok((recorder.outcomes.granted ?? 0) > 2_000, `too few grants to mean anything: ${JSON.stringify(recorder.outcomes)}; ${replay}`);
    assert.ok((recorder.outcomes['refused:conflict'] ?? 0) > 2_000, `conflicts too rare to test anything: ${JSON.stringify(recorder.outcomes)}; ${replay}`);
    assert.ok((checker.stats.releases.expired ?? 0) > 20, `too few expiries: ${JSON.stringify(checker.stats.releases)}; ${replay}`);
    assert.ok(checker.stats.agentExpiries >= SLEEPERS * NAPS, `only ${checker.stats.agentExpiries} agent expiries; ${replay}`);
    assert.equal(recorder.planned.naps, SLEEPERS * NAPS);
  });

  it('every answer a client got was well formed (all or nothing, conflicts explained, stale fences refused, checks consistent)', () => {
    assert.deepEqual(run.recorder.problems, [], replay);
  });

  it('never granted two agents overlapping claims in one scope unless both shared (log replay)', () => {
    const found = violationsOf(run.checker, ['overlap', 'lapsed', 'gone-agent', 'orphan']);
    assert.equal(found.length, 0, `${describeViolations(run.checker)}\n${replay}`);
  });

  it('issued strictly increasing fences per scope, and logged a coherent history', () => {
    const found = violationsOf(run.checker, ['fence', 'duplicate-id', 'seq', 'phantom']);
    assert.equal(found.length, 0, `${describeViolations(run.checker)}\n${replay}`);
  });

  it('never expired a claim or an agent before its deadline', () => {
    const found = violationsOf(run.checker, ['early-expiry']);
    assert.equal(found.length, 0, `${describeViolations(run.checker)}\n${replay}`);
    assert.equal(run.checker.violationCount, 0, `${describeViolations(run.checker)}\n${replay}`);
  });

  it('logged every grant a client saw acknowledged, with the same fence and pattern', () => {
    assert.ok(run.recorder.ackedClaims.size > 0);
    assert.deepEqual(ackedGrantsMissingFromLog(run.recorder, run.checker).slice(0, 10), [], replay);
  });

  it('answered every retry of a granted requestId with that whole grant (or, once it ended, a whole new one)', () => {
    assert.ok(run.recorder.requests.size > 1_000);
    assert.deepEqual(requestIdProblems(run.recorder, run.checker).slice(0, 10), [], replay);
  });

  it("ends with the plane's fleet_status claims equal to the replayed live set", () => {
    const key = (c: { id: string; agentId: string; scope: string; pattern: string; mode: string; fence: number }) =>
      `${c.id} ${c.agentId} ${c.scope} ${c.pattern} ${c.mode} ${c.fence}`;
    const fromPlane = run.status.claims.map(key).sort();
    const fromLog = run.liveAtStatus.map(key).sort();
    assert.deepEqual(fromPlane, fromLog, replay);
    const leftIds = new Set(run.logged.filter((e) => e.type === 'agent.left').map((e) => (e as { agentId: string }).agentId));
    assert.equal(leftIds.size, LEAVERS);
    assert.ok(!run.status.claims.some((c) => leftIds.has(c.agentId)), 'an agent that left still holds claims');
  });

  it('pushed subscribers exactly the events of the log, in order', () => {
    const streamed = run.streamed;
    assert.ok(streamed.length > 0);
    streamed.forEach((e, i) => assert.equal(e.seq, i + 1, `stream event ${i} has seq ${e.seq}`));
    assert.deepEqual(streamed, run.logged.slice(0, streamed.length));
    assert.ok(streamed.length >= run.status.plane.seq, `the stream stopped at seq ${streamed.length}, status was at seq ${run.status.plane.seq}`);
  });
});

// The checker is only worth its zero if it can count past zero: feed it logs with known faults,
// through the same on-disk reader the real run uses.
test('the grant checker reports double grants, fence regressions and early expiry in a synthetic log', () => {
  const home = mkdtempSync(join(tmpdir(), 'fleet-checker-'));
  try {
    let seq = 0;
    const at = 1_000_000;
    const ev = (event: Record<string, unknown>) => ({ seq: ++seq, at, by: 'test', ...event }) as FleetEvent;
    const joined = (agentId: string) => ev({ type: 'agent.joined', agentId, callsign: agentId.toUpperCase(), runtime: 'script', role: 'worker', tier: 'local', tokenHash: 'x' });
    const grant = (claimId: string, agentId: string, pattern: string, mode: 'exclusive' | 'shared', fence: number, extra: Record<string, unknown> = {}) =>
      ev({ type: 'claim.granted', claimId, agentId, scope: '/repo/.git', pattern, mode, fence, ...extra });
    const log: FleetEvent[] = [
      ev({ type: 'plane.started', pid: 1, version: 'test' }),
      joined('a'),
      joined('b'),
      grant('c1', 'a', 'src/**', 'exclusive', 1),
      grant('c2', 'a', 'src/a/x.ts', 'exclusive', 2), // same agent: fine
      grant('c3', 'b', 'docs/**', 'shared', 3),
      grant('c4', 'a', 'docs/*.md', 'shared', 4), // shared beside shared: fine
      grant('c5', 'b', 'src/{a,b}/x.ts', 'exclusive', 5), // DOUBLE GRANT against c1 and c2
      ev({ type: 'claim.released', claimId: 'c1', reason: 'released' }),
      grant('c6', 'b', 'lib/**', 'exclusive', 5), // FENCE not increasing
      grant('c7', 'a', 'test/**', 'exclusive', 6, { expiresAt: at + 60_000, ttlMs: 60_000 }),
      ev({ type: 'claim.released', claimId: 'c7', reason: 'expired' }), // EARLY: 60 s before its deadline
      ev({ type: 'claim.released', claimId: 'c7', reason: 'released' }), // PHANTOM: already gone
    ];
    const dir = eventsDir(home);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '000000000001.jsonl'), log.map((e) => `${JSON.stringify(e)}\n`).join(''));

    const checker = new GrantChecker({ agentTtlMs: 120_000 }).applyAll(readEventLog(home));
    const kinds = checker.violations.map((v) => `${v.kind}@${v.seq}`);
    assert.deepEqual(kinds, ['overlap@8', 'overlap@8', 'fence@10', 'early-expiry@12', 'phantom@13'], describeViolations(checker));
    assert.match(checker.violations[0]!.message, /double grant: c5 .* overlaps live c1/);
    assert.deepEqual([...checker.live.keys()].sort(), ['c2', 'c3', 'c4', 'c5', 'c6']);

    // And a clean history yields nothing at all.
    const clean = new GrantChecker({ agentTtlMs: 120_000 }).applyAll(log.slice(0, 7));
    assert.equal(clean.violationCount, 0, describeViolations(clean));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
