import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ThrottledLog } from './throttled-log.js';

// Every connection costs the plane a descriptor, and the plane needs descriptors of its own: the
// event log, snapshot and ledger writes, git and build child processes (22 open at rest, measured).
// Node raises the soft RLIMIT_NOFILE to the hard limit at start: here (`ulimit -Hn`) 20,000;
// common Linux defaults are 4,096 (older) to 524,288 (systemd); macOS gives a process 10,240 or
// more. The caps below sum to 1,152 descriptors, well under the least of those, so no flood of
// connections can leave the plane without a descriptor for its own log.

/**
 * Connections that have not finished a WebSocket upgrade (no token checked yet). A real client
 * finishes its upgrade within milliseconds of connecting on loopback, so even a fleet of hundreds
 * starting at once has a handful pending; more than this is a flood.
 */
export const MAX_UNAUTHENTICATED = 128;

/** How long a connection may take to finish its upgrade: generous for a loaded machine, short for an idler. */
export const HANDSHAKE_TIMEOUT_MS = 5_000;

/**
 * Established WebSocket connections. Each MCP session, editor window, hook call and CLI call holds
 * one; the bench runs 500 agents on one plane. An idle connection costs the plane one descriptor
 * and ~16.5 KB (measured: 1,000 connections, 69.3 → 85.5 MB RSS), so a full house costs ~17 MB.
 */
export const MAX_CONNECTIONS = 1_024;

/**
 * Keeps connections without a finished upgrade few and short-lived, through either door: one that
 * has not upgraded within the timeout is destroyed; past the cap, the oldest waiting one is
 * answered 503 and closed to make room. (Refusing the newest instead would let a steady trickle of
 * idlers keep every real client out; an idler flood must now outpace a ~1 ms handshake to do so.)
 */
export class Admission {
  private readonly waiting = new Map<Duplex, NodeJS.Timeout>();

  /**
   * `drop`, when given, ends a connection the admission lets go of (the TLS listener: its socket may
   * already be wrapped in TLS, and plain HTTP is no answer there); without it, one closed to make
   * room is told why in plain HTTP and one timed out is destroyed.
   */
  constructor(
    private readonly notices: ThrottledLog,
    private readonly drop?: (socket: Duplex) => void,
  ) {}

  /** A new TCP or Unix-socket connection. */
  admit(socket: Socket): void {
    if (this.waiting.size >= MAX_UNAUTHENTICATED) {
      const oldest = this.waiting.keys().next().value!;
      this.settle(oldest);
      this.notices.note(`closed the oldest connection waiting for its handshake: ${MAX_UNAUTHENTICATED} were waiting, the limit`);
      if (this.drop) this.drop(oldest);
      else refuse(oldest, 503, `${MAX_UNAUTHENTICATED} connections were waiting to finish their handshake, the limit, and this was the oldest: retry`);
    }
    const timer = setTimeout(() => {
      this.settle(socket);
      this.notices.note(`closed a connection that did not finish its handshake within ${HANDSHAKE_TIMEOUT_MS / 1000} s`);
      (this.drop ?? ((waiting: Duplex) => waiting.destroy()))(socket);
    }, HANDSHAKE_TIMEOUT_MS);
    this.waiting.set(socket, timer);
    socket.once('close', () => this.settle(socket));
  }

  /** The upgrade went through: from now on the connection is the endpoint's. */
  upgraded(socket: Duplex): void {
    this.settle(socket);
  }

  private settle(socket: Duplex): void {
    clearTimeout(this.waiting.get(socket));
    this.waiting.delete(socket);
  }
}

/** Answers an upgrade (or a connection before it) with an HTTP error naming the reason, then lets go of the socket. */
export function refuse(socket: Duplex, status: 400 | 401 | 403 | 503, reason: string): void {
  const phrase = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 503: 'Service Unavailable' }[status];
  const body = `${reason}\n`;
  socket.end(`HTTP/1.1 ${status} ${phrase}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, () => socket.destroy());
}
