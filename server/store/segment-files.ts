// Layout of the event log: events/<first seq, 12 digits>.jsonl. Zero-padding makes the names sort
// like the seqs they hold, and the name alone says where a segment must start.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface Segment {
  /** Seq of the segment's first event (or of the next event, while it is still empty). */
  first: number;
  path: string;
}

const SEGMENT_NAME = /^(\d{12})\.jsonl$/;

export function segmentPath(eventsDir: string, first: number): string {
  return join(eventsDir, `${String(first).padStart(12, '0')}.jsonl`);
}

/** All segments in seq order. Other files in the folder are not ours and are left alone. */
export async function listSegments(eventsDir: string): Promise<Segment[]> {
  const segments: Segment[] = [];
  for (const name of await readdir(eventsDir)) {
    const match = SEGMENT_NAME.exec(name);
    if (match) segments.push({ first: Number(match[1]), path: join(eventsDir, name) });
  }
  return segments.sort((a, b) => a.first - b.first);
}

/** Index of the segment that holds `seq` (the last one starting at or before it), or -1. */
export function segmentHolding(segments: readonly Segment[], seq: number): number {
  let found = -1;
  for (let i = 0; i < segments.length && segments[i]!.first <= seq; i++) found = i;
  return found;
}
