import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, FleetError, PAGE_BYTES } from '../../../contracts/index.js';

/**
 * One list of a paged reply: where its items come from, their order (creation time, then id:
 * both fixed for an item's life, so a cursor stays meaningful while the state changes), and what
 * is sent of each. (Method syntax, so a list of agents is a list of unknowns to `page`.)
 */
export interface PagedList<T, V> {
  items: Iterable<T>;
  /**
   * Names this list with its filter (e.g. `claims:<scope>:<holder>`) so that its order, computed
   * once, serves every page asked while the state is unchanged. Without it each page scans.
   */
  orderKey?: string;
  /** Leaves out what this call filters away (the totals count only what is kept). */
  keep?(item: T): boolean;
  createdAt(item: T): number;
  id(item: T): string;
  view(item: T): V;
}

/** Types a list's functions from its items. */
export const pagedList = <T, V>(list: PagedList<T, V>): PagedList<T, V> => list;

type Lists = Record<string, PagedList<unknown, unknown>>;
type ViewOf<L> = L extends PagedList<unknown, infer V> ? V : never;
export type Page<L extends Lists> = { [K in keyof L]: ViewOf<L[K]>[] } & { nextCursor?: string; totals: { [K in keyof L]: number } };

/** Where an item sits in its list's order. */
type Position = readonly [createdAt: number, id: string];
const compare = (a: Position, b: Position): number => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/**
 * One page of each list, in order, after the cursor. The cursor records, per list, the position of
 * the last item sent (or null once the list is done), so the next page starts right after it
 * whatever was added or removed meanwhile. Each list stops at `limit` items or PAGE_BYTES of them.
 */
export function page<L extends Lists>(lists: L, request: { cursor?: string | undefined; limit?: number | undefined }, state?: VersionedState): Page<L> {
  const names = Object.keys(lists);
  const after = request.cursor === undefined ? {} : decodeCursor(request.cursor, names);
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const budget = PAGE_BYTES / names.length;
  const result: Record<string, unknown> = {};
  const totals: Record<string, number> = {};
  const next: Record<string, Position | null> = {};
  for (const name of names) {
    const list = lists[name]!;
    const { total, picked, rest } = list.orderKey !== undefined && state !== undefined ? pickInOrder(orderOf(list, list.orderKey, state), after[name], limit) : pick(list, after[name], limit);
    const views: unknown[] = [];
    let bytes = 0;
    for (const { item } of picked) {
      if (views.length > 0 && bytes >= budget) break;
      const view = list.view(item);
      bytes += Buffer.byteLength(JSON.stringify(view));
      views.push(view);
    }
    result[name] = views;
    totals[name] = total;
    // More to come implies at least one item was sent (a page holds at least one).
    next[name] = picked.length + rest > views.length ? picked[views.length - 1]!.at : null;
  }
  const done = names.every((name) => next[name] === null);
  return { ...result, totals, ...(!done && { nextCursor: encodeCursor(next) }) } as Page<L>;
}

/**
 * The first `limit` items after `after`, in order, how many more follow them, and the list's
 * total. One pass, keeping the smallest seen: a list already in creation order (a Map filled as
 * items were created) costs one comparison per item past the page, never a sort of the list.
 */
function pick<T>(list: PagedList<T, unknown>, after: Position | null | undefined, limit: number) {
  let total = 0;
  let beyond = 0;
  let kept: { at: Position; item: T }[] = [];
  let largestKept: Position | undefined; // once `limit` are kept, anything after this is out
  const trim = () => {
    kept.sort((a, b) => compare(a.at, b.at));
    if (kept.length > limit) kept = kept.slice(0, limit);
    if (kept.length === limit) largestKept = kept[limit - 1]!.at;
  };
  for (const item of list.items) {
    if (list.keep && !list.keep(item)) continue;
    total++;
    if (after === null) continue;
    const createdAt = list.createdAt(item);
    if (after !== undefined && !isAfter(list, item, createdAt, after)) continue;
    beyond++;
    if (largestKept !== undefined && isAfter(list, item, createdAt, largestKept)) continue;
    kept.push({ at: [createdAt, list.id(item)], item });
    if (kept.length >= 2 * limit) trim();
  }
  trim();
  return { total, picked: kept, rest: beyond - kept.length };
}

/**
 * Gathering a list of n items in pages of k scans it n/k times; kept in order while the state does
 * not change (a gather's pages come back to back), each page is a binary search and a slice. Measured
 * with 146k claims gathered page by page: the scan per page held another client ~30 ms (issue 14).
 * A few orders are kept, the most recently asked; a new state version replaces them.
 */
const MAX_CACHED_ORDERS = 8;
/** The state the lists come from: its seq moves with every event, so an order is current while it stays. */
export interface VersionedState {
  readonly seq: number;
}
const ordersByState = new WeakMap<VersionedState, Map<string, { version: number; entries: { at: Position; item: unknown }[] }>>();

function orderOf<T>(list: PagedList<T, unknown>, key: string, state: VersionedState): { at: Position; item: T }[] {
  const version = state.seq;
  let orders = ordersByState.get(state);
  if (!orders) ordersByState.set(state, (orders = new Map()));
  const cached = orders.get(key);
  if (cached?.version === version) {
    orders.delete(key);
    orders.set(key, cached); // most recently asked last
    return cached.entries as { at: Position; item: T }[];
  }
  const entries: { at: Position; item: T }[] = [];
  for (const item of list.items) if (!list.keep || list.keep(item)) entries.push({ at: [list.createdAt(item), list.id(item)], item });
  entries.sort((a, b) => compare(a.at, b.at));
  for (const [other, order] of orders) if (order.version !== version) orders.delete(other);
  orders.delete(key);
  orders.set(key, { version, entries });
  if (orders.size > MAX_CACHED_ORDERS) orders.delete(orders.keys().next().value!);
  return entries;
}

/** The page after `after` in a list already in order: binary search, then a slice. */
function pickInOrder<T>(entries: { at: Position; item: T }[], after: Position | null | undefined, limit: number) {
  const total = entries.length;
  if (after === null) return { total, picked: [], rest: 0 };
  let low = 0;
  let high = entries.length;
  while (after !== undefined && low < high) {
    const mid = (low + high) >>> 1;
    if (compare(entries[mid]!.at, after) <= 0) low = mid + 1;
    else high = mid;
  }
  const picked = entries.slice(low, low + limit);
  return { total, picked, rest: entries.length - low - picked.length };
}

/** Whether the item comes after `position`; its id is looked at only on a tie of times (a list of thousands is scanned per page). */
function isAfter<T>(list: PagedList<T, unknown>, item: T, createdAt: number, position: Position): boolean {
  return createdAt !== position[0] ? createdAt > position[0] : list.id(item) > position[1];
}

const cursorSchema = z.record(z.string(), z.tuple([z.number(), z.string()]).nullable());
const BAD_CURSOR = "cursor is not one this method gave out: pass the previous reply's nextCursor unchanged, or leave cursor out to start from the beginning";

function encodeCursor(positions: Record<string, Position | null>): string {
  return Buffer.from(JSON.stringify(positions)).toString('base64url');
}

function decodeCursor(cursor: string, names: string[]): Record<string, Position | null> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new FleetError('INVALID_PARAMS', BAD_CURSOR, { param: 'cursor' });
  }
  const parsed = cursorSchema.safeParse(decoded);
  if (!parsed.success || Object.keys(parsed.data).some((name) => !names.includes(name))) throw new FleetError('INVALID_PARAMS', BAD_CURSOR, { param: 'cursor' });
  return parsed.data;
}
