// Crash-safe whole-file replacement, shared by the snapshot and by the plane's small state files
// (ledger.json, plane.json). A reader sees either the old content or the new, never a mix, and
// once the promise resolves the new content survives power loss.
import { randomBytes } from 'node:crypto';
import { closeSync, fdatasync, openSync, rmSync, writeSync } from 'node:fs';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
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

// A unique name per write: concurrent writers never share a temp file, and a crashed writer's
// leftover is recognisable by removeStaleTempFiles.
function tempPathFor(path: string): string {
  return join(dirname(path), `${tempPrefix(path)}${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

/** Moves a synced temp file over `path` and makes the move durable; removes the temp file on failure. */
async function replaceWith(temp: string, path: string, writeAndSync: () => Promise<void>): Promise<void> {
  try {
    await writeAndSync();
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dirname(path));
}

/** Writes a temp file beside `path`, fsyncs it, renames it over `path`, then fsyncs the directory. */
export async function writeFileDurably(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
): Promise<void> {
  const temp = tempPathFor(path);
  await replaceWith(temp, path, async () => {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}

const CHUNK_CHARS = 64 * 1024;
/** fdatasync in the thread pool: the event loop goes on serving while the disk works. */
export const fdatasyncAsync = promisify(fdatasync);

/** Content written to a temp file beside its destination, not yet durable nor in place. */
export interface StagedFile {
  /** fdatasyncs the temp file, renames it over the destination and fsyncs the directory. */
  commit(): Promise<void>;
  /** Drops the temp file instead. */
  discard(): void;
}

/**
 * Writes content too large to hold as one string to a temp file beside `path`: `produce` hands it
 * over in pieces, which go to the file as they come (64 KB at a time), so it never exists whole in
 * memory. `produce` runs synchronously, before this returns, so it reads one consistent state;
 * the slow part, waiting for the disk, is left to `commit`. Throws what `produce` throws, leaving
 * no temp file behind.
 */
export function stageFile(path: string, produce: (write: (text: string) => void) => void, mode = 0o600): StagedFile {
  const temp = tempPathFor(path);
  const fd = openSync(temp, 'wx', mode);
  const discard = () => {
    closeSync(fd);
    rmSync(temp, { force: true });
  };
  try {
    writeInChunks(fd, produce);
  } catch (error) {
    discard();
    throw error;
  }
  let settled = false;
  return {
    commit: () => {
      settled = true;
      return replaceWith(temp, path, async () => {
        try {
          await fdatasyncAsync(fd);
        } finally {
          closeSync(fd);
        }
      });
    },
    discard: () => {
      if (settled) return;
      settled = true;
      discard();
    },
  };
}

/** stageFile, then commit: the whole durable replacement, for content produced in pieces. */
export function writeChunksDurably(path: string, produce: (write: (text: string) => void) => void, mode = 0o600): Promise<void> {
  try {
    return stageFile(path, produce, mode).commit();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function writeInChunks(fd: number, produce: (write: (text: string) => void) => void): void {
  let pending = '';
  produce((text) => {
    pending += text;
    if (pending.length < CHUNK_CHARS) return;
    writeAllSync(fd, Buffer.from(pending));
    pending = '';
  });
  writeAllSync(fd, Buffer.from(pending));
}

/**
 * write(2) may take less than it was given (a nearly full disk, a file size limit): the rest is
 * written too, and the error that stopped it surfaces from the next call, so nothing is committed
 * short. With `position`, the bytes go there (pwrite) instead of to the file's current offset.
 */
export function writeAllSync(fd: number, buffer: Buffer, position?: number): void {
  for (let offset = 0; offset < buffer.length; ) {
    offset += writeSync(fd, buffer, offset, buffer.length - offset, position === undefined ? null : position + offset);
  }
}

/** Removes temp files that a writer killed mid-write left beside `path`. Call only at startup. */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const prefix = tempPrefix(path);
  const dir = dirname(path);
  for (const name of await readdir(dir)) {
    if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX)) await unlink(join(dir, name));
  }
}
