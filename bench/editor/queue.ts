// The long queue of DESIGN §16's editor targets: 20,000 ready work items on the plane before the
// window opens, then builders pulling and completing items while the claims churn, so items keep
// leaving "Ready to pull" for "In progress" and then "Waiting for verification".
import { RawClient } from '../lib/raw-client.js';
import type { PlaneAddress } from '../../server/client/plane-client.js';

export const QUEUED_ITEMS = 20_000;
/** Work items moving between groups each second (a pull and a completion are one move each). */
export const QUEUE_MOVES_PER_SECOND = 20;
const BUILDERS = 4;
const ADDS_AT_ONCE = 32;
const CRITERION = 'the bench item is done';

/** `total` ready items, each with a path of its own (claimed for whoever pulls it). */
export async function fillQueue(agent: RawClient, root: string, total: number): Promise<void> {
  for (let start = 0; start < total; start += ADDS_AT_ONCE) {
    const count = Math.min(ADDS_AT_ONCE, total - start);
    await Promise.all(
      Array.from({ length: count }, (_, k) => agent.call('fleet_work_add', { title: `queued item ${start + k}`, root, paths: [`queue/f${start + k}.ts`], criteria: [CRITERION] })),
    );
  }
}

/** Builders that pull the oldest ready item and complete it, paced to `perSecond` moves in all. */
export class QueueChurn {
  private running = false;
  private done: Promise<void> | undefined;
  moves = 0;
  startedAt = 0;
  stoppedAt = 0;

  private constructor(
    private readonly builders: RawClient[],
    private readonly perSecond: number,
  ) {}

  static async join(address: PlaneAddress, token: string, perSecond = QUEUE_MOVES_PER_SECOND): Promise<QueueChurn> {
    const builders = await Promise.all(
      Array.from({ length: BUILDERS }, async (_, b) => {
        const client = await RawClient.connect(address, token);
        await client.call('fleet_plane_hello', { protocolVersion: 1, client: 'fleet-bench' });
        await client.call('fleet_agent_join', { callsign: `BUILDER${b}`, runtime: 'bench', role: 'worker' });
        return client;
      }),
    );
    return new QueueChurn(builders, perSecond);
  }

  start(): void {
    this.running = true;
    this.startedAt = Date.now();
    this.done = Promise.all(this.builders.map((builder, b) => this.loop(builder, b))).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
    this.stoppedAt = Date.now();
  }

  async close(): Promise<void> {
    await Promise.all(this.builders.map((builder) => builder.close()));
  }

  private async loop(builder: RawClient, offset: number): Promise<void> {
    // Each builder makes two moves a round; the builders' rounds are staggered over the interval.
    const interval = (2 * this.builders.length * 1000) / this.perSecond;
    for (let round = 0; this.running; round++) {
      const { item } = await builder.call<{ item: { id: string } | null }>('fleet_work_pull', {});
      if (!item) throw new Error(`BUILDER${offset} found the queue empty after ${this.moves} moves`);
      await builder.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: [], commands: [{ command: 'npm test', exitCode: 0 }], criteria: [CRITERION] } });
      this.moves += 2;
      const due = this.startedAt + (round + 1 + offset / this.builders.length) * interval - Date.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
  }
}
