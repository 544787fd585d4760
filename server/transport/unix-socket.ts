// The plane's second door, for clients on the same machine: a Unix socket in FLEET_HOME. The same
// HTTP server, upgrade checks and WebSocket endpoint serve it; only the stream underneath differs.
// A local round trip skips TCP/IP: measured with 32 connections from 4 processes, ~6% more durable
// ops/s and ~4 µs less CPU per op in the plane, ~3 µs less in the clients (BENCHMARKS.md).
import { unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';

/** sun_path holds 104 bytes on macOS, 108 on Linux, NUL included; stay under both. */
const MAX_SOCKET_PATH_BYTES = 100;

/** Why `path` can't carry the plane's socket here, or undefined when it can. */
export function unixSocketUnusable(path: string): string | undefined {
  if (process.platform === 'win32') return 'Windows has no Unix socket for the plane; clients use TCP';
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) return `the path is longer than ${MAX_SOCKET_PATH_BYTES} bytes, too long for a Unix socket; clients use TCP`;
  return undefined;
}

/**
 * Listens on `path` (replacing a socket a killed plane left: the caller holds the home's lock) and
 * hands each connection to `onConnection`. Only the owner may connect; the token is still asked.
 */
export async function listenOnUnixSocket(path: string, onConnection: (socket: Socket) => void): Promise<Server> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  const server = createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // bind(2), which listen() calls before it returns, creates the file with the mode the umask
    // leaves: masking all but the owner's read and write for that instant makes it 0600 from birth,
    // so there is no moment in which others could connect (a chmod afterwards would leave one).
    // `exclusive` keeps the bind in this process, also under cluster. The umask is the process's:
    // nothing else creates files while the plane starts listening.
    const umask = process.umask(0o177);
    try {
      server.listen({ path, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  return server;
}

/**
 * How a `ws` client reaches the socket at `path`: the URL names loopback (the plane checks Host) and
 * the connection is made to the path directly. (A `ws+unix:` URL would carry the path inside a URL,
 * where a `#`, a space or a `:` in FLEET_HOME breaks it.)
 */
export function overUnixSocket(path: string): Door {
  return { url: 'ws://localhost/', options: { createConnection: () => connect(path) } };
}

/** A way in to a plane for a `ws` client: the URL and the options that go with it. */
export interface Door {
  url: string;
  /** `ca`: the CA a remote plane's certificate is checked against (FLEET_CA). */
  options: { createConnection?: () => Socket; ca?: Buffer };
}

/** The ways a local client reaches a plane, preferred first: its Unix socket when it has one, then loopback TCP. */
export function doorsOf(address: { port: number; socket?: string }): Door[] {
  const tcp = { url: `ws://127.0.0.1:${address.port}/`, options: {} };
  return address.socket === undefined ? [tcp] : [overUnixSocket(address.socket), tcp];
}
