// Startup replay of the event log: reads only the segments that can hold events after the
// snapshot, checks that seqs run without gap from the snapshot to the end, and finds a torn tail.
import { z } from 'zod';
import { readSegments, type ReadSegment } from './log-reader.js';
import { listSegments, segmentHolding, segmentPath, type Segment } from './segment-files.js';
import { StoreCorruptError } from './store.js';

export interface RecoveredLog<E> {
  /** Events with seq > snapshotSeq, in order. */
  tail: E[];
  lastSeq: number;
  /** The segment appends continue in (not yet created on a fresh start). */
  live: Segment;
  /**
   * Set when the live segment ends in anything but its records (a torn record, the zeros reserved
   * for the next ones): the length of its records.
   */
  intactBytes?: number;
  /** The live segment has data past the end of its records (see ParsedSegment). */
  dataAfterEnd?: true;
}

export async function recoverLog<E extends { seq: number }>(
  eventsDir: string,
  schema: z.ZodType<E>,
  snapshotSeq: number,
): Promise<RecoveredLog<E>> {
  const segments = await listSegments(eventsDir);
  if (segments.length === 0) {
    if (snapshotSeq > 0) {
      throw new StoreCorruptError(eventsDir, `holds no log segment, yet snapshot.json covers events up to seq ${snapshotSeq}`);
    }
    return { tail: [], lastSeq: 0, live: { first: 1, path: segmentPath(eventsDir, 1) } };
  }
  const start = segmentHolding(segments, snapshotSeq + 1);
  if (start < 0) {
    const oldest = segments[0]!;
    const missing = `events ${snapshotSeq + 1} to ${oldest.first - 1} are missing`;
    throw new StoreCorruptError(
      oldest.path,
      `the oldest segment starts at seq ${oldest.first}, but snapshot.json covers only up to seq ${snapshotSeq}: ${missing}`,
    );
  }

  const tail: E[] = [];
  let lastSeq = segments[start]!.first - 1;
  let liveRead: ReadSegment<E> | undefined; // the last segment read is the live one
  for await (const read of readSegments(segments, start, schema)) {
    for (const event of read.events) if (event.seq > snapshotSeq) tail.push(event);
    lastSeq = read.segment.first + read.events.length - 1;
    liveRead = read;
  }

  const live = segments[segments.length - 1]!;
  if (lastSeq < snapshotSeq) {
    const missing = `events ${lastSeq + 1} to ${snapshotSeq} are missing`;
    throw new StoreCorruptError(live.path, `the log ends at seq ${lastSeq}, but snapshot.json covers up to seq ${snapshotSeq}: ${missing}`);
  }
  const { intactBytes, dataAfterEnd } = liveRead ?? {};
  return { tail, lastSeq, live, ...(intactBytes !== undefined && { intactBytes }), ...(dataAfterEnd && { dataAfterEnd }) };
}
