import { z } from 'zod';
import { boundedText, limits } from '../limits.js';
import { MAX_FRAME_BYTES } from '../protocol.js';
import { MAX_PAGE_SIZE } from '../page-size.js';

/** Items of each list in one reply when the caller names no `limit`, and the most it may name. */
export const DEFAULT_PAGE_SIZE = 500;
export { MAX_PAGE_SIZE };

/**
 * Bytes of items one list may put in a reply before the page ends (a page holds at least one item):
 * no reply approaches a client's payload limit, whatever the items hold.
 */
export const PAGE_BYTES = MAX_FRAME_BYTES / 4;

const NOT_A_SNAPSHOT =
  'Each list comes oldest first (creation time, then id), in pages: pass nextCursor back as `cursor` for the next page, until a reply has none. Pages are not a snapshot: the state may change between calls, and an item added or removed meanwhile may appear or not, but no item present throughout is skipped or repeated.';

/** Params of every paged method: one cursor, one limit (per list). */
export const pageParams = {
  cursor: boundedText(limits.cursor).min(1).optional().describe('The previous reply\'s nextCursor, unchanged: the next page'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .describe(`Most items per list in this reply (default ${DEFAULT_PAGE_SIZE})`),
};

/** Result fields of a paged method whose lists are named `lists`. */
export function pageResult<const L extends string>(lists: readonly L[]) {
  const counts = Object.fromEntries(lists.map((list) => [list, z.number().int().nonnegative()])) as Record<L, z.ZodNumber>;
  return {
    nextCursor: z.string().optional().describe(`Present while more items follow. ${NOT_A_SNAPSHOT}`),
    totals: z.object(counts).describe('How many items each list holds in all (with this call\'s filters), as of this reply.'),
  };
}
