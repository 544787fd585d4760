import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { track } from './children.js';
import type { PeerMode, PeerReply, PeerRequest } from './floor-peer.js';
import type { PlaneAddress } from '../../server/client/plane-client.js';
import { RawClient } from './raw-client.js';

const PEER = fileURLToPath(new URL('./floor-peer.js', import.meta.url));

/** The driver's side of the floors' peer process (bench/lib/floor-peer.ts). */
export class FloorPeer {
  private constructor(
    private readonly child: ChildProcess,
    /** Loopback TCP, where the latency floors are measured; `client` is connected there. */
    readonly port: number,
    /** The same peer through a Unix socket, as the plane's agents reach the plane. */
    readonly unixAddress: PlaneAddress,
    readonly client: RawClient,
  ) {}

  static async start(): Promise<FloorPeer> {
    const child = track(fork(PEER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
    const { port, socket } = await new Promise<Extract<PeerReply, { type: 'listening' }>>((resolve) => child.on('message', (m: PeerReply) => m.type === 'listening' && resolve(m)));
    return new FloorPeer(child, port, { port, socket }, await RawClient.connect({ port }));
  }

  get pid(): number {
    return this.child.pid!;
  }

  mode(mode: PeerMode, reply: string, recordBytes: number, dir: string): Promise<void> {
    return new Promise((resolve) => {
      const onReady = (m: PeerReply) => {
        if (m.type !== 'ready') return;
        this.child.off('message', onReady);
        resolve();
      };
      this.child.on('message', onReady);
      this.child.send({ type: 'mode', mode, reply, recordBytes, dir } satisfies PeerRequest);
    });
  }

  async stop(): Promise<void> {
    await this.client.close();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return; // it died already
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    if (this.child.connected) this.child.send({ type: 'exit' } satisfies PeerRequest);
    else this.child.kill('SIGKILL');
    await exited;
  }
}

/** A reply frame of exactly `bytes` bytes that still parses as JSON-RPC. */
export function paddedReply(bytes: number): string {
  const shell = '{"jsonrpc":"2.0","id":1,"result":{"pad":""}}';
  return shell.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, bytes - shell.length))}"`);
}
