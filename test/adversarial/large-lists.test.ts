// Large lists (DESIGN §12 "Outputs are complete"): a fleet holding more claims than one reply could
// carry within the client's payload limit. A client gathers `fleet_status` page by page, again and
// again, while another client keeps asking the plane for something: every gather is complete, no
// page nears the payload limit, and the other client is answered within 50 ms.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_FRAME_BYTES, PAGE_BYTES, type Result } from '../../contracts/index.js';
import { gatherPages } from '../../server/client/gather-pages.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

const seed = testSeed();
console.log(`large-lists seed ${seed} (replay: FLEET_TEST_SEED=${seed})`);
const random = new SeededRandom(seed);
/** What a client accepts in one WebSocket message (server/client/plane-client.ts). */
const CLIENT_PAYLOAD_LIMIT = MAX_FRAME_BYTES * 16;
const PATTERNS_PER_CALL = 64;
const GATHERS = 3;
/** The latency another client may see meanwhile (DESIGN §12: 50 ms), at the 95th percentile. */
const ANSWER_WITHIN_MS = 50;

const repo = makeRepo();
let plane: PlaneProcess;
const clients: PlaneClient[] = [];
const granted = new Set<string>();

before(async () => {
  plane = await startPlaneProcess();
  const atlas = await plane.connect('test-atlas');
  clients.push(atlas);
  await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
  // Patterns of seeded shapes, until the claims' views alone pass the client's payload limit.
  let bytes = 0;
  for (let batch = 0; bytes <= CLIENT_PAYLOAD_LIMIT; batch++) {
    const patterns = Array.from({ length: PATTERNS_PER_CALL }, (_, k) => `src/m${random.int(0, 999)}/${'d/'.repeat(random.int(0, 4))}f${batch}-${k}.${random.pick(['ts', 'md', 'json'])}`);
    const grant = await atlas.call('fleet_claim_path', { patterns, root: repo });
    assert.equal(grant.granted, true);
    for (const claim of grant.claims) granted.add(claim.id);
    bytes += Buffer.byteLength(JSON.stringify(grant.claims));
  }
  console.log(`${granted.size} claims, ${Math.round(bytes / 1e6)} MB of grants`);
});

after(async () => {
  for (const client of clients) client.close();
  await plane?.stop();
  removeHome(plane.home);
  removeHome(repo);
});

test('status gathered page by page past the payload limit is complete, each page bounded, and another client is answered within 50 ms', async () => {
  const [reader, prober] = await Promise.all([plane.connect('test-reader'), plane.connect('test-prober')]);
  clients.push(reader, prober);
  const pageSizes: number[] = [];
  const gathers: Omit<Result<'fleet_status'>, 'nextCursor'>[] = [];
  let reading = true;
  const readerDone = (async () => {
    try {
      for (let i = 0; i < GATHERS; i++) {
        gathers.push(
          await gatherPages(async (page) => {
            const reply = await reader.callRaw('fleet_status', page);
            pageSizes.push(Buffer.byteLength(JSON.stringify(reply)));
            return reply as Result<'fleet_status'>;
          }),
        );
      }
    } finally {
      reading = false;
    }
  })();
  const latencies: number[] = [];
  while (reading) {
    const started = performance.now();
    await prober.call('fleet_control_get', {});
    latencies.push(performance.now() - started);
  }
  await readerDone;

  for (const status of gathers) {
    assert.equal(status.claims.length, granted.size, 'every gather holds every claim');
    assert.ok(status.claims.every((claim) => granted.has(claim.id)));
  }
  const largest = Math.max(...pageSizes);
  console.log(`${pageSizes.length} pages, largest ${largest} bytes; ${latencies.length} probes`);
  assert.ok(largest < PAGE_BYTES + 16 * 1024, `the largest page is ${largest} bytes`);
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95)]!;
  console.log(`another client's latency: p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${latencies[latencies.length - 1]!.toFixed(1)} ms`);
  assert.ok(p95 < ANSWER_WITHIN_MS, `p95 ${p95.toFixed(1)} ms`);
});
