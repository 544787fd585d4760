import { gatherPages, type PageReply } from '../client/gather-pages.js';

export interface PageRequest {
  cursor?: string;
  limit?: number;
}

/**
 * A list-like result for the CLI: every page gathered (what scripts and `--json` get), or with
 * `--limit N` only the first page of N items per list, whose totals say how many more there are.
 */
export function fetchLists<R extends PageReply>(limit: number | undefined, fetchPage: (page: PageRequest) => Promise<R>): Promise<Omit<R, 'nextCursor'>> {
  if (limit !== undefined) return fetchPage({ limit });
  return gatherPages(fetchPage);
}
