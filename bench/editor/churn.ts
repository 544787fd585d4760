// The churning fleet of DESIGN §7's editor row: 10,000 live claims (the 2,000 of claims.ts plus
// 8,000 more on paths outside the workspace's files, so the decoration figures stay those of the
// 2,000) while one agent grants and releases a file every 10 ms — 100 events a second — during the
// badge cycles.
import { RawClient } from '../lib/raw-client.js';
import type { PlaneAddress } from '../../server/client/plane-client.js';

export const EXTRA_CLAIMS = 8_000;
export const CHURN_EVENTS_PER_SECOND = 100;
const PER_REQUEST = 50;

/** `total` more claims, spread over the agents holding the background territory. */
export async function holdExtraClaims(agents: readonly RawClient[], root: string, total: number): Promise<void> {
  const each = Math.ceil(total / agents.length);
  await Promise.all(
    agents.map(async (agent, a) => {
      for (let i = 0; i < each; i += PER_REQUEST) {
        const patterns = Array.from({ length: Math.min(PER_REQUEST, each - i) }, (_, k) => `extra/agent-${a}/f${i + k}.ts`);
        const result = await agent.call<{ granted: boolean }>('fleet_claim_path', { patterns, root });
        if (!result.granted) throw new Error(`extra claims of agent ${a} were refused`);
      }
    }),
  );
}

/** One agent alternately claiming and releasing `churn/f<k>.ts`, paced to `perSecond` plane events. */
export class Churn {
  private running = false;
  private done: Promise<void> | undefined;
  events = 0;
  startedAt = 0;
  stoppedAt = 0;

  private constructor(
    private readonly agent: RawClient,
    private readonly root: string,
    private readonly perSecond: number,
  ) {}

  static async join(address: PlaneAddress, token: string, root: string, perSecond = CHURN_EVENTS_PER_SECOND): Promise<Churn> {
    return new Churn(await RawClient.agent(address, token, 'CHURN'), root, perSecond);
  }

  start(): void {
    this.running = true;
    this.startedAt = Date.now();
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
    this.stoppedAt = Date.now();
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private async loop(): Promise<void> {
    const interval = 1000 / this.perSecond;
    for (let k = 0; this.running; k++) {
      const path = `churn/f${k % 500}.ts`;
      const method = k % 2 === 0 ? 'fleet_claim_path' : 'fleet_release_path';
      await this.agent.call(method, { patterns: [path], root: this.root });
      this.events++;
      // Paced on the schedule, not after each reply: a slow reply is caught up, not added.
      const due = this.startedAt + (k + 1) * interval - Date.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
  }
}
