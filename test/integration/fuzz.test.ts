// Invariant 10 (DESIGN.md §5): bad input never crashes the plane. 30,000 seeded frames (not
// JSON, JSON that is no request, broken envelopes, unknown methods, known methods with mutated params,
// territory the plane must refuse, binary frames) are pipelined over four connections to a real
// plane; each gets the reply the contract promises, none an internal error, and the plane serves on.
// Replay a failure with FLEET_FUZZ_SEED=<seed> (FLEET_FUZZ_FRAMES changes the count).
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { WebSocket, type RawData } from 'ws';
import { errorNameForCode } from '../../contracts/index.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { CODE, FrameFactory, seededRandom, type Frame, type JsonRpcId } from '../support/frames.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';
import { planeWithRepo } from '../support/plane-with-repo.js';

// A frame costs ~0.07 ms of CPU in this process and ~0.08 ms in the plane: 30,000 take ~4 s on a
// quiet 2-core machine (12,000 took 16 s at load average 12, plus 12 s to start there), inside the
// timeout with room unless the machine is busy with far more than this suite. Each run's seed differs, so runs add up; FLEET_FUZZ_FRAMES=1000000 for a long soak.
const FRAMES = Number(process.env.FLEET_FUZZ_FRAMES ?? 30_000);
/** Connections 0 and 1 join as agents FUZZ0 and FUZZ1; the others stay unjoined (the operator). */
const CONNECTIONS = 4;
const JOINED = 2;
/** Requests in flight per connection: enough to keep the plane busy, few enough to bound memory. */
const WINDOW = 256;
const SENTINEL = 'fuzz-sentinel';
/** Longest the plane may stay silent while requests are outstanding. */
const SILENCE_MS = 10_000;
const SUSPICIOUS_LOG = /internal error|fatal|uncaught|unhandled|RangeError|TypeError|ReferenceError|connection error|^\s+at /im;

interface Reply {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: { name?: unknown } };
}

/** Problems grouped by what went wrong, with a count and the first example of each. */
class ProblemGroups {
  private readonly groups = new Map<string, { count: number; example: string }>();

  get size(): number {
    return this.groups.size;
  }

  add(problem: Problem): void {
    const group = this.groups.get(problem.group);
    if (group) group.count++;
    else this.groups.set(problem.group, { count: 1, example: problem.example });
  }

  describe(): string {
    return [...this.groups.entries()].map(([group, { count, example }]) => `${count} × ${group}\n    e.g. ${example}`).join('\n');
  }
}

interface Problem {
  group: string;
  example: string;
}

/** What every connection saw, merged: the assertions read it once all connections are done. */
class Tally {
  readonly sentByKind = new Map<string, number>();
  readonly outcomes = new Map<string, number>();
  readonly nullExpected = new Map<number, number>();
  readonly nullReceived = new Map<number, number>();
  readonly failures = new ProblemGroups();
  /** Error replies whose data.name is not the error-table name of their code. */
  readonly misnamed = new ProblemGroups();
  internal = 0;
  sent = 0;
  unexpectedNotifications = 0;
}

test(`${FRAMES} fuzzed frames get the promised replies, none internal, and the plane serves on`, { timeout: 55_000 }, async (t) => {
  const seed = Number(process.env.FLEET_FUZZ_SEED ?? randomInt(2 ** 31));
  const replay = `replay with FLEET_FUZZ_SEED=${seed}`;
  t.diagnostic(`FLEET_FUZZ_SEED=${seed}`);
  const { plane, repo } = await planeWithRepo(t);
  const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => openSocket(plane)));
  for (let i = 0; i < JOINED; i++) {
    const joined = await new Rpc(sockets[i]!).call('fleet_agent_join', { callsign: `FUZZ${i}`, runtime: 'fuzz' });
    assert.ok(joined.result, `FUZZ${i} could not join: ${JSON.stringify(joined)}`);
  }
  const tally = new Tally();
  const started = Date.now();
  await Promise.all(
    sockets.map((socket, i) => {
      const quota = Math.floor(FRAMES / CONNECTIONS) + (i === 0 ? FRAMES % CONNECTIONS : 0);
      const factory = new FrameFactory(seededRandom(seed + i), { connection: i, joined: i < JOINED, repo });
      return fuzzConnection(socket, i, factory, quota, tally);
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  for (const socket of sockets) socket.close();
  t.diagnostic(`${tally.sent} frames in ${seconds.toFixed(1)} s over ${CONNECTIONS} connections`);
  t.diagnostic(`frames by kind: ${formatMap(tally.sentByKind)}`);
  t.diagnostic(`outcomes: ${formatMap(tally.outcomes)}`);

  await t.test('every frame gets the reply the contract promises', () => {
    assert.equal(tally.failures.size, 0, `${replay}; frames got the wrong reply:\n${tally.failures.describe()}`);
    assert.ok(tally.sent >= FRAMES, `only ${tally.sent} of ${FRAMES} frames were sent`);
    assert.equal(tally.unexpectedNotifications, 0, `${replay}: no connection subscribed, so the plane may push no notifications`);
  });
  await t.test('no frame is answered with an internal error (-32603)', () => {
    assert.equal(tally.internal, 0, `${replay}: ${tally.internal} internal errors`);
  });
  await t.test('each frame that cannot be read as a request gets one reply with id null', () => {
    assert.deepEqual(sorted(tally.nullReceived), sorted(tally.nullExpected), `${replay}: [code, count] of id-null replies, received vs expected`);
  });
  await t.test('every error reply names its error-table entry in data.name', () => {
    assert.equal(tally.misnamed.size, 0, `${replay}:\n${tally.misnamed.describe()}`);
  });
  await t.test('the plane is alive, and a fresh connection can join, claim and check', async () => {
    assert.equal(plane.child.exitCode, null, `${replay}: the plane exited during the fuzz:\n${plane.output()}`);
    assert.equal(plane.child.signalCode, null, `${replay}: the plane was killed during the fuzz`);
    await joinClaimAndCheck(plane, repo, `after-fuzz-${seed}`);
  });
  await t.test('the plane log shows no uncaught exception or internal error', () => {
    const log = plane.output();
    assert.doesNotMatch(log, SUSPICIOUS_LOG, `${replay}: the plane log shows a fault:\n${log.slice(0, 4000)}`);
  });
});

test('a text frame that is not UTF-8 closes only its connection (1007), and the next one works', { timeout: 30_000 }, async (t) => {
  const plane = await startPlaneProcess();
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });
  // The fuzz sends random bytes as binary frames: RFC 6455 has a text frame that is not UTF-8 end its connection.
  const socket = await openSocket(plane);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
  assert.equal(await closed, 1007);
  await assertStillServing(plane, /connection error/);
});

// Deeply nested params once took the plane down (JSON.stringify when logging, structuredClone when
// compacting); the dispatcher now refuses params nested deeper than it can safely handle.

/** A fresh plane (stopped with the test) and a raw connection joined as an agent. */
async function joinedPlane(t: { after(fn: () => Promise<void>): void }) {
  const plane = await startPlaneProcess();
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
  });
  const rpc = new Rpc(await openSocket(plane));
  assert.ok((await rpc.call('fleet_agent_join', { callsign: 'DEEP', runtime: 'test' })).result);
  return { plane, rpc };
}

test('a memo value nested 20,000 deep is answered, and the plane keeps serving', { timeout: 30_000 }, async (t) => {
  const { plane, rpc } = await joinedPlane(t);
  const reply = await rpc.call('fleet_agent_memo_write', `{"key":"deep","value":${nested(20_000)}}`);
  assert.notEqual(reply.error?.code, CODE.internal, JSON.stringify(reply).slice(0, 300));
  await assertStillServing(plane);
});

test('a memo value nested 3,800 deep survives the next compaction', { timeout: 30_000 }, async (t) => {
  const { plane, rpc } = await joinedPlane(t);
  const reply = await rpc.call('fleet_agent_memo_write', `{"key":"deep","value":${nested(3_800)}}`);
  assert.notEqual(reply.error?.code, CODE.internal, JSON.stringify(reply).slice(0, 300));
  // Compaction runs every 20,000 events; heartbeats are cheap events.
  const heartbeats = Array.from({ length: 20_500 }, (_, i) => rpc.call('fleet_agent_heartbeat', { note: `beat ${i}` }));
  const replies = await Promise.all(heartbeats);
  assert.ok(replies.every((r) => r.result), 'every heartbeat is acknowledged');
  await assertStillServing(plane);
});

test('a root whose .git file points at a missing git dir is refused, not an internal error', { timeout: 30_000 }, async (t) => {
  const plane = await startPlaneProcess();
  const root = mkdtempSync(join(tmpdir(), 'fleet-dangling-git-'));
  writeFileSync(join(root, '.git'), 'gitdir: /nonexistent/fleet/worktree\n');
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
    removeHome(root);
  });
  const rpc = new Rpc(await openSocket(plane));
  const reply = await rpc.call('fleet_check_path', { paths: ['a.ts'], root });
  assert.equal(reply.error?.code, CODE.outsideRepository, JSON.stringify(reply));
});

/** Sends `quota` frames, at most WINDOW awaiting an id'd reply at a time, and checks every reply. */
function fuzzConnection(socket: WebSocket, connection: number, factory: FrameFactory, quota: number, tally: Tally): Promise<void> {
  return new Promise((resolve) => {
    const pending = new Map<string, Frame>();
    let sent = 0;
    let sentinelSent = false;
    let done = false;
    let watchdog: NodeJS.Timeout | undefined;
    const finish = (problem?: Problem) => {
      if (done) return;
      done = true;
      clearTimeout(watchdog);
      if (problem) tally.failures.add(problem);
      resolve();
    };
    // A reply that never comes would otherwise stall the window until the test times out.
    const restartWatchdog = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        const waiting = [...pending.values()].slice(0, 5).map((f) => `${f.kind} ${preview(f.data)}`);
        finish({ group: `no reply for ${SILENCE_MS} ms`, example: `connection ${connection}, ${pending.size} frames waiting (sentinel sent: ${sentinelSent}):\n      ${waiting.join('\n      ')}` });
      }, SILENCE_MS);
    };
    const pump = () => {
      while (!done && sent < quota && pending.size < WINDOW) {
        const frame = factory.next();
        sent++;
        tally.sent++;
        bump(tally.sentByKind, frame.kind);
        if (frame.expect.reply === 'by-id') pending.set(idKey(frame.expect.id), frame);
        if (frame.expect.reply === 'null-id') bump(tally.nullExpected, frame.expect.code);
        socket.send(frame.data, { binary: frame.binary });
      }
      // Frame errors are answered synchronously, in order: once the sentinel is answered, all of them are in.
      if (sent === quota && pending.size === 0 && !sentinelSent) {
        sentinelSent = true;
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: SENTINEL, method: 'fleet_control_get', params: {} }));
      }
    };
    socket.on('message', (data: RawData) => {
      restartWatchdog();
      const reply = JSON.parse(data.toString()) as Reply;
      if (reply.id === SENTINEL) return finish(reply.result ? undefined : { group: 'the closing fleet_control_get failed', example: preview(data.toString()) });
      const problem = checkReply(reply, pending, tally);
      if (problem) tally.failures.add(problem);
      pump();
    });
    socket.on('close', (code, reason) => finish({ group: 'the plane closed a fuzz connection', example: `connection ${connection}: ${code} ${reason.toString()} after ${sent} of ${quota} frames` }));
    restartWatchdog();
    pump();
  });
}

/** What is wrong with a reply, if anything; records its outcome. */
function checkReply(reply: Reply, pending: Map<string, Frame>, tally: Tally): Problem | undefined {
  const text = preview(JSON.stringify(reply));
  if (reply.id === undefined) {
    if (typeof reply.method === 'string') tally.unexpectedNotifications++;
    return reply.method === undefined ? { group: 'a reply without an id', example: text } : undefined;
  }
  const code = typeof reply.error?.code === 'number' ? reply.error.code : undefined;
  if (code === CODE.internal) tally.internal++;
  if (reply.jsonrpc !== '2.0') return { group: 'a reply without "jsonrpc": "2.0"', example: text };
  const frame = typeof reply.id === 'string' || typeof reply.id === 'number' ? pending.get(idKey(reply.id)) : undefined;
  if (frame) pending.delete(idKey(reply.id as JsonRpcId));
  const about = frame ? `${frame.kind} frame ${preview(frame.data)} → ${text}` : text;
  const method = frame ? ` (${methodOf(frame)})` : '';
  if (reply.error && (code === undefined || typeof reply.error.message !== 'string' || reply.error.message.trim() === '')) {
    return { group: `an error reply${method} without a numeric code or a message`, example: about };
  }
  if (code !== undefined && reply.error?.data?.name !== errorNameForCode(code)) {
    tally.misnamed.add({ group: `error ${code}${method} with data.name ${JSON.stringify(reply.error?.data?.name)}, not ${errorNameForCode(code) ?? 'an error-table name'}`, example: about });
  }
  if (reply.id === null) {
    if (code === undefined) return { group: 'a result with id null (no such request was sent)', example: text };
    bump(tally.nullReceived, code);
    bump(tally.outcomes, `null-id ${code}`);
    const names = { [CODE.parse]: /JSON/, [CODE.invalidRequest]: /jsonrpc|method|params|"id"|object|batch/, [CODE.invalidParams]: /params/ }[code];
    return names && !names.test(String(reply.error!.message)) ? { group: `an id-null ${code} whose message does not name the problem`, example: text } : undefined;
  }
  if (!frame || frame.expect.reply !== 'by-id') return { group: 'a reply to an id that is not awaited', example: text };
  const expect = frame.expect;
  const kind = frame.kind.replace(/\+binary/, '');
  bump(tally.outcomes, `${kind.replace(/:.*/, '')} ${code ?? 'result'}`);
  if (code === undefined) return expect.resultAllowed ? undefined : { group: `${kind}${method}: expected ${expect.codes.join('|')}, got a result`, example: about };
  if (!expect.codes.includes(code)) return { group: `${kind}${method}: expected ${expect.codes.join('|')}, got ${code}`, example: about };
  const missing = expect.mentions.filter((m) => !String(reply.error!.message).includes(m));
  return missing.length > 0 ? { group: `${kind}${method}: the ${code} message does not name what was wrong`, example: `missing ${missing.map((m) => JSON.stringify(m)).join(', ')}: ${about}` } : undefined;
}

/** The method a frame called, for grouping failures. */
function methodOf(frame: Frame): string {
  const text = typeof frame.data === 'string' ? frame.data : frame.data.toString('utf8');
  return /"method":("(?:[^"\\]|\\.){0,60}")/.exec(text)?.[1] ?? 'no method';
}

/** A fresh connection can still join, claim and check as if nothing had happened. */
async function joinClaimAndCheck(plane: PlaneProcess, repo: string, area: string): Promise<void> {
  const client = await connectOrExplain(plane);
  try {
    const joined = await client.call('fleet_agent_join', { callsign: 'AFTER', runtime: 'test' });
    assert.equal(joined.callsign, 'AFTER');
    const claim = await client.call('fleet_claim_path', { patterns: [`${area}/**`], root: repo });
    assert.equal(claim.granted, true, JSON.stringify(claim));
    const check = await client.call('fleet_check_path', { paths: [`${area}/x.ts`, 'outside-the-claim.ts'], root: repo });
    assert.deepEqual(check.results.map((r) => r.allowed), [true, false]);
  } finally {
    client.close();
  }
}

/** The plane is alive, a new connection can call fleet_roster, and its log shows no fault (but `allowed`). */
async function assertStillServing(plane: PlaneProcess, allowed?: RegExp): Promise<void> {
  assert.equal(plane.child.exitCode, null, `the plane exited:\n${plane.output()}`);
  const client = await connectOrExplain(plane);
  try {
    const roster = await client.call('fleet_roster', {});
    assert.ok(Array.isArray(roster.agents));
  } finally {
    client.close();
  }
  const log = plane.output().split('\n').filter((line) => !allowed?.test(line)).join('\n');
  assert.doesNotMatch(log, SUSPICIOUS_LOG, `the plane log shows a fault:\n${log.slice(0, 3000)}`);
}

/** A typed client, or an error that carries the plane's log (a refused connect alone says little). */
function connectOrExplain(plane: PlaneProcess): Promise<PlaneClient> {
  return plane.connect('after-fuzz').catch((error: Error) => {
    throw new Error(`the plane no longer serves (${error.message}); its log:\n${plane.output().slice(0, 3000)}`);
  });
}

function openSocket(plane: PlaneProcess): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${plane.port}/`, { headers: { authorization: `Bearer ${plane.token}` }, maxPayload: 64 * 1024 * 1024 });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A bare JSON-RPC caller on a socket: params go out as given (an object, or raw JSON text). */
class Rpc {
  private readonly pending = new Map<string, { resolve(reply: Reply): void; reject(error: Error): void }>();
  private next = 0;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: RawData) => {
      const reply = JSON.parse(data.toString()) as Reply;
      const waiter = typeof reply.id === 'string' ? this.pending.get(reply.id) : undefined;
      if (!waiter) return;
      this.pending.delete(reply.id as string);
      waiter.resolve(reply);
    });
    socket.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('the plane closed the connection before answering'));
      this.pending.clear();
    });
  }

  call(method: string, params: object | string): Promise<Reply> {
    const id = `rpc-${++this.next}`;
    const paramsText = typeof params === 'string' ? params : JSON.stringify(params);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(`{"jsonrpc":"2.0","id":"${id}","method":${JSON.stringify(method)},"params":${paramsText}}`);
    });
  }
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const idKey = (id: string | number) => `${typeof id}:${id}`;
const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
const sorted = (map: Map<number, number>) => [...map.entries()].sort((a, b) => a[0] - b[0]);
const formatMap = (map: Map<string, number>) => [...map.entries()].sort().map(([k, v]) => `${k}=${v}`).join(', ');
const preview = (data: string | Buffer) => (typeof data === 'string' ? JSON.stringify(data.length > 160 ? `${data.slice(0, 160)}…(${data.length} chars)` : data) : `<${data.length} bytes ${data.subarray(0, 24).toString('hex')}…>`);
