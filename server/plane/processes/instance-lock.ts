import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { isSameProcess, processStartTime } from './process-identity.js';

interface LockOwner {
  pid: number;
  start?: string;
}

export class PlaneAlreadyRunningError extends Error {
  constructor(
    readonly home: string,
    readonly pid: number,
  ) {
    super(`a plane (pid ${pid}) already runs on FLEET_HOME ${home}: use it, or end it with \`fleet shutdown --home ${home}\``);
  }
}

/**
 * One plane per FLEET_HOME. The lock file holds the owner's pid and process start time, created
 * exclusively; a lock left by a killed plane (pid gone, or reused by another process) is taken
 * over, with a second exclusive file guarding the takeover so two starters cannot both win.
 */
export class InstanceLock {
  private constructor(private readonly path: string) {}

  static async acquire(path: string, home: string): Promise<InstanceLock> {
    const me: LockOwner = { pid: process.pid, start: processStartTime(process.pid) };
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await createExclusive(path, me)) return new InstanceLock(path);
      const owner = await readOwner(path);
      if (owner && isSameProcess(owner.pid, owner.start)) throw new PlaneAlreadyRunningError(home, owner.pid);
      await takeOverStale(path, owner);
    }
    throw new Error(`could not take the plane lock ${path}: another plane keeps starting on ${home}`);
  }

  async release(): Promise<void> {
    await unlink(this.path).catch(() => undefined);
  }
}

/**
 * Creates `path` with the owner already in it: the content goes to a private temp file first and
 * is then hard-linked into place (link fails if the path exists), so no one ever reads a lock
 * that exists but is still empty and mistakes it for a stale one.
 */
async function createExclusive(path: string, owner: LockOwner): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify(owner));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, ...(typeof parsed.start === 'string' && { start: parsed.start }) } : undefined;
  } catch {
    return undefined; // torn or vanished: stale either way
  }
}

async function takeOverStale(path: string, seen: LockOwner | undefined): Promise<void> {
  const guard = `${path}.takeover`;
  const me: LockOwner = { pid: process.pid, start: processStartTime(process.pid) };
  if (!(await createExclusive(guard, me))) {
    const other = await readOwner(guard);
    if (other && isSameProcess(other.pid, other.start)) return; // someone else is taking over: retry
    await unlink(guard).catch(() => undefined);
    return;
  }
  try {
    // Only remove the lock if it is still the stale one we judged.
    const now = await readOwner(path);
    if (JSON.stringify(now) === JSON.stringify(seen)) await rename(path, `${path}.stale`).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}
