// DESIGN.md §5, security: the plane serves loopback only, every upgrade must present the plane token,
// and any Origin (a web page, or `null`) or a Host that is not loopback (DNS rebinding) is refused
// before the handshake, through either door: TCP on 127.0.0.1 and the Unix socket in FLEET_HOME. Also: the token file is private and new at every start, one plane per home,
// and an oversized frame costs only its own connection. All against a real `fleet serve`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { WebSocket, type RawData } from 'ws';
import { MAX_FRAME_BYTES, PLANE_VERSION } from '../../contracts/index.js';
import { overUnixSocket } from '../../server/transport/unix-socket.js';
import { CLI, removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../support/plane-process.js';

type Attempt = { opened: true; socket: WebSocket } | { opened: false; status: number; body: string };

/** One upgrade at `url` with exactly these extra headers; resolves with the open socket or the refusal. */
function attemptUpgrade(url: string, headers: Record<string, string>, options: WebSocket.ClientOptions = {}): Promise<Attempt> {
  const socket = new WebSocket(url, { ...options, headers, handshakeTimeout: 5000 });
  let opened = false;
  socket.on('open', () => (opened = true));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ opened: true, socket }));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        // A refused upgrade must never have become a WebSocket, not even for a moment.
        if (opened || socket.readyState === WebSocket.OPEN) reject(new Error('a refused upgrade opened a WebSocket'));
        else resolve({ opened: false, status: response.statusCode ?? 0, body });
      });
    });
    socket.on('error', reject);
  });
}

interface Reply {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Sends one frame and resolves with the reply carrying `id`. */
function exchange(socket: WebSocket, id: string, frame: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: RawData) => {
      const reply = JSON.parse(data.toString()) as Reply;
      if (reply.id !== id) return;
      socket.off('message', onMessage);
      resolve(reply);
    };
    socket.on('message', onMessage);
    socket.once('close', (code) => reject(new Error(`the plane closed the connection (${code}) before answering ${id}`)));
    socket.send(frame);
  });
}

let nextId = 0;
function call(socket: WebSocket, method: string, params: object = {}): Promise<Reply> {
  const id = `${method}-${++nextId}`;
  return exchange(socket, id, JSON.stringify({ jsonrpc: '2.0', id, method, params }));
}

const tcpUrl = (port: number) => `ws://127.0.0.1:${port}/`;

async function openSocket(plane: PlaneProcess): Promise<WebSocket> {
  const attempt = await attemptUpgrade(tcpUrl(plane.port), { authorization: `Bearer ${plane.token}` });
  assert.ok(attempt.opened, 'the valid upgrade was refused');
  return attempt.socket;
}

/** The plane's two doors, reached as PlaneClient reaches them; over the socket the URL says localhost. */
const doors: { name: string; host: string; address: (p: PlaneProcess) => { url: string; options?: WebSocket.ClientOptions }; raw: (p: PlaneProcess) => Socket }[] = [
  { name: 'TCP', host: '127.0.0.1:PORT', address: (p) => ({ url: tcpUrl(p.port) }), raw: (p) => netConnect(p.port, '127.0.0.1') },
  { name: 'the Unix socket', host: 'localhost', address: (p) => overUnixSocket(p.socket!), raw: (p) => netConnect(p.socket!) },
];
const upgradeThrough = (door: (typeof doors)[number], plane: PlaneProcess, headers: Record<string, string>) => {
  const { url, options } = door.address(plane);
  return attemptUpgrade(url, headers, options);
};

for (const door of doors) describe(`the WebSocket handshake over ${door.name}`, () => {
  let plane: PlaneProcess;
  before(async () => {
    plane = await startPlaneProcess();
    assert.ok(plane.socket, 'plane.json names no Unix socket');
  });
  after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const otherToken = (token: string) => `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`;
  const refused: { name: string; headers: (p: PlaneProcess) => Record<string, string>; status: 401 | 403; reason: RegExp }[] = [
    { name: 'no Authorization header', headers: () => ({}), status: 401, reason: /token/ },
    { name: 'a wrong token of the same length', headers: (p) => bearer(otherToken(p.token)), status: 401, reason: /token/ },
    { name: 'the token minus its last character', headers: (p) => bearer(p.token.slice(0, -1)), status: 401, reason: /token/ },
    { name: 'the token plus one character', headers: (p) => bearer(`${p.token}A`), status: 401, reason: /token/ },
    { name: 'a much longer bearer', headers: (p) => bearer(p.token.repeat(10)), status: 401, reason: /token/ },
    { name: 'an empty bearer', headers: () => ({ authorization: 'Bearer ' }), status: 401, reason: /token/ },
    { name: 'the token without the Bearer scheme', headers: (p) => ({ authorization: p.token }), status: 401, reason: /token/ },
    { name: 'the token as Basic credentials', headers: (p) => ({ authorization: `Basic ${Buffer.from(`fleet:${p.token}`).toString('base64')}` }), status: 401, reason: /token/ },
    { name: 'the right token from a web page (Origin https://evil.example)', headers: (p) => ({ ...bearer(p.token), origin: 'https://evil.example' }), status: 403, reason: /Origin/ },
    { name: 'the right token from a sandboxed page (Origin null)', headers: (p) => ({ ...bearer(p.token), origin: 'null' }), status: 403, reason: /Origin/ },
    { name: 'the right token from a page on loopback itself', headers: (p) => ({ ...bearer(p.token), origin: `http://127.0.0.1:${p.port}` }), status: 403, reason: /Origin/ },
    { name: 'the right token from a webview (Origin vscode-webview://…)', headers: (p) => ({ ...bearer(p.token), origin: 'vscode-webview://0a1b2c' }), status: 403, reason: /Origin/ },
    { name: 'the right token with Host evil.example (DNS rebinding)', headers: (p) => ({ ...bearer(p.token), host: `evil.example:${p.port}` }), status: 403, reason: /Host/ },
    { name: 'the right token with Host 127.0.0.1.evil.example', headers: (p) => ({ ...bearer(p.token), host: `127.0.0.1.evil.example:${p.port}` }), status: 403, reason: /Host/ },
    { name: 'the right token with Host localhost.evil.example', headers: (p) => ({ ...bearer(p.token), host: 'localhost.evil.example' }), status: 403, reason: /Host/ },
  ];
  for (const { name, headers, status, reason } of refused) {
    it(`refuses ${name} with ${status}, before any WebSocket opens`, async () => {
      const attempt = await upgradeThrough(door, plane, headers(plane));
      assert.equal(attempt.opened, false, 'the upgrade was accepted');
      if (attempt.opened) return;
      assert.equal(attempt.status, status, attempt.body);
      assert.match(attempt.body, reason, 'the refusal says why');
    });
  }

  const accepted: { name: string; host?: (p: PlaneProcess) => string; authorization?: (p: PlaneProcess) => string }[] = [
    { name: `the right token and the default Host (${door.host})` },
    { name: 'the right token and Host localhost:PORT', host: (p) => `localhost:${p.port}` },
    { name: 'the right token and Host [::1]:PORT', host: (p) => `[::1]:${p.port}` },
    // The auth scheme is case-insensitive (RFC 9110 §11.1): clients that send `bearer` are not "missing" a token.
    { name: 'the right token under the scheme spelled "bearer"', authorization: (p) => `bearer ${p.token}` },
    { name: 'the right token under the scheme spelled "BEARER", two spaces before it', authorization: (p) => `BEARER  ${p.token}` },
  ];
  for (const { name, host, authorization } of accepted) {
    it(`accepts ${name}, and the connection can call fleet_roster`, async () => {
      const attempt = await upgradeThrough(door, plane, { ...bearer(plane.token), ...(host && { host: host(plane) }), ...(authorization && { authorization: authorization(plane) }) });
      assert.ok(attempt.opened, attempt.opened ? '' : `refused ${attempt.status}: ${attempt.body}`);
      try {
        const reply = await call(attempt.socket, 'fleet_roster');
        assert.ok(Array.isArray((reply.result as { agents?: unknown }).agents), JSON.stringify(reply));
      } finally {
        attempt.socket.close();
      }
    });
  }

  it('refuses an upgrade without a Host header', async () => {
    const socket = door.raw(plane);
    const key = Buffer.from('0123456789abcdef').toString('base64');
    socket.write(
      `GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\nAuthorization: Bearer ${plane.token}\r\n\r\n`,
    );
    const response = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(response, /^HTTP\/1\.1 (400|403) /, `expected a refusal, got: ${response.slice(0, 200)}`);
  });

});

describe('the plane process', () => {
  let plane: PlaneProcess;
  before(async () => {
    plane = await startPlaneProcess();
  });
  after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });

  it('announces its port, socket, pid and version in plane.json', () => {
    const discovery = JSON.parse(readFileSync(join(plane.home, 'plane.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(discovery.port, plane.port);
    assert.equal(discovery.socket, join(plane.home, 'plane.sock'));
    assert.equal(discovery.pid, plane.child.pid);
    assert.equal(discovery.version, PLANE_VERSION);
  });
});

test('the token file is 0600 and a new token is written at every plane start', { timeout: 30_000 }, async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const tokenMode = () => statSync(join(home, 'token')).mode & 0o777;

  const first = await startPlaneProcess({ home });
  t.after(() => first.stop());
  assert.equal(tokenMode(), 0o600, `token file mode is ${tokenMode().toString(8)}`);
  assert.ok(first.token.length >= 32, 'the token is long enough to be a secret');
  assert.equal(await first.stop(), 0);

  const second = await startPlaneProcess({ home });
  t.after(() => second.stop());
  assert.equal(tokenMode(), 0o600, `token file mode is ${tokenMode().toString(8)} after a restart`);
  assert.notEqual(second.token, first.token, 'a restarted plane must not reuse the previous token');
  const stale = await attemptUpgrade(tcpUrl(second.port), { authorization: `Bearer ${first.token}` });
  assert.equal(stale.opened ? 'opened' : stale.status, 401, 'the previous token is refused');
  const fresh = await attemptUpgrade(tcpUrl(second.port), { authorization: `Bearer ${second.token}` });
  assert.ok(fresh.opened, 'the new token is accepted');
  fresh.socket.close();
});

test('the plane listens on 127.0.0.1 only', { timeout: 30_000 }, async (t) => {
  const plane = await startPlaneProcess();
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });
  /** 'connected', or why it did not (an error code, or 'timeout' when packets are dropped). */
  const tryConnect = (host: string) =>
    new Promise<string>((resolve) => {
      const socket = netConnect({ host, port: plane.port, timeout: 3000 });
      socket.once('connect', () => (socket.destroy(), resolve('connected')));
      socket.once('timeout', () => (socket.destroy(), resolve('timeout')));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });

  assert.equal(await tryConnect('127.0.0.1'), 'connected', 'the plane is reachable on loopback');
  await t.test('not on the machine\'s non-loopback IPv4 address', async (st) => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
    if (address === undefined) {
      st.skip('this machine has no non-loopback IPv4 address to try');
      return;
    }
    assert.notEqual(await tryConnect(address), 'connected', `the plane answered on ${address}`);
  });
  await t.test('not on IPv6 loopback', async () => {
    assert.notEqual(await tryConnect('::1'), 'connected', 'the plane answered on [::1]');
  });
});

test('a frame over maxPayload closes only its connection; the plane keeps serving', { timeout: 30_000 }, async (t) => {
  const plane = await startPlaneProcess();
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });
  const bystander = await openSocket(plane);
  const offender = await openSocket(plane);
  t.after(() => bystander.close());
  const closed = new Promise<number>((resolve) => offender.once('close', (code) => resolve(code)));
  offender.send(`{"jsonrpc":"2.0","id":1,"method":"fleet_roster","params":{"pad":"${'x'.repeat(MAX_FRAME_BYTES)}"}}`);
  assert.equal(await closed, 1009, 'the oversized frame closes its connection with 1009 (message too big)');

  assert.ok((await call(bystander, 'fleet_roster')).result, 'another open connection still works');
  const next = await openSocket(plane);
  t.after(() => next.close());
  assert.ok((await call(next, 'fleet_roster')).result, 'a new connection works');
  // A frame of exactly maxPayload bytes (JSON may end in whitespace) is still accepted and answered.
  const atLimit = '{"jsonrpc":"2.0","id":"at-limit","method":"fleet_roster","params":{}}'.padEnd(MAX_FRAME_BYTES, ' ');
  const reply = await exchange(next, 'at-limit', atLimit);
  assert.ok(reply.result, `a ${MAX_FRAME_BYTES}-byte frame is answered: ${JSON.stringify(reply).slice(0, 200)}`);
  assert.equal(plane.child.exitCode, null);
});

test('a second `fleet serve` on the same home refuses to start with exit code 3, naming the running pid', { timeout: 30_000 }, async (t) => {
  const plane = await startPlaneProcess();
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });
  const second = spawn(process.execPath, [CLI, 'serve', '--home', plane.home], {
    env: { ...process.env, FLEET_PORT: '0', FLEET_HOME: plane.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    if (second.exitCode === null && second.signalCode === null) second.kill('SIGKILL');
  });
  let output = '';
  second.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  second.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));

  assert.equal(code, 3, `exit code ${code}; output:\n${output}`);
  assert.match(output, new RegExp(`\\bpid ${plane.child.pid}\\b`), `the message names the running plane's pid:\n${output}`);
  const discovery = JSON.parse(readFileSync(join(plane.home, 'plane.json'), 'utf8')) as { pid: number; port: number };
  assert.deepEqual({ pid: discovery.pid, port: discovery.port }, { pid: plane.child.pid, port: plane.port }, 'plane.json still names the first plane');
  const socket = await openSocket(plane);
  t.after(() => socket.close());
  assert.ok((await call(socket, 'fleet_roster')).result, 'the first plane still serves with its token');
});
