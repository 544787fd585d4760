import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { recordsOf } from '../../test/support/event-log-reader.js';
import { CLI, tempHome } from '../../test/support/plane-process.js';
import { track } from './children.js';

export interface ColdStart {
  ms: number;
  /** The seq the plane announced in its "listening" line. */
  seq: number;
}

/**
 * Times `fleet serve` on `home` from process spawn to its "listening" line on stderr (what the
 * test harness and every client wait for), then kills it with SIGKILL so that no shutdown
 * snapshot changes the home. `home` should be a throwaway copy.
 */
export async function timeColdStart(home: string): Promise<ColdStart> {
  const started = process.hrtime.bigint();
  const child = track(
    spawn(process.execPath, [CLI, 'serve', '--home', home], {
      env: { ...process.env, FLEET_PORT: '0', FLEET_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  let output = '';
  child.stderr.setEncoding('utf8');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const result = await new Promise<ColdStart>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      output += chunk;
      const match = / listening on .*seq (\d+)\)/.exec(output);
      if (match) resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, seq: Number(match[1]) });
    });
    void exited.then((code) => reject(new Error(`the plane exited with ${code} before listening:\n${output}`)));
  });
  child.kill('SIGKILL');
  await exited;
  return result;
}

const LEFT_BEHIND = new Set(['plane.lock', 'plane.json', 'plane.sock']);

/** A copy of `home` as a plane would find it after a clean stop (no lock, no discovery file, no socket). */
export function copyHome(home: string, options: { withoutSnapshot?: boolean } = {}): string {
  const copy = tempHome('fleet-bench-cold-');
  // Without what the killed plane left behind: its lock, its announcement and its socket (cpSync can't copy one).
  cpSync(home, copy, { recursive: true, filter: (source) => !(dirname(source) === home && LEFT_BEHIND.has(basename(source))) });
  if (options.withoutSnapshot) rmSync(join(copy, 'state', 'snapshot.json'), { force: true });
  return copy;
}

export interface LogShape {
  segments: number;
  events: number;
  logBytes: number;
  snapshotSeq: number;
  snapshotBytes: number;
}

/** What a home's store holds: log segments, events in them, and the snapshot's seq and size. */
export function logShape(home: string): LogShape {
  const eventsDir = join(home, 'state', 'events');
  const segments = readdirSync(eventsDir).filter((name) => name.endsWith('.jsonl'));
  let events = 0;
  let logBytes = 0;
  for (const segment of segments) {
    // A killed plane's newest segment continues in the zeros it reserved; older ones hold none.
    const bytes = recordsOf(readFileSync(join(eventsDir, segment)), true);
    logBytes += bytes.length;
    for (const byte of bytes) if (byte === 0x0a) events++;
  }
  const snapshotPath = join(home, 'state', 'snapshot.json');
  let snapshotSeq = 0;
  let snapshotBytes = 0;
  try {
    snapshotBytes = statSync(snapshotPath).size;
    snapshotSeq = (JSON.parse(readFileSync(snapshotPath, 'utf8')) as { seq: number }).seq;
  } catch {
    // no snapshot yet
  }
  return { segments: segments.length, events, logBytes, snapshotSeq, snapshotBytes };
}
