// The plane's Unix socket in FLEET_HOME: private, preferred by clients, replaced after a crash,
// gone after a clean stop, and never the only way in (TCP serves when the socket can't).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { PlaneClient } from '../../server/client/plane-client.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../support/plane-process.js';

/** A port nothing listens on: a client that reaches the plane with it came through the socket. */
const CLOSED_PORT = 1;

async function roster(client: PlaneClient): Promise<void> {
  try {
    const result = await client.call('fleet_roster', {});
    assert.ok(Array.isArray(result.agents));
  } finally {
    client.close();
  }
}

/** A call that can only have come through the socket: the client is given a closed TCP port. */
async function rosterThroughSocket(plane: PlaneProcess): Promise<void> {
  assert.ok(plane.socket, 'plane.json names no socket');
  await roster(await PlaneClient.connect({ port: CLOSED_PORT, socket: plane.socket }, plane.token));
}

/** A plane on a home named `name` inside a fresh temp folder; both go when the test ends. */
async function planeAt(t: TestContext, name: string): Promise<PlaneProcess> {
  const parent = tempHome();
  t.after(() => removeHome(parent));
  const home = join(parent, name);
  mkdirSync(home, { recursive: true });
  const plane = await startPlaneProcess({ home });
  t.after(() => plane.stop());
  return plane;
}

test('the socket is private to the owner, clients use it, and a clean stop removes it', { timeout: 30_000 }, async (t) => {
  // Under a umask that masks nothing, the socket must still be the owner's alone. The plane inherits
  // the umask when it is spawned, which startPlaneProcess does before its first await.
  const umask = process.umask(0);
  const starting = startPlaneProcess();
  process.umask(umask);
  const plane = await starting;
  t.after(() => removeHome(plane.home));
  t.after(() => plane.stop());
  const socket = join(plane.home, 'plane.sock');
  assert.equal(plane.socket, socket, 'plane.json names the socket');
  assert.ok(statSync(socket).isSocket());
  assert.equal(statSync(socket).mode & 0o777, 0o600, `socket mode ${(statSync(socket).mode & 0o777).toString(8)}`);
  assert.match(plane.output(), new RegExp(`listening on 127\\.0\\.0\\.1:${plane.port} and ${socket}`));

  await rosterThroughSocket(plane);

  assert.equal(await plane.stop(), 0);
  assert.equal(existsSync(socket), false, 'the socket outlived the plane');
});

test('a socket that is gone or is no socket leaves the client on TCP', { timeout: 30_000 }, async (t) => {
  const plane = await startPlaneProcess();
  t.after(() => removeHome(plane.home));
  t.after(() => plane.stop());
  await roster(await PlaneClient.connect({ port: plane.port, socket: join(plane.home, 'gone.sock') }, plane.token));
  const notASocket = join(plane.home, 'file.sock');
  writeFileSync(notASocket, '');
  await roster(await PlaneClient.connect({ port: plane.port, socket: notASocket }, plane.token));
  // Without TCP to fall back to, the socket's failure is the caller's to see.
  await assert.rejects(PlaneClient.connect({ port: CLOSED_PORT, socket: notASocket }, plane.token), /ECONNREFUSED/);
});

test('a plane killed with -9 leaves its socket behind, and the next one replaces it', { timeout: 30_000 }, async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const first = await startPlaneProcess({ home });
  await first.kill();
  assert.ok(statSync(join(home, 'plane.sock')).isSocket(), 'the killed plane left no socket to replace');

  const second = await startPlaneProcess({ home });
  t.after(() => second.stop());
  assert.equal(second.socket, join(home, 'plane.sock'));
  await rosterThroughSocket(second);
});

test('a home whose path holds a #, a space and a non-ASCII letter is still reached through its socket', { timeout: 30_000 }, async (t) => {
  const plane = await planeAt(t, 'c# and josé');
  assert.equal(plane.socket, join(plane.home, 'plane.sock'));
  await rosterThroughSocket(plane);
});

test('a home whose path is too long for a socket is served over TCP alone, and says so', { timeout: 30_000 }, async (t) => {
  const plane = await planeAt(t, join('a-home-path-long-enough-that-its-socket-would-not-fit-in-sun-path', 'x'.repeat(40)));
  assert.ok(Buffer.byteLength(join(plane.home, 'plane.sock')) > 100);
  const discovery = JSON.parse(readFileSync(join(plane.home, 'plane.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(discovery.socket, undefined, 'plane.json names a socket it could not have');
  assert.match(plane.output(), /no Unix socket at .*plane\.sock: the path is longer than 100 bytes/);
  await roster(await plane.connect());
});
