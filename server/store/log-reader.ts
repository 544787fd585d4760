// Reads consecutive segments in seq order, shared by startup recovery and history. Each segment
// is checked against its name and its predecessor, so a lost or stray segment is never skipped.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Segment } from './segment-files.js';
import { parseSegment } from './segment-parser.js';
import { StoreCorruptError } from './store.js';

export interface ReadSegment<E> {
  segment: Segment;
  events: E[];
  /**
   * Set when the live segment ends in anything but its records (a torn record, the zeros reserved
   * for the next ones): the length of its records.
   */
  intactBytes?: number;
  /** See ParsedSegment: the live segment has data past the end of its records. */
  dataAfterEnd?: true;
}

/** Reads segments[from] to the end; only the last (live) one may end in a torn record. */
export async function* readSegments<E extends { seq: number }>(
  segments: readonly Segment[],
  from: number,
  schema: z.ZodType<E>,
): AsyncGenerator<ReadSegment<E>> {
  let next: number | undefined; // the seq the next record must carry
  for (let i = from; i < segments.length; i++) {
    const segment = segments[i]!;
    if (next !== undefined && segment.first !== next) {
      throw new StoreCorruptError(
        segment.path,
        `segment is named for seq ${segment.first}, but the previous segment ends at seq ${next - 1}`,
      );
    }
    next = segment.first;
    const bytes = await readFile(segment.path);
    const { events, intactBytes, dataAfterEnd } = parseSegment(segment.path, bytes, schema, i === segments.length - 1);
    for (const [j, event] of events.entries()) {
      if (event.seq !== next) {
        const problem = `expected seq ${next} but found seq ${event.seq}: the log has a gap or a repeat`;
        throw new StoreCorruptError(segment.path, problem, j + 1);
      }
      next++;
    }
    yield { segment, events, ...(intactBytes < bytes.length && { intactBytes }), ...(dataAfterEnd && { dataAfterEnd }) };
  }
}
