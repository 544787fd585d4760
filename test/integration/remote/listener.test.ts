// DESIGN §13 and §5: the listener beyond loopback exists only with TLS, speaks only TLS, takes only
// service tokens; the loopback endpoint keeps its own checks; the operator manages tokens locally.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { HandshakeRefusedError, PlaneClient } from '../../../server/client/plane-client.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { createToken, makeTestCa, remotePlaneForFile } from '../../support/remote-plane.js';

const file = remotePlaneForFile();

/** The HTTP status and body a raw upgrade attempt gets. */
function upgradeAnswer(url: string, options: ConstructorParameters<typeof WebSocket>[2]): Promise<{ status: number; body: string }> {
  const socket = new WebSocket(url, options);
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('open', () => {
      socket.close();
      reject(new Error(`${url} accepted the upgrade`));
    });
    socket.once('error', (error) => reject(error));
  });
}

test('fleet serve --listen refuses to start without TLS, with a key that does not fit, or with a bad address, saying what to pass', async () => {
  const home = tempHome();
  const tls = makeTestCa();
  try {
    const noTls = await runCli(['serve', '--listen', '127.0.0.1:0'], { home, cwd: file.root });
    assert.equal(noTls.code, 2);
    assert.match(noTls.stderr, /serves beyond loopback, which the plane does only with TLS: pass --tls-cert FILE and --tls-key FILE/);
    const halfTls = await runCli(['serve', '--listen', '127.0.0.1:0', '--tls-cert', tls.certFile], { home, cwd: file.root });
    assert.equal(halfTls.code, 2);
    assert.match(halfTls.stderr, /only with TLS/);
    writeFileSync(join(tls.dir, 'other.key'), readFileSync(join(tls.dir, 'ca.key')));
    const mismatch = await runCli(['serve', '--listen', '127.0.0.1:0', '--tls-cert', tls.certFile, '--tls-key', join(tls.dir, 'other.key')], { home, cwd: file.root });
    assert.equal(mismatch.code, 2);
    assert.match(mismatch.stderr, new RegExp(`refusing to start: the TLS certificate ${tls.certFile} and key .*other\\.key cannot serve`));
    const missing = await runCli(['serve', '--listen', '127.0.0.1:0', '--tls-cert', join(tls.dir, 'nope.pem'), '--tls-key', tls.keyFile], { home, cwd: file.root });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read the TLS certificate .*nope\.pem \(ENOENT\)/);
    const badAddress = await runCli(['serve', '--listen', '8443', '--tls-cert', tls.certFile, '--tls-key', tls.keyFile], { home, cwd: file.root });
    assert.equal(badAddress.code, 2);
    assert.match(badAddress.stderr, /--listen 8443 is not ADDR:PORT/);
  } finally {
    removeHome(home);
    removeHome(tls.dir);
  }
});

test('plain HTTP and plain ws:// to the listener are answered in plain text: TLS only', async () => {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    get({ host: '127.0.0.1', port: file.remote.listenPort, path: '/mcp' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
  assert.equal(answer.status, 400);
  assert.match(answer.body, /this listener speaks TLS only: use https:\/\/ \(MCP at \/mcp\) or wss:\/\//);
  const { token } = await createToken(file.remote, 'PLAIN');
  const ws = await upgradeAnswer(`ws://127.0.0.1:${file.remote.listenPort}/`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(ws.status, 400);
  assert.match(ws.body, /TLS only/);
});

test('the loopback endpoint is unaffected: the plane token works there, a service token does not, and a non-loopback Host or an Origin is still refused', async () => {
  const { token } = await createToken(file.remote, 'LOCALTRY');
  const address = { port: file.remote.plane.port };
  const local = await PlaneClient.connect(address, file.remote.plane.token);
  const status = await local.call('fleet_status', {});
  assert.match(status.plane.listen ?? '', /^127\.0\.0\.1:\d+$/, 'fleet_status names the TLS listener');
  local.close();
  const text = await runCli(['status'], { home: file.remote.plane.home, cwd: file.root });
  assert.match(text.stdout, new RegExp(`remote agents: wss://${status.plane.listen!.replace(/\./g, '\\.')} \\(TLS`));
  const refused = await PlaneClient.connect(address, token).then(
    () => assert.fail('a service token was accepted on loopback'),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof HandshakeRefusedError);
  assert.equal(refused.status, 401);
  assert.match(refused.reason, /wrong plane token/);
  const rebinding = await upgradeAnswer(`ws://127.0.0.1:${file.remote.plane.port}/`, { headers: { authorization: `Bearer ${file.remote.plane.token}`, host: 'fleet.example.com' } });
  assert.equal(rebinding.status, 403);
  assert.match(rebinding.body, /is not loopback/);
  const browser = await upgradeAnswer(`ws://127.0.0.1:${file.remote.plane.port}/`, { headers: { authorization: `Bearer ${file.remote.plane.token}` }, origin: 'https://evil.example' });
  assert.equal(browser.status, 403);
  assert.match(browser.body, /browsers and web pages may not reach the plane/);
  // On the listener too, a browser's Origin is refused even with a good token.
  const remoteBrowser = await upgradeAnswer(file.remote.url, { ca: file.remote.tls.ca, headers: { authorization: `Bearer ${token}` }, origin: 'https://evil.example' });
  assert.equal(remoteBrowser.status, 403);
});

test('fleet token: create prints the token once and stores only its hash (0600); list never shows it; role operator is refused', async () => {
  const created = await runCli(['token', 'create', '--callsign', 'CASTOR', '--role', 'verifier', '--ttl', '12h'], { home: file.remote.plane.home, cwd: file.root });
  assert.equal(created.code, 0, created.stderr);
  const token = created.stdout.split('\n')[0]!;
  assert.match(token, /^fst\.tok_[\w-]+\.[\w-]{43}$/);
  assert.match(created.stdout, /for CASTOR \(role verifier\), expires .*only time it is shown/s);
  const tokensFile = join(file.remote.plane.home, 'service-tokens.json');
  assert.equal(statSync(tokensFile).mode & 0o777, 0o600);
  const stored = readFileSync(tokensFile, 'utf8');
  assert.ok(!stored.includes(token.split('.')[2]!), 'the token secret is stored in clear');
  const listed = await runCli(['token', 'list', '--json'], { home: file.remote.plane.home, cwd: file.root });
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(!listed.stdout.includes(token.split('.')[2]!));
  const castor = (JSON.parse(listed.stdout) as { tokens: Record<string, unknown>[] }).tokens.find((t) => t.callsign === 'CASTOR');
  assert.deepEqual(Object.keys(castor!).sort(), ['callsign', 'createdAt', 'createdBy', 'expiresAt', 'id', 'revokedAt', 'role', 'status']);
  assert.equal(castor!.status, 'active');
  const operator = await runCli(['token', 'create', '--callsign', 'BOSS', '--role', 'operator'], { home: file.remote.plane.home, cwd: file.root });
  assert.equal(operator.code, 2);
  assert.match(operator.stderr, /operator is never remote/);
  // Past the CLI, the method table refuses it too.
  const viaCall = await runCli(['call', 'fleet_token_create', '--json', '{"callsign":"BOSS","role":"operator"}'], { home: file.remote.plane.home, cwd: file.root });
  assert.equal(viaCall.code, 2);
  assert.match(viaCall.stderr, /role/);
});

test('the CLI reaches a remote plane with FLEET_URL, FLEET_TOKEN and FLEET_CA, as its agent only, never as the operator', async () => {
  const { token } = await createToken(file.remote, 'POLLUX', 'builder');
  const remoteHome = tempHome();
  const env = { FLEET_URL: file.remote.url, FLEET_TOKEN: token, FLEET_CA: file.remote.tls.caFile };
  try {
    const joined = await runCli(['join', '--callsign', 'POLLUX', '--runtime', 'github-actions'], { home: remoteHome, cwd: file.root, env });
    assert.equal(joined.code, 0, joined.stderr);
    assert.match(joined.stdout, /joined as POLLUX/);
    execFileSync('git', ['-C', file.root, 'config', 'fleet.scope', 'github.com/acme/app']);
    const claimed = await runCli(['claim', '--as', 'POLLUX', '--scope', 'github.com/acme/app', 'README.md', '--json'], { home: remoteHome, cwd: file.root, env });
    assert.equal(claimed.code, 0, claimed.stderr);
    assert.equal((JSON.parse(claimed.stdout) as { granted: boolean }).granted, true);
    const status = await runCli(['status', '--json'], { home: remoteHome, cwd: file.root, env });
    assert.equal(status.code, 0, status.stderr);
    assert.ok((JSON.parse(status.stdout) as { agents: { callsign: string }[] }).agents.some((a) => a.callsign === 'POLLUX'));
    const resume = await runCli(['resume'], { home: remoteHome, cwd: file.root, env });
    assert.equal(resume.code, 2);
    assert.match(resume.stderr, /acts as the operator, who is never remote/);
    const plain = await runCli(['status'], { home: remoteHome, cwd: file.root, env: { ...env, FLEET_URL: `ws://localhost:${file.remote.listenPort}/` } });
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /reached over TLS only/);
    const untrusted = await runCli(['status'], { home: remoteHome, cwd: file.root, env: { ...env, FLEET_CA: '' } });
    assert.equal(untrusted.code, 2);
    assert.match(untrusted.stderr, /presented a certificate this machine does not trust .*: set FLEET_CA/);
    const noToken = await runCli(['status'], { home: remoteHome, cwd: file.root, env: { ...env, FLEET_TOKEN: '' } });
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /FLEET_TOKEN is not/);
  } finally {
    removeHome(remoteHome);
  }
});
