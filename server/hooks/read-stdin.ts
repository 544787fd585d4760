import { readFileSync } from 'node:fs';

/**
 * All of stdin, as the hooks receive their event. A synchronous read of fd 0 skips setting up
 * process.stdin's stream (measured ~5 ms of a hook's start); a stdin that is non-blocking (EAGAIN)
 * is read through the stream instead.
 */
export async function readStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
