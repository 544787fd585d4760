// The MCP bridge registers its runtime's pid (DESIGN §11), never an editor's; the plane a client
// starts runs in a session of its own (DESIGN §2), so no client is its ancestor.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from '../../support/git-repo.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';
import { connectTo, planePid, shutdownPlane } from './support.js';

/** Field 6 of /proc/<pid>/stat: the process's session id. */
function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

/** Starts `fleet mcp` as this test process's child (the test is the runtime) and joins through it. */
async function joinThroughBridge(home: string, repo: string, callsign: string, env: Record<string, string>): Promise<{ client: Client; log: () => string }> {
  const inherited = { ...(process.env as Record<string, string>) };
  delete inherited.VSCODE_PID;
  delete inherited.FLEET_RUNTIME_PID;
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo, env: { ...inherited, FLEET_HOME: home, FLEET_PORT: '0', ...env }, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: 'fleet-test', version: '1.0.0' });
  await client.connect(transport);
  const reply = (await client.callTool({ name: 'fleet_agent_join', arguments: { callsign, runtime: 'test', pid: 1 } })) as { isError?: boolean; content: { text: string }[] };
  assert.notEqual(reply.isError, true, `join failed: ${reply.content.map((c) => c.text).join('\n')}\n${log}`);
  return { client, log: () => log };
}

test('the bridge registers its parent runtime, none under VS Code, FLEET_RUNTIME_PID when set; the plane it started has its own session', async (t) => {
  const home = tempHome();
  const repo = makeRepo();
  const runtime = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
  t.after(async () => {
    runtime.kill('SIGKILL');
    await shutdownPlane(home);
    removeHome(home);
    removeHome(repo);
  });
  const plain = await joinThroughBridge(home, repo, 'ATLAS', {});
  const underEditor = await joinThroughBridge(home, repo, 'BOREAS', { VSCODE_PID: String(process.pid) });
  const named = await joinThroughBridge(home, repo, 'CIRRUS', { VSCODE_PID: String(process.pid), FLEET_RUNTIME_PID: String(runtime.pid) });
  t.after(() => Promise.all([plain, underEditor, named].map((bridge) => bridge.client.close())));

  const operator = await connectTo(home);
  t.after(() => operator.close());
  const pids = Object.fromEntries((await operator.call('fleet_roster', {})).agents.map((a) => [a.callsign, a.pid]));
  assert.deepEqual(pids, { ATLAS: process.pid, BOREAS: undefined, CIRRUS: runtime.pid }, 'the model’s pid 1 is never what the bridge registers');
  assert.match(underEditor.log(), /an editor: no process registered/);

  const plane = planePid(home);
  assert.notEqual(sessionOf(plane), sessionOf(process.pid), 'the plane shares a session with the client that started it');
  assert.equal(sessionOf(plane), plane, 'the plane leads a session of its own (setsid)');
});
