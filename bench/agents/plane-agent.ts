import type { PlaneAddress } from '../../server/client/plane-client.js';
import { RawClient } from '../lib/raw-client.js';
import type { ClaimSystem, Grant } from './claim-system.js';

interface ClaimResult {
  granted: boolean;
  claims: { id: string }[];
}

/** An agent of the plane: one WebSocket connection, joined under its own callsign. */
export class PlaneAgent implements ClaimSystem {
  readonly fsyncs = 0;

  private constructor(
    private readonly client: RawClient,
    private readonly root: string,
  ) {}

  static async open(address: PlaneAddress, token: string, root: string, callsign: string): Promise<PlaneAgent> {
    return new PlaneAgent(await RawClient.agent(address, token, callsign), root);
  }

  async claim(pattern: string): Promise<Grant> {
    const result = await this.client.call<ClaimResult>('fleet_claim_path', { patterns: [pattern], root: this.root });
    return result.granted ? { granted: true, id: result.claims[0]!.id } : { granted: false };
  }

  async release(id: string): Promise<void> {
    await this.client.call('fleet_release_path', { claimIds: [id] });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
