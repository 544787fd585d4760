// `fleet demo` on a plane that already holds a real fleet's work: however long it runs, it keeps a
// bounded number of its items in the shared queue, and after SIGTERM or SIGINT none of them is left
// (the real fleet's items stay as they were).
//
// The plane lists work oldest first, 500 to a page. The flood of issue 26 began once the first page
// held no open demo task (after minutes of the demo's own finished waves, or at once here, behind
// 500 older items of another fleet): the RTE then saw "the queue ran dry" on every step and added a
// wave each time, and on the way out only what the first page listed left the queue.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkItem } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { WAVE } from '../../../server/demo/work-plan.js';
import { removeHome, startPlaneProcess, tempHome } from '../../support/plane-process.js';
import { startDemo, until } from './support.js';

/** The README's promise: at most three waves (an epic and its tasks each) in the queue at once. */
const DEMO_ITEMS_BOUND = 3 * (WAVE.length + 1);
/**
 * Items another fleet queued before the demo started (for its edge-tier agents, so the demo's
 * agents never pull them): a full default page of fleet_work_list.
 */
const OTHER_FLEETS_ITEMS = 500;
/**
 * The demo runs until it has seeded more waves than the bound holds (finished waves left the queue),
 * or this long: its work lands through the train, a batch at a time, before the next wave's items
 * on the same files can start.
 */
const RUN_MS = 120_000;
const wavesSeeded = (stdout: string) => Math.max(0, ...[...stdout.matchAll(/seeded wave (\d+)/g)].map((match) => Number(match[1])));

/** Every item in the queue, page by page. */
async function allItems(client: PlaneClient): Promise<WorkItem[]> {
  const items: WorkItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.call('fleet_work_list', { ...(cursor !== undefined && { cursor }) });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`fleet demo at a fast pace keeps at most ${DEMO_ITEMS_BOUND} items queued, and none after ${signal}`, { timeout: 200_000 }, async (t) => {
    const home = tempHome();
    const plane = await startPlaneProcess({ home });
    const operator = await plane.connectAsOperator();
    t.after(async () => {
      operator.close();
      await plane.stop();
      removeHome(home);
    });
    const others = new Set<string>();
    for (let start = 0; start < OTHER_FLEETS_ITEMS; start += 50) {
      const added = await Promise.all(Array.from({ length: 50 }, (_, i) => operator.call('fleet_work_add', { title: `another fleet's epic ${start + i}`, kind: 'epic', tier: 'edge' })));
      for (const { item } of added) others.add(item.id);
    }

    const demo = startDemo(t, home, ['--pace', '16', '--seed', '11']);
    const context = () => demo.context();
    const demoItems = async () => (await allItems(operator)).filter((item) => !others.has(item.id));

    await until(() => /ATLAS\s+pulled /.test(demo.stdout()), 20_000, `the demo's builders never pulled work${context()}`);
    let most = 0;
    const runUntil = Date.now() + RUN_MS;
    while (Date.now() < runUntil && wavesSeeded(demo.stdout()) <= DEMO_ITEMS_BOUND / (WAVE.length + 1)) {
      most = Math.max(most, (await demoItems()).length);
      if (most > DEMO_ITEMS_BOUND) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(most <= DEMO_ITEMS_BOUND, `the demo had ${most} items in the queue at once (at most ${DEMO_ITEMS_BOUND} promised)${context()}`);
    assert.match(demo.stdout(), /accepted wk_\S+ ".*": (done|landing)/, `the demo's fleet got work done while bounded${context()}`);
    const waves = [...demo.stdout().matchAll(/seeded wave (\d+)/g)].map((match) => Number(match[1]));
    assert.ok(wavesSeeded(demo.stdout()) > DEMO_ITEMS_BOUND / (WAVE.length + 1), `finished waves left the queue as it ran, making room for more (waves seeded: ${waves.join(', ')})${context()}`);

    const signalledAt = Date.now();
    demo.kill(signal);
    const code = await Promise.race([demo.exited, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 20_000))]);
    assert.notEqual(code, 'late', `the demo did not exit within 20 s of ${signal}${context()}`);
    assert.equal(code, 0, `the demo exited with ${code}${context()}`);
    assert.match(demo.stdout(), /Demo ended \(interrupted\)/);
    t.diagnostic(`${signal}: exited ${Date.now() - signalledAt} ms after the signal; at most ${most} demo items were queued at once; waves seeded: ${waves.join(', ')}`);

    const left = await demoItems();
    assert.deepEqual(left.map((item) => `${item.id} ${item.kind} ${item.status} ${item.title}`), [], `every demo item left the queue after ${signal}`);
    const remaining = await allItems(operator);
    assert.deepEqual(new Set(remaining.map((item) => item.id)), others, "the other fleet's items are untouched");
  });
}
