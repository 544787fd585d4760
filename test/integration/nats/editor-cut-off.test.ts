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
import { lspNotifications, type LspNotificationName, type LspNotificationParams } from '../../../contracts/lsp.js';
import { FleetState } from '../../../extension/src/fleet-state.js';
import { describe } from '../../../extension/src/status-description.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { CLI } from '../../support/plane-process.js';
import { startTcpCut } from '../../support/tcp-cut.js';

const LANGUAGE_SERVER = fileURLToPath(new URL('../../../server/language-server/main.js', import.meta.url));

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** The language server of one window on `home`, with every custom notification it sent, in order. */
function startLanguageServer(home: string) {
  const child = spawn(process.execPath, [LANGUAGE_SERVER, '--stdio'], { env: { ...process.env, FLEET_PORT: '0' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const seen: { method: string; params: unknown }[] = [];
  const waiters = new Set<() => void>();
  rpc.onNotification((method, params) => {
    seen.push({ method, params });
    for (const wake of waiters) wake();
  });
  rpc.listen();
  let from = 0;
  return {
    async initialize(): Promise<void> {
      await rpc.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: [], initializationOptions: { home, cliEntry: CLI } });
      await rpc.sendNotification('initialized', {});
    },
    /** The next notification `name` after those already taken for which `check` holds. */
    next<N extends LspNotificationName>(name: N, check: (params: LspNotificationParams<N>) => boolean, timeoutMs = 30_000): Promise<LspNotificationParams<N>> {
      return new Promise((resolve, reject) => {
        const look = () => {
          for (; from < seen.length; from++) {
            const { method, params } = seen[from]!;
            if (method !== name) continue;
            const parsed = lspNotifications[name].parse(params) as LspNotificationParams<N>;
            if (!check(parsed)) continue;
            from++;
            waiters.delete(look);
            clearTimeout(timer);
            return resolve(parsed);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no ${name} notification matched within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(look);
        look();
      });
    },
    stop(): void {
      rpc.dispose();
      child.kill();
    },
  };
}

test('the editor learns by notification that its plane is cut off from the cluster, and that it is back', async (t) => {
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const plane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'editor');
  const editor = startLanguageServer(plane.home);
  try {
    await editor.initialize();
    const loaded = await editor.next('fleet/didChangeState', (state) => state.connection.status === 'connected');
    assert.deepEqual([loaded.store?.kind, loaded.store?.health, loaded.store?.stream], ['nats', 'ok', 'FLEET_editor'], 'loaded with the status');
    const view = new FleetState(loaded);
    assert.match(describe(view.view).tooltip, /Store: NATS JetStream, fleet `editor`/);

    const cutAt = Date.now();
    relay.cut();
    const cut = await editor.next('fleet/didChangeFleet', (changes) => changes.store !== undefined);
    assert.equal(cut.store?.health, 'unavailable');
    t.diagnostic(`cut to the editor's notice: ${Date.now() - cutAt} ms`);
    assert.match(cut.store?.problems?.[0] ?? '', /no quorum/);
    view.apply(cut);
    const shown = describe(view.view);
    assert.match(shown.text, /store unreachable/);
    assert.equal(shown.error, true, 'in the error colour');

    const restoredAt = Date.now();
    relay.restore();
    const back = await editor.next('fleet/didChangeFleet', (changes) => changes.store !== undefined);
    assert.equal(back.store?.health, 'ok', 'the next health news is the recovery: no repeats while cut off');
    t.diagnostic(`relay healed to the editor's notice: ${Date.now() - restoredAt} ms`);
    view.apply(back);
    assert.deepEqual([describe(view.view).error, view.view.store?.health], [false, 'ok']);
  } finally {
    editor.stop();
    await stopPlanes([plane]);
    await relay.close();
  }
});
