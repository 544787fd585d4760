// Which pid the MCP bridge registers (DESIGN §11): its runtime's, never an editor's. Real processes
// stand in for the parents: one named like VS Code, one that says it is an extension host.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chooseRuntimePid } from '../../../server/mcp/runtime-pid.js';

function running(command: string, args: string[]): ChildProcess {
  return spawn(command, args, { stdio: 'ignore' });
}

test('the parent runtime is registered; FLEET_RUNTIME_PID wins; a bad FLEET_RUNTIME_PID or no parent registers none', () => {
  assert.deepEqual(chooseRuntimePid({}, 4242).pid, 4242);
  assert.equal(chooseRuntimePid({ FLEET_RUNTIME_PID: '777' }, 4242).pid, 777);
  assert.equal(chooseRuntimePid({ FLEET_RUNTIME_PID: '777', VSCODE_PID: '4242' }, 4242).pid, 777);
  for (const bad of ['1', '0', '-5', 'abc', '12.5']) assert.equal(chooseRuntimePid({ FLEET_RUNTIME_PID: bad }, 4242).pid, undefined, bad);
  assert.equal(chooseRuntimePid({}, 1).pid, undefined);
});

test('an editor parent is never registered: VSCODE_PID, a process named code, an extension host', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-editor-'));
  symlinkSync(process.execPath, join(dir, 'code'));
  const code = running(join(dir, 'code'), ['-e', 'setInterval(() => {}, 1e9)']);
  const host = running(process.execPath, ['-e', 'setInterval(() => {}, 1e9)', '--', '--type=extensionHost']);
  const plain = running(process.execPath, ['-e', 'setInterval(() => {}, 1e9)']);
  t.after(() => ([code, host, plain].forEach((child) => child.kill('SIGKILL')), rmSync(dir, { recursive: true, force: true })));
  await Promise.all([code, host, plain].map((child) => new Promise((resolve) => child.once('spawn', resolve))));
  assert.equal(chooseRuntimePid({ VSCODE_PID: String(plain.pid) }, plain.pid).pid, undefined);
  assert.equal(chooseRuntimePid({}, plain.pid).pid, plain.pid);
  assert.equal(chooseRuntimePid({ VSCODE_PID: '99999999' }, plain.pid).pid, plain.pid, 'VSCODE_PID of another process (a terminal inside VS Code) is no editor parent');
  assert.match(chooseRuntimePid({}, code.pid).why, /code \(pid \d+\), an editor/);
  assert.equal(chooseRuntimePid({}, code.pid).pid, undefined);
  assert.equal(chooseRuntimePid({}, host.pid).pid, undefined);
});
