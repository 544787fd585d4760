// Reads a plane's event log straight from disk (FLEET_HOME/state/events/*.jsonl), independently of
// the plane's own store code (but for the records' checksum format), so that what the tests replay is what a restart would replay.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fleetEventSchema, type FleetEvent } from '../../contracts/index.js';
import { openRecord } from '../../server/store/record-checksum.js';

const SEGMENT = /^(\d{12})\.jsonl$/;

export interface ReadLogOptions {
  /**
   * Validate every event with the contracts' schema (the default). Off, lines are only
   * JSON-parsed: much faster for repeated look-ups in the middle of a crash loop.
   */
  validate?: boolean;
  /** Stop after this seq (events past it may still be in flight while the plane runs). */
  upToSeq?: number;
  /**
   * Drop an unterminated last line of the newest segment (a write in flight, or torn by a kill)
   * instead of failing. Anything else out of place always fails.
   */
  tolerateTornTail?: boolean;
}

export function eventsDir(home: string): string {
  return join(home, 'state', 'events');
}

/** Every event of the log in seq order, checked to run from seq 1 without gap or repeat. */
export function readEventLog(home: string, options: ReadLogOptions = {}): FleetEvent[] {
  const dir = eventsDir(home);
  const segments = readdirSync(dir)
    .map((name) => ({ name, match: SEGMENT.exec(name) }))
    .filter((s): s is { name: string; match: RegExpExecArray } => s.match !== null)
    .map((s) => ({ first: Number(s.match[1]), path: join(dir, s.name) }))
    .sort((a, b) => a.first - b.first);
  const events: FleetEvent[] = [];
  let expected = 1;
  for (const [i, segment] of segments.entries()) {
    if (segment.first !== expected) {
      throw new Error(`${segment.path}: segment starts at seq ${segment.first}, expected ${expected} (the log must be complete from seq 1 to be replayed)`);
    }
    const text = recordsOf(readFileSync(segment.path), i === segments.length - 1).toString('utf8');
    const lines = text.split('\n');
    const tail = lines.pop()!; // '' when the segment ends with a newline
    if (tail !== '') {
      if (!(options.tolerateTornTail && i === segments.length - 1)) throw new Error(`${segment.path}: last line is unterminated: ${tail.slice(0, 120)}`);
    }
    for (const [n, line] of lines.entries()) {
      const record = openRecord(line);
      if ('damaged' in record) throw new Error(`${segment.path}:${n + 1}: ${record.damaged}`);
      const json = JSON.parse(record.json) as unknown;
      const event = options.validate === false ? (json as FleetEvent) : parseEvent(json, segment.path, n + 1);
      if (event.seq !== expected) throw new Error(`${segment.path}:${n + 1}: expected seq ${expected}, found ${event.seq}`);
      if (options.upToSeq !== undefined && event.seq > options.upToSeq) return events;
      events.push(event);
      expected++;
    }
  }
  return events;
}

function parseEvent(json: unknown, path: string, line: number): FleetEvent {
  const parsed = fleetEventSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${path}:${line}: not a valid event: ${parsed.error.message}`);
  return parsed.data;
}

/** How many segment files the log has (compaction rotates to a new one). */
export function segmentCount(home: string): number {
  return readdirSync(eventsDir(home)).filter((name) => SEGMENT.test(name)).length;
}

/**
 * The records of a segment: the newest one, while the plane runs or after a kill, continues in
 * zeros reserved for the next records, and its records end at the first of them.
 */
export function recordsOf(bytes: Buffer, newest: boolean): Buffer {
  const firstZero = newest ? bytes.indexOf(0) : -1;
  return firstZero < 0 ? bytes : bytes.subarray(0, firstZero);
}

/** Whether the newest segment ends in an unterminated (torn) line: what a kill -9 can leave. */
export function hasTornTail(home: string): boolean {
  const dir = eventsDir(home);
  const newest = readdirSync(dir).filter((name) => SEGMENT.test(name)).sort().at(-1);
  if (newest === undefined) return false;
  const records = recordsOf(readFileSync(join(dir, newest)), true);
  return records.length > 0 && records[records.length - 1] !== 0x0a;
}
