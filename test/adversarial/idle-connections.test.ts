// DESIGN §12: connections that never finish (or never start) their handshake are capped and timed
// out, established connections are capped, and the plane keeps serving its real clients meanwhile.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { HandshakeRefusedError } from '../../server/client/plane-client.js';
import { homePaths } from '../../server/home/paths.js';
import { HANDSHAKE_TIMEOUT_MS, MAX_CONNECTIONS, MAX_UNAUTHENTICATED } from '../../server/transport/admission.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';
import { assertResponsive, timeCallsUntil } from '../support/responsive.js';
import { within } from '../support/within.js';

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
const IDLERS = 3 * MAX_UNAUTHENTICATED;

/** An idle connection and what became of it. */
interface Idler {
  socket: Socket;
  openedAt: number;
  closedAt?: number;
  answer: string;
}

/** What an idler sends before falling silent: nothing, half a request, or a request with no end. */
const OPENINGS = ['', 'GET / HTTP/1.1\r\n', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'];

function openIdler(plane: PlaneProcess, random: SeededRandom, closed: () => void): Idler {
  const socket = plane.socket !== undefined && random.chance(0.5) ? connect(plane.socket) : connect(plane.port, '127.0.0.1');
  const idler: Idler = { socket, openedAt: Date.now(), answer: '' };
  const opening = random.pick(OPENINGS);
  if (opening !== '') socket.write(opening);
  socket.setEncoding('utf8').on('data', (chunk: string) => (idler.answer += chunk));
  socket.on('error', () => undefined);
  socket.once('close', () => {
    idler.closedAt = Date.now();
    closed();
  });
  return idler;
}

test(`idle connections without a handshake are capped and timed out while others are served (${replay})`, async () => {
  console.log(`idle connections: ${replay}`);
  const random = new SeededRandom(seed);
  const root = makeRepo();
  const plane = await startPlaneProcess();
  const client = await plane.connect('prober');
  try {
    let closedCount = 0;
    let allClosed!: () => void;
    const everyIdlerClosed = new Promise<void>((resolve) => (allClosed = resolve));
    let evicted!: () => void;
    const capHeld = new Promise<void>((resolve) => (evicted = resolve));
    const idlers: Idler[] = [];
    const onClose = () => {
      closedCount++;
      if (closedCount >= IDLERS - MAX_UNAUTHENTICATED) evicted();
      if (closedCount === IDLERS) allClosed();
    };
    const latencies = timeCallsUntil(client, everyIdlerClosed);
    latencies.catch(() => undefined); // awaited below; a failure before then must not surface as the probe's
    for (let i = 0; i < IDLERS; i++) idlers.push(openIdler(plane, random, onClose));

    // Past the cap, the oldest waiting connections are closed at once, long before any timeout.
    await within(capHeld, HANDSHAKE_TIMEOUT_MS / 2, `closing all but ${MAX_UNAUTHENTICATED} of ${IDLERS} idle connections (${replay})`);
    const status = await runCli(['status', '--json'], { home: plane.home, cwd: root });
    assert.equal(status.code, 0, `fleet status failed during the flood: ${status.stderr}`);
    assert.ok(Array.isArray((JSON.parse(status.stdout) as { agents: unknown[] }).agents));

    // The rest are timed out.
    await within(everyIdlerClosed, HANDSHAKE_TIMEOUT_MS * 3, `closing every idle connection (${replay})`);
    // Those closed to make room were told why, where the reply beat the close (an idler's unread
    // bytes turn the close into a reset that can discard it).
    const early = idlers.filter((idler) => idler.closedAt! - idler.openedAt < HANDSHAKE_TIMEOUT_MS / 2);
    assert.ok(early.length >= IDLERS - MAX_UNAUTHENTICATED, `${early.length} idlers were closed to make room`);
    const told = early.filter((idler) => idler.answer.startsWith('HTTP/1.1 503'));
    assert.ok(told.length > 0, 'no idler closed to make room was told why');
    assert.match(told[0]!.answer, /connections were waiting to finish their handshake, the limit/);
    const lived = idlers.map((idler) => idler.closedAt! - idler.openedAt);
    assert.ok(Math.max(...lived) < HANDSHAKE_TIMEOUT_MS + 2_000, `an idle connection lived ${Math.max(...lived)} ms`);

    assertResponsive(await latencies, replay);
    // A flood is logged in a few lines, not one per connection.
    const lines = plane.output().split('\n').filter((line) => /handshake/.test(line));
    assert.ok(lines.length >= 2 && lines.length <= 6, `refusal log lines:\n${lines.join('\n')}`);
    await client.call('fleet_status', {});
  } finally {
    client.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(root);
  }
});

test('established connections are capped: the one past the cap is refused with the reason, and a place that frees up is usable again', async () => {
  const plane = await startPlaneProcess();
  const open: WebSocket[] = [];
  try {
    while (open.length < MAX_CONNECTIONS) {
      const batch = Array.from({ length: Math.min(64, MAX_CONNECTIONS - open.length) }, () => {
        const socket = new WebSocket(`ws://127.0.0.1:${plane.port}/`, { headers: { authorization: `Bearer ${plane.token}` } });
        return new Promise<WebSocket>((resolve, reject) => {
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        });
      });
      open.push(...(await Promise.all(batch)));
    }
    const refusal = await plane.connect().then(
      () => assert.fail('a connection past the cap was accepted'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof HandshakeRefusedError, String(refusal));
    assert.equal(refusal.status, 503);
    assert.match(refusal.reason, new RegExp(`already serves ${MAX_CONNECTIONS} connections, its limit`));
    // The CLI meets the same wall: it says so, and does not take the full plane for a missing one.
    const cli = await runCli(['status'], { home: plane.home, cwd: plane.home });
    assert.equal(cli.code, 1, cli.stderr);
    assert.match(cli.stderr, new RegExp(`has no room for this client: the plane already serves ${MAX_CONNECTIONS} connections`));
    assert.equal(existsSync(homePaths(plane.home).log), false, 'a second plane was started against the full one (it logs to plane.log)');

    const closing = open.pop()!;
    await new Promise((resolve) => {
      closing.once('close', resolve);
      closing.close();
    });
    const client = await plane.connect();
    await client.call('fleet_status', {});
    client.close();
  } finally {
    for (const socket of open) socket.terminate();
    await plane.stop();
    removeHome(plane.home);
  }
});
