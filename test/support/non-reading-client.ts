// A client that joins, then never reads another byte and floods the plane with a seeded mix of
// requests (claims, releases, checks, status), as fast as its own socket takes them. Run as a
// child process: `node non-reading-client.js <port> <token> <root> <seed> <maxRequests>`. When the
// plane drops it, it prints one JSON line `{"sent": N}` and exits.
import { WebSocket } from 'ws';
import { SeededRandom } from './seeded-random.js';

/** Sends the plane has not yet taken from this process: enough to keep its socket full, bounded so this process stays small. */
const MAX_UNCONFIRMED = 2_000;

const [port, token, root, seedText, maxText] = process.argv.slice(2);
const random = new SeededRandom(Number(seedText));
const maxRequests = Number(maxText);
const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { authorization: `Bearer ${token}` } });
let sent = 0;
let unconfirmed = 0;
let nextId = 1;

const request = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });

function nextRequest(): string {
  const file = `flood/f${random.int(0, 499)}.ts`;
  switch (random.int(0, 3)) {
    case 0:
      return request('fleet_claim_path', { patterns: [file], root });
    case 1:
      return request('fleet_release_path', { patterns: [file], root });
    case 2:
      return request('fleet_check_path', { paths: [file, 'src/a.ts'], root });
    default:
      return request('fleet_status', {});
  }
}

function flood(): void {
  while (unconfirmed < MAX_UNCONFIRMED && sent < maxRequests && socket.readyState === socket.OPEN) {
    unconfirmed++;
    sent++;
    socket.send(nextRequest(), () => {
      unconfirmed--;
      flood();
    });
  }
}

socket.once('open', () => {
  socket.send(request('fleet_agent_join', { callsign: 'FLOOD', runtime: 'script' }));
  // The join's answer is the last thing this client reads.
  socket.once('message', () => {
    socket.pause();
    flood();
  });
});
socket.on('error', () => undefined);
socket.once('close', () => {
  process.stdout.write(`${JSON.stringify({ sent })}\n`);
  process.exit(0);
});
