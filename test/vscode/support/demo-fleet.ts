// A busy fleet behind the screenshots: `fleet demo` on the window's plane, running once its RTE has
// seeded work. If it ends before that, the error carries what it printed (a bare exit code told
// nothing when it happened in CI).
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI_BUNDLE } from './fleet-fixtures.js';

/** What of the demo's output an error quotes. */
const TAIL_CHARS = 4000;

export async function startDemoFleet(home: string): Promise<ChildProcess> {
  const demo = spawn(process.execPath, [CLI_BUNDLE, 'demo', '--home', home, '--seed', '7', '--duration', '600'], { env: { ...process.env, FLEET_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-TAIL_CHARS));
  demo.stderr!.on('data', (chunk: Buffer) => {
    keep(chunk);
    process.stderr.write(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    demo.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (/seeded wave/.test(chunk.toString())) resolve();
    });
    demo.once('exit', (code, signal) => reject(new Error(`fleet demo exited (${signal ?? code}) before its RTE seeded work; it printed:\n${output}`)));
  });
  // Its output is read on (a full pipe would stall it) but no longer kept.
  demo.stdout!.removeAllListeners('data').resume();
  return demo;
}
