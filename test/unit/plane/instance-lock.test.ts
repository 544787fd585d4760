// The plane's instance lock (DESIGN §2): a lock left by a plane that is now a zombie (exited, not
// yet reaped by its parent) is stale, not a running plane.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { InstanceLock, PlaneAlreadyRunningError } from '../../../server/plane/processes/instance-lock.js';
import { processStartTime } from '../../../server/plane/processes/process-identity.js';
import { rawStartTime, startZombie } from '../../support/zombie.js';

test('a lock held by a zombie is taken over; one held by a live process is refused', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'fleet-lock-'));
  const { pid, parent } = await startZombie();
  t.after(() => (parent.kill('SIGKILL'), rmSync(home, { recursive: true, force: true })));
  const path = join(home, 'plane.lock');
  writeFileSync(path, JSON.stringify({ pid, start: rawStartTime(pid) }));
  const lock = await InstanceLock.acquire(path, home);
  await lock.release();

  writeFileSync(path, JSON.stringify({ pid: parent.pid, start: processStartTime(parent.pid!) }));
  await assert.rejects(InstanceLock.acquire(path, home), PlaneAlreadyRunningError);
});
