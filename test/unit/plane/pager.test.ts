import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PAGE_BYTES } from '../../../contracts/index.js';
import { gatherPages } from '../../../server/client/gather-pages.js';
import { page, pagedList } from '../../../server/plane/rpc/pager.js';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';

interface Item {
  id: string;
  at: number;
  body?: string;
}

const SEED = testSeed();
console.log(`pager seed ${SEED} (replay: FLEET_TEST_SEED=${SEED})`);
const seeded = () => new SeededRandom(SEED);

/** Items in shuffled order (as a Map restored out of creation order would hold them), many sharing a time. */
function shuffledItems(count: number, random: SeededRandom): Item[] {
  const items = Array.from({ length: count }, (_, i) => ({ id: `it_${String(i).padStart(5, '0')}`, at: 1000 + Math.floor(i / 7) }));
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const listOf = (items: Item[]) => pagedList({ items, createdAt: (item) => item.at, id: (item) => item.id, view: (item) => item });
const inOrder = (items: Item[]) => [...items].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1)).map((item) => item.id);

test('gathering small pages of two lists yields each list whole, in order, each item once', async () => {
  const random = seeded();
  const agents = shuffledItems(23, random);
  const claims = shuffledItems(301, random);
  let pages = 0;
  const all = await gatherPages(async (request) => {
    pages++;
    return page({ agents: listOf(agents), claims: listOf(claims) }, { ...request, limit: 4 });
  });
  assert.equal(pages, Math.ceil(301 / 4));
  assert.deepEqual(all.agents.map((item) => item.id), inOrder(agents));
  assert.deepEqual(all.claims.map((item) => item.id), inOrder(claims));
  assert.deepEqual(all.totals, { agents: 23, claims: 301 });
});

test('a page stops at its byte budget, yet always carries one item', () => {
  const big = 'x'.repeat(PAGE_BYTES / 3);
  const items = Array.from({ length: 5 }, (_, i) => ({ id: `it_${i}`, at: i, body: big }));
  const first = page({ items: listOf(items) }, {});
  assert.equal(first.items.length, 3, 'three items reach the budget');
  assert.ok(first.nextCursor !== undefined);
  const huge = page({ items: listOf([{ id: 'it_0', at: 0, body: 'x'.repeat(PAGE_BYTES * 2) }]) }, {});
  assert.equal(huge.items.length, 1);
  assert.equal(huge.nextCursor, undefined);
});

test('filtered items are neither listed nor counted', () => {
  const items = shuffledItems(50, seeded());
  const odd = page({ items: pagedList({ ...listOf(items), keep: (item: Item) => Number(item.id.slice(3)) % 2 === 1 }) }, {});
  assert.equal(odd.totals.items, 25);
  assert.equal(odd.items.length, 25);
});

test('an ordered list kept per state version pages like a scan, and a new version sees what changed', async () => {
  const random = seeded();
  const items = shuffledItems(301, random);
  const state = { seq: 1 };
  const ordered = (list: Item[]) => pagedList({ ...listOf(list), orderKey: 'items' });
  let scans = 0;
  const counted = (list: Item[]) => ({ ...ordered(list), get items() { scans++; return list; } });
  const all = await gatherPages(async (request) => page({ items: counted(items) }, { ...request, limit: 4 }, state));
  assert.deepEqual(all.items.map((item) => item.id), inOrder(items));
  assert.equal(scans, 1, 'the order is computed once for all 76 pages of one version');

  // A new item and a later version: the next gather sees it, in its place.
  const added = { id: 'it_new', at: 1000 };
  const more = [...items, added];
  state.seq = 2;
  const again = await gatherPages(async (request) => page({ items: ordered(more) }, { ...request, limit: 50 }, state));
  assert.deepEqual(again.items.map((item) => item.id), inOrder(more));
  assert.deepEqual(again.totals, { items: 302 });
  // Another state object with the same seq never shares the first one's order.
  const other = page({ items: ordered(items.slice(0, 3)) }, {}, { seq: 2 });
  assert.equal(other.totals.items, 3);
});
