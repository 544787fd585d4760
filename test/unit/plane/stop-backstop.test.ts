// Which pids the stop backstop may signal (DESIGN §4, §11). Judged without sending anything, so a
// regression can never signal pid 1 of the machine running the tests.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import type { AgentRecord } from '../../../server/core/state.js';
import { processStartTime } from '../../../server/plane/processes/process-identity.js';
import { signallablePid } from '../../../server/plane/processes/stop-backstop.js';

const agent = (pid: number, pidStart: string | undefined, gone?: 'left'): AgentRecord => ({
  agentId: 'ag-1', callsign: 'ATLAS', runtime: 'test', role: 'worker', tier: 'local', tokenHash: 'x', joinedAt: 0, lastSeen: 0, reported: 'active', pid, pidStart, gone,
});

test('only the registered process itself: never pid 1, the plane, a pid without a start time, a reused pid or a gone agent', async (t) => {
  const runtime = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
  t.after(() => runtime.kill('SIGKILL'));
  await new Promise((resolve) => runtime.once('spawn', resolve));
  const pid = runtime.pid!;
  const start = processStartTime(pid)!;
  assert.equal(signallablePid(agent(pid, start)), pid);
  assert.equal(signallablePid(agent(1, processStartTime(1))), undefined, 'pid 1, even with its own start time');
  assert.equal(signallablePid(agent(pid, start), pid), undefined, 'the plane itself');
  assert.equal(signallablePid(agent(pid, undefined)), undefined, 'a pid recorded without a start time');
  assert.equal(signallablePid(agent(pid, `${start}0`)), undefined, 'a pid that now names another process');
  assert.equal(signallablePid(agent(pid, start, 'left')), undefined, 'an agent no longer on the roster');
});
