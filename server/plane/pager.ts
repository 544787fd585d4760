import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, FleetError, PAGE_BYTES } from '../../contracts/index.js';

/**
 * One list of a paged reply: where its items come from, their order, and what is sent of each.
 * (Method syntax, so a list of agents is a list of unknowns to `page`.)
 */
export interface PagedList<T, V> {
  items: Iterable<T>;
  /** Leaves out what this call filters away (the totals count only what is kept). */
  keep?(item: T): boolean;
  /** Unique and fixed for the item's life, so a cursor stays meaningful while the state changes. */
  key(item: T): string;
  view(item: T): V;
}

/** Types a list's functions from its items. */
export const pagedList = <T, V>(list: PagedList<T, V>): PagedList<T, V> => list;

type Lists = Record<string, PagedList<unknown, unknown>>;
type ViewOf<L> = L extends PagedList<unknown, infer V> ? V : never;
export type Page<L extends Lists> = { [K in keyof L]: ViewOf<L[K]>[] } & { nextCursor?: string; totals: { [K in keyof L]: number } };

/** Key of an item created at `at` (ms) with id `id`: oldest first, the id breaking ties. */
export const createdKey = (at: number, id: string): string => `${String(at).padStart(16, '0')} ${id}`;

/**
 * One page of each list, in key order, after the cursor. The cursor records, per list, the key of
 * the last item sent (or null once the list is done), so the next page starts right after it
 * whatever was added or removed meanwhile. Each list stops at `limit` items or PAGE_BYTES of
 * them; picking the page is one pass over the list keeping the smallest keys, not a sort of it.
 */
export function page<L extends Lists>(lists: L, request: { cursor?: string | undefined; limit?: number | undefined }): Page<L> {
  const names = Object.keys(lists);
  const after = request.cursor === undefined ? {} : decodeCursor(request.cursor, names);
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const budget = PAGE_BYTES / names.length;
  const result: Record<string, unknown> = {};
  const totals: Record<string, number> = {};
  const next: Record<string, string | null> = {};
  for (const name of names) {
    const list = lists[name]!;
    const { total, picked, rest } = pick(list, after[name], limit);
    const views: unknown[] = [];
    let bytes = 0;
    for (const item of picked) {
      if (views.length > 0 && bytes >= budget) break;
      const view = list.view(item);
      bytes += Buffer.byteLength(JSON.stringify(view));
      views.push(view);
    }
    result[name] = views;
    totals[name] = total;
    // More to come implies at least one item was sent (a page holds at least one).
    next[name] = picked.length + rest > views.length ? list.key(picked[views.length - 1]!) : null;
  }
  const done = names.every((name) => next[name] === null);
  return { ...result, totals, ...(!done && { nextCursor: encodeCursor(next) }) } as Page<L>;
}

/** The `limit` smallest keys after `after` (sorted), how many more follow them, and the list's total. */
function pick<T>(list: PagedList<T, unknown>, after: string | null | undefined, limit: number): { total: number; picked: T[]; rest: number } {
  let total = 0;
  let beyond = 0;
  let candidates: { key: string; item: T }[] = [];
  const trim = () => {
    candidates.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (candidates.length > limit) candidates = candidates.slice(0, limit);
  };
  for (const item of list.items) {
    if (list.keep && !list.keep(item)) continue;
    total++;
    if (after === null) continue;
    const key = list.key(item);
    if (after !== undefined && key <= after) continue;
    beyond++;
    candidates.push({ key, item });
    if (candidates.length >= 2 * limit) trim();
  }
  trim();
  return { total, picked: candidates.map((c) => c.item), rest: beyond - candidates.length };
}

const cursorSchema = z.record(z.string(), z.string().nullable());
const BAD_CURSOR = 'cursor is not one this method gave out: pass the previous reply\'s nextCursor unchanged, or leave cursor out to start from the beginning';

function encodeCursor(positions: Record<string, string | null>): string {
  return Buffer.from(JSON.stringify(positions)).toString('base64url');
}

function decodeCursor(cursor: string, names: string[]): Record<string, string | null> {
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
