// kill -9 of the real plane process at seeded random moments under load, 10 times and more, on one
// FLEET_HOME. After every restart: the state loads, every acknowledged grant not acknowledged
// released is still live, acknowledged releases stay released, nothing appears from nowhere, a
// retried requestId returns the grant the log holds, and fences keep increasing. At the end the
// whole log is replayed by the grant checker. Rerun a failure with FLEET_TEST_SEED.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Result } from '../../contracts/index.js';
import { CrashAgent } from '../support/crash-agent.js';
import { CrashLedger, indexLog } from '../support/crash-ledger.js';
import { hasTornTail, readEventLog } from '../support/event-log-reader.js';
import { makeRepo } from '../support/git-repo.js';
import { describeViolations, GrantChecker } from '../support/grant-checker.js';
import { REPO_FILES } from '../support/pattern-universe.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../support/plane-process.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

const AGENTS = 6;
const IN_FLIGHT = 3;
// At least MIN_KILLS always; more while the loop budget lasts. A cycle's cost is mostly the plane's
// start (0.6 s of module loading on a quiet 2-core machine, 5.4 s at load average 13), so MIN_KILLS
// is what fits the timeout with room on a loaded machine; a quiet one does about 50.
const MIN_KILLS = 10;
const MAX_KILLS = 80;
const LOOP_BUDGET_MS = 45_000;
// The kill comes after a seeded number of acknowledged operations, not a delay: the same work
// lands before it however slow the machine, and the plane is mid-way through the requests in flight.
const MAX_ACKS_BEFORE_KILL = 400;
// Less acknowledged work than this would make the run mean little: the loop goes on until it is done.
const ENOUGH = { grantsAcked: 500, releasesAcked: 300 };
// Share of kills that land during a clean shutdown (SIGTERM, then SIGKILL once it starts).
const SHUTDOWN_KILL_SHARE = 0.2;
// Long enough that nothing expires during the run: every claim that goes away was released.
const AGENT_TTL_S = 3600;

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
console.log(`plane-crash: ${replay}`);

/** SIGTERM, then SIGKILL on the plane's own "shutting down" log line: the signal, not a timer. */
async function killDuringShutdown(plane: PlaneProcess): Promise<void> {
  const stderr = plane.child.stderr!;
  const begun = new Promise<void>((resolve) => {
    const onData = () => {
      if (plane.output().includes('plane shutting down')) {
        stderr.off('data', onData);
        resolve();
      }
    };
    stderr.on('data', onData);
    plane.child.once('exit', () => resolve());
  });
  plane.child.kill('SIGTERM');
  await begun;
  await plane.kill();
}

test(`kill -9 of the plane under load, at least ${MIN_KILLS} times, loses nothing acknowledged`, { timeout: 170_000 }, async () => {
  const random = new SeededRandom(seed);
  const root = makeRepo(REPO_FILES);
  const home = tempHome('fleet-crash-');
  const ledger = new CrashLedger();
  const agents = Array.from({ length: AGENTS }, (_, i) => new CrashAgent(`CRASH${i}`, root, random.fork(i), ledger));
  const env = { FLEET_AGENT_TTL: String(AGENT_TTL_S) };
  const enoughLoad = () => ledger.counts.grantsAcked > ENOUGH.grantsAcked && ledger.counts.releasesAcked > ENOUGH.releasesAcked;
  const stats = { stops: 0, kills: 0, shutdownKills: 0, tornTails: 0, acked: 0, startMs: [] as number[] };
  const began = performance.now();
  let plane: PlaneProcess | undefined;
  try {
    for (let round = 0; ; round++) {
      const starting = performance.now();
      plane = await startPlaneProcess({ home, env }).catch((error: Error) => {
        throw new Error(`restart ${round}: the plane did not start on the crashed home (${replay}):\n${error.message}`);
      });
      stats.startMs.push(performance.now() - starting);
      await Promise.all(agents.map((agent) => agent.attach(plane!)));
      const operator = await plane.connectAsOperator('operator');
      if (round > 0) {
        const status = await operator.call('fleet_status', {});
        const log = indexLog(readEventLog(home, { validate: false, tolerateTornTail: true, upToSeq: status.plane.seq }));
        ledger.verifyRestart(status, log, round);
        for (const agent of agents) await agent.retryUncertain(log, round);
        ledger.uncertainClaims = [];
        ledger.uncertainReleases = [];
        assert.deepEqual(ledger.violations, [], `restart ${round}: ${replay}`);
      }
      const elapsed = performance.now() - began;
      if (stats.kills >= MAX_KILLS || (stats.kills >= MIN_KILLS && enoughLoad() && elapsed > LOOP_BUDGET_MS)) break;

      // Load, then the kill once the seeded number of operations is acknowledged.
      const killAt = stats.acked + random.int(0, MAX_ACKS_BEFORE_KILL);
      let killNow!: () => void;
      const killDue = new Promise<void>((resolve) => (killNow = resolve));
      const onAck = () => {
        if (++stats.acked >= killAt) killNow();
      };
      if (stats.acked >= killAt) killNow();
      const loads = agents.map((agent) => agent.load(round, IN_FLIGHT, onAck));
      // The loads end only with the connection; should they end first, a violation says why.
      await Promise.race([killDue, Promise.all(loads)]);
      for (const agent of agents) agent.markDying();
      if (random.chance(SHUTDOWN_KILL_SHARE)) {
        // Ask for a clean shutdown and SIGKILL it as soon as it says it has begun: a kill in the
        // middle of the final flush and snapshot, which a real operator's impatience produces.
        await killDuringShutdown(plane);
        if (plane.child.signalCode === 'SIGKILL') stats.shutdownKills++;
      } else {
        await plane.kill();
      }
      await Promise.all(loads);
      ledger.crashed();
      stats.stops++;
      // A shutdown can win the race and end cleanly: only real SIGKILLs count toward the minimum.
      if (plane.child.signalCode === 'SIGKILL') stats.kills++;
      if (hasTornTail(home)) stats.tornTails++;
    }

    // The last restart passed its checks; now a clean stop and a replay of the whole history.
    const exitCode = await plane.stop();
    assert.equal(exitCode, 0, `the plane did not shut down cleanly:\n${plane.output()}`);
    const events = readEventLog(home);
    const checker = new GrantChecker({ agentTtlMs: AGENT_TTL_S * 1000 }).applyAll(events);
    assert.equal(checker.violationCount, 0, `${describeViolations(checker)}\n${replay}`);
    assert.equal(checker.stats.planeStarts, stats.stops + 1, 'every start is logged once');
    assert.deepEqual(Object.keys(checker.stats.releases).filter((reason) => reason !== 'released'), [], `only releases end claims here: ${JSON.stringify(checker.stats.releases)}`);
    for (const claim of ledger.acked.values()) {
      const logged = checker.grants.get(claim.id);
      const same = logged && logged.fence === claim.fence && logged.agentId === claim.agentId && logged.pattern === claim.pattern && logged.mode === claim.mode;
      assert.ok(same, `acknowledged grant ${JSON.stringify(claim)} is not in the log as such: ${JSON.stringify(logged)}; ${replay}`);
    }
    for (const id of ledger.released) assert.equal(checker.endings.get(id)?.reason, 'released', `acknowledged release of ${id} is not in the log; ${replay}`);
    assert.deepEqual([...ledger.live.keys()].sort(), [...checker.live.keys()].sort(), `the acknowledged live set differs from the replayed one; ${replay}`);
    assert.ok(enoughLoad(), `too little load to mean anything: ${JSON.stringify(ledger.counts)}`);

    const seconds = (performance.now() - began) / 1000;
    const starts = [...stats.startMs].sort((a, b) => a - b);
    console.log(
      `plane-crash: ${stats.kills} SIGKILLs (${stats.shutdownKills} of them during a shutdown; ${stats.stops - stats.kills} shutdowns finished first) in ${seconds.toFixed(1)} s; ${stats.acked} acknowledged operations (${Math.round(stats.acked / seconds)}/s overall); ` +
        `${JSON.stringify(ledger.counts)}; torn log tails after kill: ${stats.tornTails}; ${events.length} events; ` +
        `plane start p50 ${Math.round(starts[starts.length >> 1]!)} ms, max ${Math.round(starts.at(-1)!)} ms; ${replay}`,
    );
  } finally {
    await plane?.kill();
    removeHome(home);
    removeHome(root);
  }
});

// The restart checks are only worth their silence if they can speak: feed them a plane that lost
// a grant, resurrected a release, invented a claim and issued a stale fence.
test('the crash ledger reports lost grants, resurrected releases, invented claims and stale fences', () => {
  const ledger = new CrashLedger();
  const claim = (id: string, pattern: string, fence: number) => ({ id, pattern, fence, expiresAt: new Date(0).toISOString() });
  ledger.granted('ag1', 'exclusive', [claim('c1', 'a.ts', 5)], 0, 'grant');
  ledger.granted('ag1', 'exclusive', [claim('c2', 'b.ts', 6)], 5, 'grant');
  ledger.releasedAck(['c2']);
  ledger.granted('ag1', 'exclusive', [claim('c3', 'c.ts', 4)], 6, 'stale grant');
  const onPlane = (id: string, pattern: string, fence: number) => ({ id, pattern, fence, agentId: 'ag1', mode: 'exclusive', holder: 'A', scope: 's', grantedAt: '', expiresAt: '' });
  const status = { plane: { seq: 9 }, claims: [onPlane('c2', 'b.ts', 6), onPlane('c3', 'c.ts', 4), onPlane('c9', 'z.ts', 7)] } as unknown as Result<'fleet_status'>;
  ledger.verifyRestart(status, indexLog([]), 1);
  const found = ledger.violations.join('\n');
  assert.match(found, /new claim c3 \(c.ts\) got fence 4, not above fence 6/);
  assert.match(found, /acknowledged claim c1 \(a.ts, fence 5\) is gone; the log never grants it/);
  assert.match(found, /claim c2 is live again although its release was acknowledged/);
  assert.match(found, /the plane holds claim c9 .* that no request could have produced/);
  assert.equal(ledger.violations.length, 5, found); // and c9's fence lies above everything in the (empty) log

  // A release in flight at the kill excuses a missing claim only if the log shows it released.
  const excused = new CrashLedger();
  excused.granted('ag1', 'shared', [claim('d1', 'd.ts', 1), claim('d2', 'e.ts', 2)], 0, 'grant');
  excused.pendingReleases.add({ agentId: 'ag1', ids: ['d1', 'd2'] });
  excused.crashed();
  const granted = (claimId: string, fence: number, seq: number) => ({ seq, at: 0, type: 'claim.granted', claimId, agentId: 'ag1', scope: 's', pattern: 'x', mode: 'shared', fence }) as const;
  const log = indexLog([granted('d1', 1, 1), granted('d2', 2, 2), { seq: 3, at: 0, type: 'claim.released', claimId: 'd1', reason: 'released' }]);
  excused.verifyRestart({ plane: { seq: 3 }, claims: [] } as unknown as Result<'fleet_status'>, log, 1);
  assert.deepEqual(excused.violations, ['after restart 1: acknowledged claim d2 (e.ts, fence 2) is gone; the log grants it and never ends it']);
});
