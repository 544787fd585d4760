// The Fleet language server on its own (the bundled dist/language-server.cjs over stdio, no VS Code):
// a multi-root workspace of two repositories, a real plane it starts, and the custom protocol of
// contracts/lsp.ts — only the repository an agent claims in gets ownership and read-only globs.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-languageserver/node';
import { PlaneClient } from '../../server/client/plane-client.js';
import { connectToPlane, readDiscovery } from '../../server/client/connect.js';
import { lspNotifications, lspRequests, type LspNotificationName, type LspNotificationParams } from '../../contracts/lsp.js';
import { bundleForTests, CLI_BUNDLE, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane } from './support/fleet-fixtures.js';
import { TestAgent } from './suite/test-agent.js';
import { LspNotifications } from '../support/lsp-notifications.js';

const home = makeHome();
const repoA = makeWorkspace();
const repoB = makeWorkspace();
let server: ChildProcess;
let connection: MessageConnection;
let notifications: LspNotifications;

before(async () => {
  bundleForTests();
  server = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'language-server.cjs'), '--stdio'], { env: { ...process.env, FLEET_PORT: '0' }, stdio: ['pipe', 'pipe', 'inherit'] });
  connection = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  notifications = new LspNotifications(connection);
  connection.listen();
  const init = (await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    workspaceFolders: [repoA, repoB].map((path) => ({ uri: pathToFileURL(path).toString(), name: path })),
    initializationOptions: { home, cliEntry: CLI_BUNDLE },
  })) as { capabilities: Record<string, unknown> };
  assert.equal(init.capabilities.hoverProvider, true);
  await connection.sendNotification('initialized', {});
});

after(async () => {
  connection?.dispose();
  server?.kill();
  await stopPlane(home);
  for (const dir of [home, repoA, repoB]) removeDir(dir);
});

/** The first notification `name` for which `check` holds, among those from the `from`th on (see LspNotifications). */
function notification<N extends LspNotificationName>(name: N, check: (params: LspNotificationParams<N>) => boolean, timeoutMs = 15_000, from = 0): Promise<LspNotificationParams<N>> {
  return notifications.matching(name, check, timeoutMs, from);
}

const fileUri = (repo: string, path: string) => pathToFileURL(join(repo, path)).toString();

/** A language server (a window) on `home`, resolved once it is connected, with the plane it sees. */
async function startWindow(home: string, folder: string): Promise<{ pid: number; stop: () => void }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'language-server.cjs'), '--stdio'], { env: { ...process.env, FLEET_PORT: '0' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const connected = new Promise<number>((resolve) => {
    rpc.onNotification('fleet/didChangeState', (params: unknown) => {
      const state = lspNotifications['fleet/didChangeState'].parse(params);
      if (state.connection.status === 'connected' && state.connection.plane) resolve(state.connection.plane.pid);
    });
  });
  rpc.listen();
  await rpc.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: [{ uri: pathToFileURL(folder).toString(), name: 'w' }], initializationOptions: { home, cliEntry: CLI_BUNDLE } });
  await rpc.sendNotification('initialized', {});
  return { pid: await connected, stop: () => (rpc.dispose(), child.kill()) };
}

test('multi-root: a claim in one repository shows there only, as ownership (blocked) and diagnostic', async () => {
  const connected = await notification('fleet/didChangeState', (state) => state.connection.status === 'connected');
  assert.equal(connected.connection.home, home);

  const ask = async () => lspRequests['fleet/ownership'].result.parse(await connection.sendRequest('fleet/ownership', { uris: [fileUri(repoA, 'src/a.ts'), fileUri(repoB, 'src/a.ts')] }));
  assert.deepEqual((await ask()).entries.map((entry) => entry.ownership), [null, null], 'nobody holds anything yet');

  const agent = await TestAgent.join(home, 'ZEPHYR');
  try {
    const changed = notification('fleet/didChangeOwnership', ({ entries }) => entries.some((entry) => entry.uri === fileUri(repoB, 'src/a.ts') && entry.ownership?.mark === 'ZE'));
    assert.ok((await agent.claim(['src/**'], repoB, { reason: 'multi-root' })).granted);
    const { entries } = await changed;
    assert.ok(!entries.some((entry) => entry.uri === fileUri(repoA, 'src/a.ts')), 'the other repository is not told anything');

    const [inA, inB] = (await ask()).entries;
    assert.equal(inA!.ownership, null, 'same path, other repository: free');
    assert.equal(inB!.ownership?.kind, 'other');
    assert.equal(inB!.ownership?.blocked, true);
    assert.equal(inB!.ownership?.holders[0]?.callsign, 'ZEPHYR');

    const diagnostics = new Promise<{ uri: string; diagnostics: { message: string }[] }>((resolve) => {
      connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; diagnostics: { message: string }[] }) => {
        if (params.uri === fileUri(repoB, 'src/a.ts') && params.diagnostics.length > 0) resolve(params);
      });
    });
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: fileUri(repoB, 'src/a.ts'), languageId: 'typescript', version: 1, text: 'export const a = 1;\n' } });
    assert.match((await diagnostics).diagnostics[0]!.message, /ZEPHYR's exclusive territory/);

    const freed = notification('fleet/didChangeOwnership', ({ entries: list }) => list.some((entry) => entry.uri === fileUri(repoB, 'src/a.ts') && entry.ownership === null));
    await agent.release(['src/**'], repoB);
    await freed;
  } finally {
    agent.close();
  }
});

test('a repository inside a workspace folder (fleet demo --here): once its files are asked about, its claims have a root here, and the editor is told to open it (fleet/didFindNestedRepository)', async () => {
  const nested = join(repoA, '.fleet-demo');
  renameSync(makeWorkspace(), nested);
  const agent = await TestAgent.join(home, 'DEMOBOT');
  try {
    assert.ok((await agent.claim(['src/b.ts'], nested, { reason: 'demo' })).granted);
    const rooted = notification('fleet/didChangeState', (state) => state.claims.some((claim) => claim.holder === 'DEMOBOT' && claim.root === nested));
    const found = notification('fleet/didFindNestedRepository', ({ root }) => root === nested);
    const { entries } = lspRequests['fleet/ownership'].result.parse(await connection.sendRequest('fleet/ownership', { uris: [fileUri(nested, 'src/b.ts')] }));
    assert.equal(entries[0]!.ownership?.holders[0]?.callsign, 'DEMOBOT');
    await rooted; // on main the claim stayed without a root: Territory said "not open here"
    await found;
  } finally {
    await agent.release(['src/b.ts'], nested);
    agent.close();
  }
});

test("a write the plane's watcher sees in another agent's territory reaches the editor as fleet/didSeeViolation", async () => {
  const holder = await TestAgent.join(home, 'HOLDER');
  const found = readDiscovery(home)!;
  const writer = await PlaneClient.connect(found.discovery, found.token, 'test-writer');
  const operator = await PlaneClient.connect(found.discovery, found.token, 'test-operator');
  try {
    assert.ok((await holder.claim(['src/b.ts'], repoB)).granted);
    await writer.call('fleet_agent_join', { callsign: 'WRITER', runtime: 'script', worktree: repoB });
    await operator.call('fleet_worktree_changes', { worktree: repoB }); // resolves once repoB is watched
    const seenByEditor = notification('fleet/didSeeViolation', ({ violation }) => violation.path === 'src/b.ts');
    writeFileSync(join(repoB, 'src/b.ts'), 'export const b = "WRITER was here";\n');
    const listed = notification('fleet/didChangeViolations', ({ violations }) => violations.some((seen) => seen.violation.path === 'src/b.ts'));
    const { violation, file } = await seenByEditor;
    assert.deepEqual([violation.writer, violation.holder, file], ['WRITER', 'HOLDER', join(repoB, 'src/b.ts')]);
    assert.deepEqual((await listed).violations.map((seen) => seen.file), [join(repoB, 'src/b.ts')], 'the unacknowledged list the Explorer marks');

    // The operator acknowledges it: the list the editor keeps drops it.
    const cleared = notification('fleet/didChangeViolations', ({ violations }) => violations.length === 0, 15_000, notifications.seen.length);
    const acknowledger = await connectToPlane({ home, client: 'test-acknowledger', autoStart: false, credential: 'operator' });
    assert.deepEqual((await acknowledger.call('fleet_violation_ack', { ids: [violation.id] })).acknowledged, [violation.id]);
    acknowledger.close();
    await cleared;
  } finally {
    await writer.call('fleet_agent_leave', {});
    for (const client of [writer, operator]) client.close();
    await holder.leave();
  }
});

test("a conflict forecast between two agents' worktrees of a workspace repository reaches the editor as that workspace's file (fleet/didChangeForecast)", async () => {
  const found = readDiscovery(home)!;
  const trees = makeHome();
  const agents: PlaneClient[] = [];
  try {
    for (const callsign of ['ATLAS', 'BOLT']) {
      const worktree = join(trees, callsign.toLowerCase());
      execFileSync('git', ['-C', repoB, 'worktree', 'add', '-q', '-b', `forecast-${callsign.toLowerCase()}`, worktree, 'HEAD'], { stdio: 'ignore' });
      const agent = await PlaneClient.connect(found.discovery, found.token, `test-${callsign}`);
      agents.push(agent);
      await agent.call('fleet_agent_join', { callsign, runtime: 'script', worktree });
      // Both add the same new file with different text: an add/add conflict when their branches meet.
      writeFileSync(join(worktree, 'forecast.txt'), `${callsign} wrote this\n`);
    }
    const forecast = await notification('fleet/didChangeForecast', ({ conflicts }) => conflicts.length > 0, 30_000);
    assert.deepEqual(forecast.conflicts[0]!.files, [join(repoB, 'forecast.txt')], "the file of this window's worktree of the repository");
    assert.deepEqual([forecast.conflicts[0]!.conflict.callsign, forecast.conflicts[0]!.conflict.otherCallsign].sort(), ['ATLAS', 'BOLT']);
    assert.deepEqual(forecast.writeSets.map((w) => w.callsign).sort(), ['ATLAS', 'BOLT']);
  } finally {
    for (const agent of agents) {
      await agent.call('fleet_agent_leave', {});
      agent.close();
    }
    removeDir(trees);
  }
});

test('two windows opening at once on an empty FLEET_HOME share one plane', async () => {
  const emptyHome = makeHome();
  const windows = await Promise.all([startWindow(emptyHome, repoA), startWindow(emptyHome, repoB)]);
  try {
    assert.equal(windows[0]!.pid, windows[1]!.pid, 'both windows are connected to the same plane');
    const starts = readFileSync(join(emptyHome, 'plane.log'), 'utf8').split('\n').filter((line) => /listening on 127\.0\.0\.1/.test(line));
    assert.equal(starts.length, 1, 'one plane listened; any second starter lost the lock and exited');
  } finally {
    for (const window of windows) window.stop();
    await stopPlane(emptyHome);
    removeDir(emptyHome);
  }
});
