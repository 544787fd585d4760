// Reads the whole event log, archived segments included, for audits and `fleet history`. Runs
// beside live appends, so it stops at the last seq that was durable when it started; the live
// segment may end in a batch still being written, which the reader tolerates as a torn tail.
//
// Unlike startup recovery, it runs while the plane serves others: a segment (up to tens of MB) is
// parsed a slice at a time, the event loop turning between slices, so a reader of a long history
// never holds other clients for the time one segment takes to parse (hundreds of ms).
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseSegment } from './segment-parser.js';
import { listSegments, segmentHolding } from './segment-files.js';
import { StoreCorruptError } from './store.js';

/** Bytes of records parsed between two turns of the event loop (a few ms of work). */
const SLICE_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const NUL = 0x00;

export async function* readHistory<E extends { seq: number }>(
  eventsDir: string,
  schema: z.ZodType<E>,
  fromSeq: number,
  upToSeq: number,
): AsyncGenerator<E> {
  const segments = await listSegments(eventsDir);
  let next: number | undefined; // the seq the next record must carry
  for (let i = Math.max(0, segmentHolding(segments, fromSeq)); i < segments.length; i++) {
    const segment = segments[i]!;
    const live = i === segments.length - 1;
    let bytes = await readFile(segment.path);
    // The live segment's records end where its reserve of zeros begins (see EventLog).
    const firstNul = live ? bytes.indexOf(NUL) : -1;
    if (firstNul >= 0) bytes = bytes.subarray(0, firstNul);
    next ??= segment.first;
    if (segment.first !== next) throw new StoreCorruptError(segment.path, `segment is named for seq ${segment.first}, but the previous segment ends at seq ${next - 1}`);
    for (let start = 0; start < bytes.length; ) {
      const cut = bytes.length - start <= SLICE_BYTES ? bytes.length : bytes.lastIndexOf(NEWLINE, start + SLICE_BYTES) + 1;
      const end = cut > start ? cut : bytes.indexOf(NEWLINE, start) + 1 || bytes.length; // a record longer than a slice
      const { events } = parseSegment(segment.path, bytes.subarray(start, end), schema, live && end === bytes.length);
      for (const event of events) {
        if (event.seq !== next) throw new StoreCorruptError(segment.path, `expected seq ${next} but found seq ${event.seq}: the log has a gap or a repeat`);
        next++;
        if (event.seq > upToSeq) return;
        if (event.seq >= fromSeq) yield event;
      }
      start = end;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
