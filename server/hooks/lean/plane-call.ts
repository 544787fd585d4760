// JSON-RPC calls to the plane over the smallest WebSocket client that does: node:net, the upgrade,
// the hello and the first call sent in one write (the plane reads what follows the upgrade as
// frames), then each call's reply. It loads in a fraction of the time `ws` and the CLI's typed
// client take, which a hook run on every tool call pays: node:net is its only module beyond fs and path.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { errorNameForCode } from '../../../contracts/errors.js';
import { PROTOCOL_VERSION } from '../../../contracts/protocol.js';
import { PlaneCallError } from '../../client/plane-call-error.js';
import type { HookPlane } from '../hook-plane.js';

/** What plane.json says of a plane whose process runs: where it listens. */
export interface RunningPlane {
  port: number;
  socket?: string;
}

/**
 * A connection to the running plane of `home` for one hook run, speaking as PlaneClient does (the
 * same calls, a PlaneCallError for the plane's error answers) without validating results: the full
 * verb's client does that. Throws when the plane can't be reached; a refused upgrade or hello fails
 * the first call.
 */
export async function openLeanPlane(home: string, plane: RunningPlane, client: string): Promise<HookPlane> {
  const token = readFileSync(join(home, 'token'), 'utf8').trim();
  const socket = await openSocket(plane).catch(() => openSocket({ port: plane.port }));
  const replies = frameReader(socket);
  const hello = 1;
  let nextId = hello + 1;
  // No round trip of their own: the upgrade and the hello go out with the first call.
  let greeting: Buffer | undefined = Buffer.concat([Buffer.from(upgradeRequest(token)), textFrame({ jsonrpc: '2.0', id: hello, method: 'fleet_plane_hello', params: { protocolVersion: PROTOCOL_VERSION, client } })]);
  // One call at a time: every hook awaits each answer before its next question.
  const call = async (method: string, params: unknown): Promise<unknown> => {
    const id = nextId++;
    const frame = textFrame({ jsonrpc: '2.0', id, method, params });
    socket.write(greeting ? Buffer.concat([greeting, frame]) : frame);
    greeting = undefined;
    for (;;) {
      const reply = JSON.parse(await replies.next()) as { id?: number; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };
      const error = reply.error && (reply.id === id || reply.id === hello) ? reply.error : undefined;
      if (error) throw new PlaneCallError(error.code, error.message, errorNameForCode(error.code), error.data);
      if (reply.id === id) return reply.result;
    }
  };
  return { call: call as HookPlane['call'], close: () => socket.destroy() };
}

/** Where plane.json says the plane listens, when it names a live process: else the full verb takes the hook, starting a plane as every client does. */
export function runningPlane(home: string): RunningPlane | undefined {
  try {
    const { pid, port, socket } = JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as { pid?: unknown; port?: unknown; socket?: unknown };
    if (typeof pid !== 'number' || typeof port !== 'number') return undefined;
    return alive(pid) ? { port, ...(typeof socket === 'string' && { socket }) } : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's (a plane shared by agents running as other users).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function openSocket(address: RunningPlane): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = address.socket !== undefined ? connect(address.socket) : connect(address.port, '127.0.0.1');
    socket.once('connect', () => resolve(socket)).once('error', reject);
  });
}

/**
 * RFC 6455 wants the key and each frame's mask unpredictable to intermediaries (§10.3: a proxy
 * must not be fed bytes the client chose); between a hook and its own plane on a Unix socket or
 * loopback there are none, so Math.random serves where node:crypto would cost every hook its load.
 */
function randomBytes(count: number): Buffer {
  const bytes = Buffer.alloc(count);
  for (let i = 0; i < count; i++) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

function upgradeRequest(token: string): string {
  // The plane checks Host (loopback) and the bearer token; the accept key is not checked back:
  // the socket is the plane's own (0600, or the port plane.json names).
  const key = randomBytes(16).toString('base64');
  return `GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\nAuthorization: Bearer ${token}\r\n\r\n`;
}

/** A client's frame is masked (RFC 6455 §5.3). */
function textFrame(message: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(message));
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x81, 0x80 | length]) : length < 0x10000 ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff]) : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), bigLength(length)]);
  const mask = randomBytes(4);
  for (let i = 0; i < length; i++) payload[i]! ^= mask[i & 3]!;
  return Buffer.concat([header, mask, payload]);
}

function bigLength(length: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(length));
  return bytes;
}

/** The upgrade's answer, then the plane's text messages one by one (fragments joined, pings skipped); a refused upgrade fails the first read. */
function frameReader(socket: Socket): { next(): Promise<string> } {
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  let fragments: Buffer[] = [];
  const messages: string[] = [];
  let waiting: { resolve(): void; reject(error: Error): void } | undefined;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('the plane closed the connection')));
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = buffer.subarray(0, buffer.indexOf('\r\n')).toString();
      if (!/^HTTP\/1\.1 101 /.test(status)) return fail(new Error(`the plane refused the connection: ${status}`));
      upgraded = true;
      buffer = buffer.subarray(end + 4);
    }
    for (;;) {
      const frame = parseFrame(buffer);
      if (!frame) break;
      buffer = buffer.subarray(frame.size);
      if (frame.opcode === 0x8) return fail(new Error('the plane closed the connection'));
      if (frame.opcode !== 0x0 && frame.opcode !== 0x1) continue; // ping, pong
      fragments.push(frame.payload);
      if (!frame.fin) continue;
      messages.push(Buffer.concat(fragments).toString('utf8'));
      fragments = [];
      waiting?.resolve();
    }
  });
  return {
    async next() {
      while (messages.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((resolve, reject) => (waiting = { resolve, reject }));
      }
      return messages.shift()!;
    },
  };
}

/** A whole frame at the start of `buffer`, or undefined until it has arrived: the plane's (servers don't mask), or a client's unmasked (as a test reads one in passing). */
export function parseFrame(buffer: Buffer): { fin: boolean; opcode: number; payload: Buffer; size: number } | undefined {
  if (buffer.length < 2) return undefined;
  let length = buffer[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return undefined;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return undefined;
    length = Number(buffer.readBigUInt64BE(2));
    offset = 10;
  }
  const masked = (buffer[1]! & 0x80) !== 0;
  const start = masked ? offset + 4 : offset;
  if (buffer.length < start + length) return undefined;
  const frame = { fin: (buffer[0]! & 0x80) !== 0, opcode: buffer[0]! & 0x0f, size: start + length };
  if (!masked) return { ...frame, payload: buffer.subarray(start, start + length) };
  const payload = Buffer.from(buffer.subarray(start, start + length));
  for (let i = 0; i < length; i++) payload[i]! ^= buffer[offset + (i & 3)]!;
  return { ...frame, payload };
}
