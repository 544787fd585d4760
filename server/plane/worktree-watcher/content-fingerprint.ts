import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Only this much of a file is hashed (with its size), so a huge file costs no more than this. */
const MAX_HASHED_BYTES = 1 << 20;

/** What a file holds now, as a short hash; `deleted` when it is gone; undefined for a directory. */
export async function contentFingerprint(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'deleted';
    if (code === 'EISDIR') return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return undefined;
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_HASHED_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return createHash('sha256').update(buffer.subarray(0, bytesRead)).update(`:${stat.size}`).digest('hex').slice(0, 32);
  } finally {
    await handle.close();
  }
}
