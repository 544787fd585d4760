// Issue 4's simulated two-runtime fleet: a fast group and a slow group of builders pull from one
// queue of 240 tasks with dependencies and overlapping paths; every task is completed by its
// builder, verified by a verifier agent and accepted by an RTE agent. Afterwards the event log is
// replayed to show that the fast group never sat idle while there was work it could take, that no
// two agents ever held conflicting claims, and that every task was done exactly once.
//
// "Never sat idle while ready work existed", measurably: every pull that returned no item is
// bracketed by the highest event seq its agent had received when it sent the pull (lowSeq: all of
// it was applied before the plane judged the pull) and when the answer arrived (highSeq: the plane
// answers only once everything up to its state is durable, and pushes those events to the
// subscribed connection first). The plane judged the pull at some seq in [lowSeq, highSeq]. The
// test replays the log with an independent queue model: if at every seq of the bracket some item
// was pullable for that agent (ready or rework, a leaf, unblocked, dependencies done, tier and role
// fitting, paths free of other agents' claims), the plane left the agent idle beside work it could
// take. Between an empty pull and its next pull the agent waits only for the next event.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { fetchLists } from '../../../server/cli/paged-call.js';
import { readEventLog } from '../../support/event-log-reader.js';
import { makeRepo } from '../../support/git-repo.js';
import { describeViolations, GrantChecker } from '../../support/grant-checker.js';
import { removeHome, startPlaneProcess } from '../../support/plane-process.js';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';
import { runBuilder, runRte, runVerifier, SimAgent, type BuilderStats, type FleetClock } from '../../support/sim-fleet.js';
import { checkEmptyPulls, type EmptyPull } from '../../support/sim-replay.js';

const TASKS = 240;
const MODULES = 12;
const FAST = 4;
const SLOW = 4;
const VERIFIERS = 2;
const AGENT_TTL_S = 600;
const BUDGET_MS = 70_000;

interface TaskSpec {
  title: string;
  story: number;
  deps: number[];
  paths: string[];
  tier?: 'edge';
  criteria: string[];
}

/** The queue: 240 tasks under 8 stories, ~60% with dependencies on recent tasks, paths that often overlap. */
function planQueue(random: SeededRandom): TaskSpec[] {
  const path = (): string => {
    const m = random.int(0, MODULES - 1);
    const roll = random.next();
    if (roll < 0.1) return `src/m${m}/**`;
    if (roll < 0.2) return `src/m${m}/*.ts`;
    if (roll < 0.4) return `docs/m${m}.md`;
    return `src/m${m}/f${random.int(0, 5)}.ts`;
  };
  const tasks: TaskSpec[] = [];
  for (let i = 0; i < TASKS; i++) {
    const window = Array.from({ length: Math.min(i, 30) }, (_, k) => i - 1 - k);
    const roll = random.next();
    const deps = roll < 0.4 || window.length === 0 ? [] : random.sample(window, roll < 0.85 ? 1 : 2);
    const paths = [...new Set([path(), ...(random.chance(0.4) ? [path()] : [])])];
    tasks.push({
      title: `task ${i}`,
      story: Math.floor(i / (TASKS / 8)),
      deps,
      paths,
      ...(random.chance(0.1) && { tier: 'edge' as const }),
      criteria: random.chance(0.5) ? ['builds', 'tests pass'] : ['tests pass'],
    });
  }
  return tasks;
}

test('a fast and a slow group share one queue of 240 tasks: nobody fast sits idle beside work, no conflicting claims, every task done once', { timeout: 90_000 }, async (t) => {
  const seed = testSeed();
  console.log(`two-runtime fleet: seed ${seed} (replay with FLEET_TEST_SEED=${seed})`);
  t.diagnostic(`seed ${seed}`);
  const random = new SeededRandom(seed);
  const repo = makeRepo();
  const plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: String(AGENT_TTL_S) } });
  const agents: SimAgent[] = [];
  t.after(async () => {
    for (const a of agents) a.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
  });
  const started = Date.now();

  // --- the queue -------------------------------------------------------------------------------
  const operator = await SimAgent.start(plane, 'operator');
  agents.push(operator);
  const telos = (await operator.client.call('fleet_work_add', { title: 'ship the compiler', kind: 'telos' })).item.id;
  const epics = [];
  for (const title of ['front end', 'back end']) epics.push((await operator.client.call('fleet_work_add', { title, kind: 'epic', parent: telos })).item.id);
  const stories: string[] = [];
  for (let s = 0; s < 8; s++) stories.push((await operator.client.call('fleet_work_add', { title: `story ${s}`, kind: 'story', parent: epics[s % 2]! })).item.id);
  const specs = planQueue(random);
  const taskIds: string[] = [];
  for (const spec of specs) {
    const { item } = await operator.client.call('fleet_work_add', {
      title: spec.title,
      parent: stories[spec.story]!,
      dependsOn: spec.deps.map((d) => taskIds[d]!),
      paths: spec.paths,
      root: repo,
      criteria: spec.criteria,
      ...(spec.tier && { tier: spec.tier }),
    });
    taskIds.push(item.id);
  }
  const queueBuiltMs = Date.now() - started;
  const tasks = new Set(taskIds);

  // --- the fleet -------------------------------------------------------------------------------
  const done = new Set<string>();
  operator.onEvent((event) => {
    if (event.type === 'work.transitioned' && event.status === 'done' && tasks.has(event.itemId as string)) done.add(event.itemId as string);
  });
  const fleet: FleetClock = { t0: Date.now(), done: () => done.size === TASKS, deadline: started + BUDGET_MS };
  const fast = await Promise.all(Array.from({ length: FAST }, (_, i) => SimAgent.start(plane, `FAST${i}`, { role: 'builder', runtime: 'claude-code', tier: 'local' })));
  const slow = await Promise.all(Array.from({ length: SLOW }, (_, i) => SimAgent.start(plane, `SLOW${i}`, { role: 'builder', runtime: 'codex', tier: 'edge' })));
  const verifiers = await Promise.all(Array.from({ length: VERIFIERS }, (_, i) => SimAgent.start(plane, `VERIFY${i}`, { role: 'verifier', runtime: 'claude-code' })));
  const rte = await SimAgent.start(plane, 'RTE', { role: 'rte', runtime: 'claude-code' });
  agents.push(...fast, ...slow, ...verifiers, rte);
  const fastIds = new Set(fast.map((a) => a.agentId));

  const emptyPulls: EmptyPull[] = [];
  const failedOnce = new Set<string>();
  const verdictRandom = random.fork(1);
  const fails = (itemId: string) => {
    if (failedOnce.has(itemId) || !verdictRandom.chance(0.04)) return false;
    failedOnce.add(itemId);
    return true;
  };
  const [builderStats, verifierStats, rteStats] = await Promise.all([
    Promise.all([
      ...fast.map((a) => runBuilder(a, 'fast', () => 0, fleet, emptyPulls)),
      ...slow.map((a, i) => {
        const r = random.fork(100 + i);
        return runBuilder(a, 'slow', () => r.int(30, 90), fleet, emptyPulls);
      }),
    ]),
    Promise.all(verifiers.map((v) => runVerifier(v, fails, fleet))),
    runRte(rte, fleet),
  ]);
  const runMs = Date.now() - fleet.t0;
  assert.equal(done.size, TASKS, `only ${done.size}/${TASKS} tasks done within the ${BUDGET_MS / 1000} s budget (seed ${seed})`);

  // --- the evidence ----------------------------------------------------------------------------
  const status = await operator.client.call('fleet_status', {});
  const log: FleetEvent[] = readEventLog(plane.home, { upToSeq: status.plane.seq });
  const summary = (s: BuilderStats) => `${s.callsign}: ${s.completed} completed, ${s.pulls} pulls (${s.emptyPulls} empty), idle ${s.idleMs} ms`;
  t.diagnostic(`queue built in ${queueBuiltMs} ms; fleet ran ${runMs} ms; ${log.length} events`);
  for (const s of builderStats) t.diagnostic(summary(s));
  t.diagnostic(`verifiers: ${verifierStats.map((v) => `${v.callsign} ${v.verified} pass / ${v.failed} fail`).join(', ')}; RTE accepted ${rteStats.accepted}`);

  // 1. No two agents ever held conflicting claims (the independent territory referee).
  const checker = new GrantChecker({ agentTtlMs: AGENT_TTL_S * 1000 }).applyAll(log);
  assert.equal(checker.violationCount, 0, `seed ${seed}: ${describeViolations(checker)}`);
  assert.ok(checker.stats.grants >= TASKS, 'every task claimed its paths');
  assert.equal(checker.live.size, 0, 'every claim was released by its completion');

  // 2. Every task done exactly once, by the RTE, after a verifier (not its builder) passed it.
  const transitions = log.filter((e): e is Extract<FleetEvent, { type: 'work.transitioned' }> => e.type === 'work.transitioned');
  const callsignOf = new Map(log.flatMap((e) => (e.type === 'agent.joined' ? [[e.agentId, e.callsign] as const] : [])));
  const verifierNames = new Set(verifiers.map((v) => v.callsign));
  for (const id of taskIds) {
    const mine = transitions.filter((e) => e.itemId === id);
    const doneEvents = mine.filter((e) => e.status === 'done');
    assert.equal(doneEvents.length, 1, `${id}: ${doneEvents.length} transitions to done (seed ${seed})`);
    assert.equal(doneEvents[0]!.by, 'RTE');
    assert.equal(doneEvents[0]!.decision?.reasonCode, 'verified-pass');
    const doneAt = doneEvents[0]!.seq;
    const lastCompletion = mine.filter((e) => e.status === 'review' && e.artifact !== undefined && e.seq < doneAt).at(-1);
    assert.ok(lastCompletion, `${id}: done without a builder's completion`);
    const verified = mine.filter((e) => e.status === 'verified' && e.seq > lastCompletion.seq && e.seq < doneAt);
    assert.equal(verified.length, 1, `${id}: one passing verification between the last completion and done`);
    assert.ok(verifierNames.has(verified[0]!.by!), `${id}: verified by ${verified[0]!.by}, not a verifier`);
    assert.notEqual(verified[0]!.by, lastCompletion.by, `${id}: verified by its own builder`);
  }
  // Every page: the items carry their artifacts' records, so 240 of them are more than one page.
  const list = await fetchLists(undefined, (page) => operator.client.call('fleet_work_list', page));
  assert.deepEqual(
    list.items.filter((i) => tasks.has(i.id)).map((i) => i.status),
    taskIds.map(() => 'done'),
    "the plane's view: every task done",
  );
  assert.ok(failedOnce.size === 0 || transitions.some((e) => e.status === 'rework'), 'failed verifications went back for rework');

  // 3. Dependencies were respected: nothing started before every dependency was done.
  const doneSeq = new Map(transitions.filter((e) => e.status === 'done').map((e) => [e.itemId, e.seq]));
  const depsOf = new Map(log.flatMap((e) => (e.type === 'work.added' ? [[e.itemId, e.dependsOn] as const] : [])));
  for (const start of transitions.filter((e) => e.status === 'in_progress' && e.assignee)) {
    for (const dep of depsOf.get(start.itemId) ?? []) {
      assert.ok((doneSeq.get(dep) ?? Infinity) < start.seq, `${start.itemId} started at seq ${start.seq} before its dependency ${dep} was done`);
    }
  }
  const startedBy = transitions.filter((e) => e.status === 'in_progress' && e.assignee).map((e) => callsignOf.get(e.assignee!)!);
  assert.ok(startedBy.every((c) => c.startsWith('FAST') || c.startsWith('SLOW')), 'only builders started work');

  // 4. The fast group never sat idle while work it could take existed.
  const fastEmpty = emptyPulls.filter((p) => fastIds.has(p.agentId));
  const { violations, checkedSeqs } = checkEmptyPulls(log, emptyPulls, AGENT_TTL_S * 1000);
  const widths = fastEmpty.map((p) => p.highSeq - p.lowSeq);
  t.diagnostic(`${fastEmpty.length} empty pulls by the fast group (bracket width: max ${Math.max(0, ...widths)}, mean ${(widths.reduce((a, b) => a + b, 0) / Math.max(1, widths.length)).toFixed(1)} events); ${checkedSeqs} log positions checked`);
  const fastViolations = violations.filter((v) => fastIds.has(v.pull.agentId));
  const describe = (list: typeof violations) =>
    list
      .slice(0, 5)
      .map((v) => `${v.pull.callsign} pulled nothing at seq ${v.pull.lowSeq}..${v.pull.highSeq} (t+${v.pull.atMs} ms) while ${v.pull.callsign} could take ${v.pullable}`)
      .join('\n');
  assert.deepEqual(fastViolations.length, 0, `seed ${seed}: the fast group sat idle beside work it could take:\n${describe(fastViolations)}`);
  assert.equal(violations.length, 0, `seed ${seed}: a slow agent was told nothing while it could take work:\n${describe(violations)}`);

  // The operator's digest of the run tells the same story.
  const { digest } = await operator.client.call('fleet_digest', {});
  assert.equal(digest.workCompleted.filter((w) => tasks.has(w.id)).length, TASKS);
  // Containers close themselves once their children are done: every item of the queue ends done.
  assert.deepEqual(digest.workCounts, { done: list.items.length });
  assert.equal(digest.claims.acquired.length, checker.stats.grants);
  assert.deepEqual([...new Set(digest.claims.released.map((c) => c.reason))], ['released']);

  // A fast agent never waited for a slow one: the fast group did the bulk of the work.
  const completedBy = (group: 'fast' | 'slow') => builderStats.filter((s) => s.group === group).reduce((n, s) => n + s.completed, 0);
  assert.ok(completedBy('fast') > completedBy('slow'), `fast ${completedBy('fast')} vs slow ${completedBy('slow')} completions`);
  assert.ok(Date.now() - started < BUDGET_MS + 10_000);
});
