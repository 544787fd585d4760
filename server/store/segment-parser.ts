// Decodes one JSON Lines segment in a single pass over a buffer read whole: at 100k events a
// line-by-line stream costs more in per-line overhead than the parsing itself.
import { z } from 'zod';
import { openRecord } from './record-checksum.js';
import { StoreCorruptError } from './store.js';

const NEWLINE = 0x0a;
const NUL = 0x00;

export interface ParsedSegment<E> {
  /** events[i] was read from line i + 1. */
  events: E[];
  /** Length of the prefix made only of complete, valid records; the rest is a torn write. */
  intactBytes: number;
  /**
   * The live segment has data past its first NUL: a batch the disk wrote out of order, or damage
   * in the middle of the records. No content tells the two apart, so the caller keeps a copy.
   */
  dataAfterEnd?: true;
}

/**
 * `tornTailAllowed` is true only for the live (last) segment: a crash mid-write can leave its final
 * line unterminated or garbled. Anything wrong before that is damage, never a torn write, because
 * records are only ever written after the acknowledged ones and a batch is acknowledged only after
 * its write fully lands.
 *
 * The live segment may also end in the zeros its records are written into (see EventLog). Its
 * records end at the first NUL byte, which no JSON text contains: past it lies the reserve, or a
 * batch that was never acknowledged and that the disk persisted out of order before the crash (a
 * later page written, an earlier one still zero). Either way nothing from that line on counts.
 */
export function parseSegment<E>(
  path: string,
  bytes: Buffer,
  schema: z.ZodType<E>,
  tornTailAllowed: boolean,
): ParsedSegment<E> {
  const firstNul = tornTailAllowed ? bytes.indexOf(NUL) : -1;
  const dataAfterEnd = firstNul >= 0 && !allZero(bytes.subarray(firstNul));
  if (firstNul >= 0) bytes = bytes.subarray(0, firstNul);
  const parsed = parseRecords(path, bytes, schema, tornTailAllowed);
  return dataAfterEnd ? { ...parsed, dataAfterEnd } : parsed;
}

function parseRecords<E>(path: string, bytes: Buffer, schema: z.ZodType<E>, tornTailAllowed: boolean): ParsedSegment<E> {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const unterminated = end < bytes.length;
  const lines = bytes.toString('utf8', 0, end).split('\n');
  lines.pop(); // the empty string after the final newline
  if (unterminated && !tornTailAllowed) {
    throw new StoreCorruptError(path, 'the last record is incomplete (no trailing newline)', lines.length + 1);
  }
  const events: E[] = [];
  // A segment whose first record is sealed was written with checksums throughout: an unsealed record in it is damage.
  const first = lines.length > 0 ? openRecord(lines[0]!) : undefined;
  const sealedSegment = first !== undefined && 'sealed' in first && first.sealed;
  for (let i = 0; i < lines.length; i++) {
    let json: unknown;
    try {
      json = recordJson(lines[i]!, sealedSegment);
    } catch (error) {
      const isLast = i === lines.length - 1 && !unterminated;
      if (isLast && tornTailAllowed) {
        return { events, intactBytes: i === 0 ? 0 : bytes.lastIndexOf(NEWLINE, end - 2) + 1 };
      }
      const where = isLast ? '' : ', and further records follow it';
      throw new StoreCorruptError(path, `record is ${(error as Error).message}${where}`, i + 1);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new StoreCorruptError(path, `record does not match the event schema: ${z.prettifyError(parsed.error)}`, i + 1);
    }
    events.push(parsed.data);
  }
  return { events, intactBytes: end };
}

/** A line's record, parsed; throws saying what is wrong with it (the caller decides torn tail or damage). */
function recordJson(line: string, sealedSegment: boolean): unknown {
  const record = openRecord(line);
  if ('damaged' in record) throw new Error(`changed on disk (${record.damaged})`);
  if (sealedSegment && !record.sealed) throw new Error('missing its checksum (every record of this segment carries one)');
  try {
    return JSON.parse(record.json);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message})`);
  }
}

const ZERO_CHUNK = Buffer.alloc(64 * 1024);

function allZero(bytes: Buffer): boolean {
  for (let at = 0; at < bytes.length; at += ZERO_CHUNK.length) {
    const chunk = bytes.subarray(at, at + ZERO_CHUNK.length);
    if (!chunk.equals(ZERO_CHUNK.subarray(0, chunk.length))) return false;
  }
  return true;
}
