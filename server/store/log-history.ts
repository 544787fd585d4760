// Reads the whole event log, archived segments included, for audits and `fleet history`. Runs
// beside live appends, so it stops at the last seq that was durable when it started; the live
// segment may end in a batch still being written, which the reader tolerates as a torn tail.
import { z } from 'zod';
import { readSegments } from './log-reader.js';
import { listSegments, segmentHolding } from './segment-files.js';

export async function* readHistory<E extends { seq: number }>(
  eventsDir: string,
  schema: z.ZodType<E>,
  fromSeq: number,
  upToSeq: number,
): AsyncGenerator<E> {
  const segments = await listSegments(eventsDir);
  for await (const { events } of readSegments(segments, Math.max(0, segmentHolding(segments, fromSeq)), schema)) {
    for (const event of events) {
      if (event.seq > upToSeq) return;
      if (event.seq >= fromSeq) yield event;
    }
  }
}
