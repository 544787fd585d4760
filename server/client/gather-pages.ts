import { methods, type MethodName } from '../../contracts/index.js';

/** A reply of a paged method: its lists, the totals, and the cursor while more follows. */
export interface PageReply {
  nextCursor?: string;
  [field: string]: unknown;
}

/** Whether `method` answers in pages (takes a `cursor`), so a complete answer means gathering them. */
export function isPaged(method: MethodName): boolean {
  const shape = (methods[method].params as unknown as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'cursor' in shape;
}

/**
 * Calls `fetchPage` until a reply has no nextCursor and returns the first reply with every list
 * (every array field) holding the items of all pages, and the last reply's totals. Pages are not a
 * snapshot: what changed between them may show or not, but nothing present throughout is lost.
 */
export async function gatherPages<R extends PageReply>(fetchPage: (page: { cursor?: string }) => Promise<R>): Promise<Omit<R, 'nextCursor'>> {
  const { nextCursor, ...gathered } = await fetchPage({});
  const fields = gathered as Record<string, unknown>;
  for (let cursor = nextCursor; cursor !== undefined; ) {
    const { nextCursor: next, ...reply } = await fetchPage({ cursor });
    for (const [field, value] of Object.entries(reply)) {
      const list = fields[field];
      if (Array.isArray(list) && Array.isArray(value)) list.push(...(value as unknown[]));
      else if (field === 'totals') fields[field] = value;
    }
    cursor = next;
  }
  return gathered;
}
