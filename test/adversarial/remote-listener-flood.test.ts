// DESIGN §12 and §13: an unauthenticated flood on the TLS listener (connections that never start,
// or never finish, their TLS handshake) is capped and timed out like one on loopback, by an
// admission of its own: local clients and remote agents with a token keep being served meanwhile.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { HANDSHAKE_TIMEOUT_MS, MAX_UNAUTHENTICATED } from '../../server/transport/admission.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome } from '../support/plane-process.js';
import { connectRemote, createToken, startRemotePlane, stopRemotePlane } from '../support/remote-plane.js';
import { assertResponsive, timeCallsUntil } from '../support/responsive.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';
import { within } from '../support/within.js';

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
const FLOODERS = 3 * MAX_UNAUTHENTICATED;

/** What a flooder sends before falling silent: nothing, or the start of a TLS record that never completes. */
const OPENINGS = [Buffer.alloc(0), Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]), Buffer.from([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01, 0x00])];

test(`an unauthenticated flood on the listener is capped and timed out; local and remote clients are served meanwhile (${replay})`, async () => {
  console.log(`remote listener flood: ${replay}`);
  const random = new SeededRandom(seed);
  const root = makeRepo();
  const remote = await startRemotePlane();
  const { token } = await createToken(remote, 'ORION');
  const local = await remote.plane.connect('prober');
  const flooders: { socket: Socket; openedAt: number; closedAt?: number }[] = [];
  try {
    let closed = 0;
    let evicted!: () => void;
    const capHeld = new Promise<void>((resolve) => (evicted = resolve));
    let allClosed!: () => void;
    const everyFlooderClosed = new Promise<void>((resolve) => (allClosed = resolve));
    const latencies = timeCallsUntil(local, everyFlooderClosed);
    latencies.catch(() => undefined); // awaited below
    for (let i = 0; i < FLOODERS; i++) {
      const socket = connect(remote.listenPort, '127.0.0.1');
      const flooder: (typeof flooders)[number] = { socket, openedAt: Date.now() };
      flooders.push(flooder);
      const opening = random.pick(OPENINGS);
      if (opening.length > 0) socket.write(opening);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        flooder.closedAt = Date.now();
        closed++;
        if (closed >= FLOODERS - MAX_UNAUTHENTICATED) evicted();
        if (closed === FLOODERS) allClosed();
      });
    }

    // Past the cap the oldest waiting connections are closed at once, long before the timeout.
    await within(capHeld, HANDSHAKE_TIMEOUT_MS / 2, `closing all but ${MAX_UNAUTHENTICATED} of ${FLOODERS} flooders (${replay})`);
    // A remote agent with its token still gets in during the flood, and what it does is kept.
    const agent = await within(connectRemote(remote, token), HANDSHAKE_TIMEOUT_MS, `a remote agent connecting during the flood (${replay})`);
    await agent.call('fleet_agent_join', { callsign: 'ORION', runtime: 'ci' });
    const claim = await agent.call('fleet_claim_path', { patterns: ['src/**'], root });
    assert.equal(claim.granted, true);
    agent.close();
    // A new local client is untouched by the listener's flood: loopback has an admission of its own.
    const fresh = await remote.plane.connect('fresh');
    await fresh.call('fleet_status', {});
    fresh.close();

    await within(everyFlooderClosed, HANDSHAKE_TIMEOUT_MS * 3, `closing every flooder (${replay})`);
    const lived = flooders.map((f) => f.closedAt! - f.openedAt);
    assert.ok(Math.max(...lived) < HANDSHAKE_TIMEOUT_MS + 2_000, `a flooder lived ${Math.max(...lived)} ms`);
    assertResponsive(await latencies, replay);
    const check = await local.call('fleet_check_path', { paths: ['src/a.ts'], root });
    assert.deepEqual(check.results[0]!.holders.map((h) => h.callsign), ['ORION'], 'the claim acknowledged during the flood is kept');
    const lines = remote.plane.output().split('\n').filter((line) => /handshake/.test(line));
    assert.ok(lines.length >= 2 && lines.length <= 6, `the flood is logged in a few lines, not one per connection:\n${lines.join('\n')}`);
  } finally {
    for (const flooder of flooders) flooder.socket.destroy();
    local.close();
    await stopRemotePlane(remote);
    removeHome(root);
  }
});
