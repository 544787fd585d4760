// What the editor shows of a plane cut off from its JetStream cluster: a real 3-node cluster, a real
// plane whose only connection runs through a relay the test cuts, and the real language server on
// that plane's home, driven over stdio as VS Code drives it. The store's health reaches the
// editor's state by the plane's notices alone (nobody polls): unavailable after the cut, ok once
// the relay heals, applied the way the extension applies them, and shown on the status bar.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { FleetState } from '../../../extension/src/fleet-state.js';
import { describe } from '../../../extension/src/status-description.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { CLI } from '../../support/plane-process.js';
import { startTcpCut } from '../../support/tcp-cut.js';
import { LspNotifications } from '../../support/lsp-notifications.js';

const LANGUAGE_SERVER = fileURLToPath(new URL('../../../server/language-server/main.js', import.meta.url));

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** The language server of one window on `home`, with every notification it sends. */
async function startLanguageServer(home: string) {
  const child = spawn(process.execPath, [LANGUAGE_SERVER, '--stdio'], { env: { ...process.env, FLEET_PORT: '0' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const notifications = new LspNotifications(rpc);
  rpc.listen();
  await rpc.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: [], initializationOptions: { home, cliEntry: CLI } });
  await rpc.sendNotification('initialized', {});
  return { notifications, stop: () => (rpc.dispose(), child.kill()) };
}

test('the editor learns by notification that its plane is cut off from the cluster, and that it is back', async (t) => {
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const plane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'editor');
  const editor = await startLanguageServer(plane.home);
  const { notifications } = editor;
  const storeNews = (from: number) => notifications.matching('fleet/didChangeFleet', (changes) => changes.store !== undefined, 30_000, from);
  try {
    const loaded = await notifications.matching('fleet/didChangeState', (state) => state.connection.status === 'connected', 30_000);
    assert.deepEqual([loaded.store?.kind, loaded.store?.health, loaded.store?.stream], ['nats', 'ok', 'FLEET_editor'], 'loaded with the status');
    const view = new FleetState(loaded);
    assert.match(describe(view.view).tooltip, /Store: NATS JetStream, fleet `editor`/);

    const cutAt = Date.now();
    const beforeCut = notifications.seen.length;
    relay.cut();
    const cut = await storeNews(beforeCut);
    assert.equal(cut.store?.health, 'unavailable');
    assert.match(cut.store?.problems?.[0] ?? '', /no quorum/);
    t.diagnostic(`cut to the editor's notice: ${Date.now() - cutAt} ms`);
    view.apply(cut);
    const shown = describe(view.view);
    assert.match(shown.text, /store unreachable/);
    assert.equal(shown.error, true, 'in the error colour');

    const restoredAt = Date.now();
    const beforeRestore = notifications.seen.length;
    relay.restore();
    const back = await storeNews(beforeRestore);
    assert.equal(back.store?.health, 'ok');
    t.diagnostic(`relay healed to the editor's notice: ${Date.now() - restoredAt} ms`);
    view.apply(back);
    assert.deepEqual([describe(view.view).error, view.view.store?.health], [false, 'ok']);
    const news = notifications.all('fleet/didChangeFleet').flatMap((changes) => changes.store?.health ?? []);
    assert.deepEqual(news, ['unavailable', 'ok'], 'one notice per change: none repeated while cut off');
  } finally {
    editor.stop();
    await stopPlanes([plane]);
    await relay.close();
  }
});
