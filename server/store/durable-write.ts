// Crash-safe whole-file replacement, shared by the snapshot and by the plane's small state files
// (ledger.json, plane.json). A reader sees either the old content or the new, never a mix, and
// once the promise resolves the new content survives power loss.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_SUFFIX = '.tmp';

function tempPrefix(path: string): string {
  return `.${basename(path)}.`;
}

/** Makes renames and file creations inside `dir` durable: the rename itself lives in the directory. */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes a temp file beside `path`, fsyncs it, renames it over `path`, then fsyncs the directory. */
export async function writeFileDurably(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
): Promise<void> {
  // A unique name per write: concurrent writers never share a temp file, and a crashed writer's
  // leftover is recognisable by removeStaleTempFiles.
  const temp = join(dirname(path), `${tempPrefix(path)}${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dirname(path));
}

/** Removes temp files that a writer killed mid-write left beside `path`. Call only at startup. */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const prefix = tempPrefix(path);
  const dir = dirname(path);
  for (const name of await readdir(dir)) {
    if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX)) await unlink(join(dir, name));
  }
}
