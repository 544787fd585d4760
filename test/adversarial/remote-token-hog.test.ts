// DESIGN §12 and §13: one service token never takes the fleet's connections. A remote runner that
// opens connections in a loop (and never closes them) meets a cap of its own token, said in the
// refusal; this machine's clients and other tokens' agents keep being served, and MCP sessions it
// piles up evict its own oldest, never another token's.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { test } from 'node:test';
import WebSocket from 'ws';
import { MAX_CONNECTIONS_PER_TOKEN } from '../../server/transport/token-connections.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome } from '../support/plane-process.js';
import { connectRemote, createToken, startRemotePlane, stopRemotePlane, type RemotePlane } from '../support/remote-plane.js';
import { assertResponsive, timeCallsUntil } from '../support/responsive.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;

/** Opens a WebSocket with `token`: the open socket, or the refusal's status and body. */
function openSocket(remote: RemotePlane, token: string): Promise<{ socket: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(remote.url, { ca: remote.tls.ca, headers: { authorization: `Bearer ${token}` } });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    socket.once('error', reject);
  });
}

/** One POST to /mcp on a connection of its own: status, session id and body. */
function postMcp(remote: RemotePlane, token: string, message: object, sessionId?: string): Promise<{ status: number; sessionId?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(sessionId !== undefined && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' }) };
    const call = request(remote.mcpUrl, { method: 'POST', headers, ca: remote.tls.ca, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body, ...(typeof response.headers['mcp-session-id'] === 'string' && { sessionId: response.headers['mcp-session-id'] }) }));
    });
    call.once('error', reject);
    call.end(JSON.stringify(message));
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'hog', version: '1' } } };
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

test(`one service token that opens connections in a loop meets its own cap; local clients and other tokens are served (${replay})`, async () => {
  console.log(`remote token hog: ${replay}`);
  const random = new SeededRandom(seed);
  const root = makeRepo();
  const remote = await startRemotePlane();
  const hog = await createToken(remote, 'HOG');
  const other = await createToken(remote, 'VEGA');
  const local = await remote.plane.connect('prober');
  const held: WebSocket[] = [];
  try {
    const extra = random.int(4, 12);
    let abuseDone!: () => void;
    const latencies = timeCallsUntil(local, new Promise<void>((resolve) => (abuseDone = resolve)));
    const refusals: string[] = [];
    for (let i = 0; i < MAX_CONNECTIONS_PER_TOKEN + extra; i++) {
      const outcome = await openSocket(remote, hog.token);
      if ('socket' in outcome) held.push(outcome.socket);
      else refusals.push(`${outcome.status} ${outcome.body}`);
    }
    // While the hog holds its cap: another token's agent, a new local client, and the hog's MCP all answered.
    const vega = await connectRemote(remote, other.token);
    await vega.call('fleet_agent_join', { callsign: 'VEGA', runtime: 'ci' });
    assert.equal((await vega.call('fleet_claim_path', { patterns: ['src/**'], root })).granted, true);
    vega.close();
    const fresh = await remote.plane.connect('fresh');
    await fresh.call('fleet_status', {});
    fresh.close();
    const hogMcp = await postMcp(remote, hog.token, initialize);
    abuseDone();
    assertResponsive(await latencies, replay);

    assert.equal(held.length, MAX_CONNECTIONS_PER_TOKEN, `the hog opened ${held.length} connections (${replay}): ${refusals.slice(0, 2).join(" | ")}`);
    assert.equal(refusals.length, extra);
    for (const refusal of refusals) assert.match(refusal, /^503 .*HOG.* 32 connections, the limit per token: close/);
    assert.equal(hogMcp.status, 503, 'an MCP request past the cap is refused like a WebSocket');
    assert.match(hogMcp.body, /limit per token/);

    // Closing its connections gives the token its slots back (the plane may see the closes a moment after the client).
    const closed = held.splice(0).map((socket) => new Promise((resolve) => socket.once('close', resolve).close()));
    await Promise.all(closed);
    let again = await openSocket(remote, hog.token);
    for (let tries = 1; !('socket' in again) && tries < 50; tries++) again = await openSocket(remote, hog.token);
    assert.ok('socket' in again, 'the hog got no slot back after closing its connections');
    held.push(again.socket);
    const check = await local.call('fleet_check_path', { paths: ['src/a.ts'], root });
    assert.deepEqual(check.results[0]!.holders.map((h) => h.callsign), ['VEGA'], 'the claim acknowledged during the abuse is kept');
  } finally {
    for (const socket of held) socket.terminate();
    local.close();
    await stopRemotePlane(remote);
    removeHome(root);
  }
});

test(`MCP sessions one token piles up evict its own oldest, never another token's (${replay})`, async () => {
  const remote = await startRemotePlane();
  const hog = await createToken(remote, 'HOG');
  const other = await createToken(remote, 'VEGA');
  try {
    const vega = (await postMcp(remote, other.token, initialize)).sessionId!;
    const first = (await postMcp(remote, hog.token, initialize)).sessionId!;
    for (let i = 0; i < MAX_CONNECTIONS_PER_TOKEN; i++) assert.equal((await postMcp(remote, hog.token, initialize)).status, 200);
    assert.equal((await postMcp(remote, hog.token, listTools, first)).status, 404, "the hog's oldest session made room for its newest");
    assert.equal((await postMcp(remote, other.token, listTools, vega)).status, 200, "another token's session is untouched");
  } finally {
    await stopRemotePlane(remote);
  }
});
