import type { PlaneAddress } from '../../server/client/plane-client.js';
import { RawClient } from '../lib/raw-client.js';
import type { ClaimSystem, Grant } from './claim-system.js';

/**
 * The throughput floor's agent: it sends the plane's claim and release requests to a bare `ws`
 * echo peer and takes the echo as a grant. Nothing is coordinated or made durable; what it
 * measures is the cost of the agent processes' own round trips, the ceiling any server has
 * under this many client processes on this machine.
 */
export class EchoAgent implements ClaimSystem {
  readonly fsyncs = 0;

  private constructor(
    private readonly client: RawClient,
    private readonly root: string,
  ) {}

  static async open(address: PlaneAddress, root: string): Promise<EchoAgent> {
    return new EchoAgent(await RawClient.connect(address), root);
  }

  async claim(pattern: string): Promise<Grant> {
    await this.client.call('fleet_claim_path', { patterns: [pattern], root: this.root });
    return { granted: true, id: 'echo' };
  }

  async release(id: string): Promise<void> {
    await this.client.call('fleet_release_path', { claimIds: [id] });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
