// DESIGN §12 "Outputs are complete": thousands of claims whose one-reply status would pass the
// client's payload limit, printed whole by `fleet status --json` and `fleet call fleet_claims`
// through a slow pipe, while every reply of the plane stays a bounded page.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { MAX_FRAME_BYTES, PAGE_BYTES, type Claim } from '../../contracts/index.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { makeRepo } from '../support/git-repo.js';
import { CLI, removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';

/** What a client accepts in one WebSocket message (server/client/plane-client.ts). */
const CLIENT_PAYLOAD_LIMIT = MAX_FRAME_BYTES * 16;
const PATTERNS_PER_CALL = 64;
/** A long literal pattern (the contracts allow 1,024 characters): few claims fill many bytes. */
const patternOf = (i: number) => `gen/${String(i).padStart(6, '0')}/${'p'.repeat(900)}.ts`;

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `fleet …` with stdout a pipe read slowly: one chunk per turn of the event loop. */
async function fleetThroughSlowPipe(plane: PlaneProcess, cwd: string, args: string[]): Promise<Output> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, FLEET_HOME: plane.home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const chunks: Buffer[] = [];
  for await (const chunk of child.stdout) {
    chunks.push(chunk as Buffer);
    await new Promise(setImmediate);
  }
  return { code: await exited, stdout: Buffer.concat(chunks).toString('utf8'), stderr };
}

/** Walks a paged method by hand, returning each reply's size in bytes and its items. */
async function walk(client: PlaneClient, limit?: number, between?: (page: number) => Promise<void>): Promise<{ sizes: number[]; claims: Claim[] }> {
  const sizes: number[] = [];
  const claims: Claim[] = [];
  let cursor: string | undefined;
  do {
    const reply = (await client.callRaw('fleet_claims', { ...(cursor !== undefined && { cursor }), ...(limit !== undefined && { limit }) })) as { claims: Claim[]; nextCursor?: string };
    sizes.push(Buffer.byteLength(JSON.stringify(reply)));
    claims.push(...reply.claims);
    cursor = reply.nextCursor;
    await between?.(sizes.length);
  } while (cursor !== undefined);
  return { sizes, claims };
}

describe('outputs are complete at a claim count past the payload limit of one reply', { timeout: 300_000 }, () => {
  let plane: PlaneProcess;
  let client: PlaneClient;
  const repo = makeRepo();
  let count = 0;

  before(async () => {
    const started = Date.now();
    plane = await startPlaneProcess();
    client = await plane.connect();
    await client.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    // Claims until their views alone pass the client's payload limit.
    let bytes = 0;
    while (bytes <= CLIENT_PAYLOAD_LIMIT) {
      const patterns = Array.from({ length: PATTERNS_PER_CALL }, (_, k) => patternOf(count + k));
      const grant = await client.call('fleet_claim_path', { patterns, root: repo });
      assert.equal(grant.granted, true);
      count += PATTERNS_PER_CALL;
      bytes += Buffer.byteLength(JSON.stringify(grant.claims)) * 1.1; // a status claim carries a little more than a grant's
    }
    console.log(`${count} claims (about ${Math.round(bytes / 1e6)} MB of them) set up in ${Date.now() - started} ms`);
  });
  after(async () => {
    client.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
  });

  test('fleet status --json through a slow pipe is complete and parses', async () => {
    const out = await fleetThroughSlowPipe(plane, repo, ['status', '--json']);
    assert.equal(out.code, 0, out.stderr);
    assert.ok(Buffer.byteLength(out.stdout) > CLIENT_PAYLOAD_LIMIT, `the output (${out.stdout.length} bytes) is larger than one reply may be`);
    const status = JSON.parse(out.stdout) as { claims: Claim[]; agents: unknown[]; totals: { claims: number } };
    assert.equal(status.claims.length, count);
    assert.equal(status.totals.claims, count);
    assert.equal(new Set(status.claims.map((c) => c.pattern)).size, count, 'no claim twice');
  });

  test('fleet call fleet_claims gathers every page', async () => {
    const out = await fleetThroughSlowPipe(plane, repo, ['call', 'fleet_claims', '--json', '{}']);
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout) as { claims: Claim[]; nextCursor?: string };
    assert.equal(result.claims.length, count);
    assert.equal(result.nextCursor, undefined);
  });

  test('fleet status --limit shows N and says how many more', async () => {
    const out = await fleetThroughSlowPipe(plane, repo, ['status', '--limit', '3']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`claims \\(${count}\\)`));
    assert.match(out.stdout, new RegExp(`… and ${count - 3} more claims`));
  });

  test('every reply is one bounded page; the pages hold each claim once, oldest first', async () => {
    const { sizes, claims } = await walk(client);
    assert.ok(sizes.length > 1, 'the claims came in several pages');
    const largest = Math.max(...sizes);
    assert.ok(largest < PAGE_BYTES + 16 * 1024, `the largest reply is ${largest} bytes`);
    const patterns = new Set(claims.map((c) => c.pattern));
    assert.ok(patterns.size === count && claims.length === count, `${claims.length} claims in the pages, ${patterns.size} different, of ${count}`);
    const outOfOrder = claims.findIndex((c, i) => i > 0 && c.grantedAt < claims[i - 1]!.grantedAt);
    assert.equal(outOfOrder, -1, 'oldest first');
  });

  test('a cursor stays valid while claims come and go between pages', async () => {
    const extra = (page: number) => `late/${page}.ts`;
    const released: string[] = [];
    const { claims } = await walk(client, 500, async (page) => {
      // Between pages: release an early claim already seen, and add a new one.
      const early = patternOf(page - 1);
      await client.call('fleet_release_path', { patterns: [early], root: repo });
      released.push(early);
      await client.call('fleet_claim_path', { patterns: [extra(page)], root: repo });
    });
    const seen = new Set(claims.map((c) => c.pattern));
    assert.equal(seen.size, claims.length, 'no claim twice');
    const gone = new Set(released);
    const missing = Array.from({ length: count }, (_, i) => patternOf(i)).filter((p) => !gone.has(p) && !seen.has(p));
    assert.deepEqual(missing.map((p) => p.slice(0, 10)), [], 'claims there throughout are all listed');
    assert.ok(seen.has(extra(1)), 'a claim added after the first page comes on a later page (newest last)');
  });

  test('a cursor not given out by the plane is refused naming the parameter', async () => {
    await assert.rejects(client.call('fleet_claims', { cursor: 'not-a-cursor' }), /cursor is not one this method gave out/);
  });
});
