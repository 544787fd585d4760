import { FINISHED_STATUSES } from '../../contracts/index.js';
import type { PlaneClient } from '../client/plane-client.js';
import { WAVE, type PlannedTask } from './work-plan.js';

/** Waves with work left that the demo keeps in the queue: the one being built and one ahead of it. */
export const OPEN_WAVES = 2;
/** Finished waves kept in the queue, so `fleet work list` shows work that reached done. */
const FINISHED_WAVES_KEPT = 1;
/** The most demo items in the shared queue at any time, however long the demo runs. */
export const MAX_DEMO_ITEMS = (OPEN_WAVES + FINISHED_WAVES_KEPT) * (WAVE.length + 1);


interface Wave {
  number: number;
  /** The epic first, then its tasks: recorded as each is added, so a wave cut short still leaves. */
  ids: string[];
}

/**
 * The demo's items in the shared queue, by wave: topped up to OPEN_WAVES waves with work left,
 * finished waves removed as newer ones finish, and everything removed when the demo ends. Each
 * check asks about the demo's own items by id, so its cost does not grow with the rest of the queue.
 */
export class DemoQueue {
  private readonly waves: Wave[] = [];
  private added = 0;

  /** `plants`: the first wave's planted items by id, filled in as they are added (see PlannedTask.plant). */
  constructor(
    private readonly repo: string,
    private readonly plants: Map<string, NonNullable<PlannedTask['plant']>>,
  ) {}

  /**
   * Adds the next wave when fewer than OPEN_WAVES have work left (a wave is finished when its
   * epic is done: the plane completes it once all its tasks are accepted), first removing finished
   * waves but the newest. A finished wave with work still on the train (landing) stays until that
   * lands: the plane lets only done or rolled-back work leave. Returns the new wave's number, or
   * undefined when the queue is full enough.
   */
  async topUp(client: PlaneClient): Promise<number | undefined> {
    const finished: Wave[] = [];
    for (const wave of this.waves) if (await this.isFinished(client, wave)) finished.push(wave);
    for (const wave of finished.slice(0, -FINISHED_WAVES_KEPT)) {
      if (!(await this.allFinished(client, wave))) continue;
      await client.call('fleet_work_remove', { ids: wave.ids });
      this.waves.splice(this.waves.indexOf(wave), 1);
    }
    if (this.waves.length - Math.min(finished.length, FINISHED_WAVES_KEPT) >= OPEN_WAVES) return undefined;
    return this.addWave(client);
  }

  /** Adds one wave: an epic and its tasks, dependencies resolved to the new ids. */
  async addWave(client: PlaneClient): Promise<number> {
    const wave: Wave = { number: ++this.added, ids: [] };
    this.waves.push(wave);
    const epic = await client.call('fleet_work_add', { title: `tiny-lang parser v2, wave ${wave.number}`, kind: 'epic', root: this.repo });
    wave.ids.push(epic.item.id);
    const ids = new Map<string, string>();
    for (const task of WAVE) {
      const added = await client.call('fleet_work_add', {
        title: wave.number === 1 ? task.title : `${task.title} (wave ${wave.number})`,
        kind: 'task',
        parent: epic.item.id,
        paths: task.paths,
        criteria: task.criteria,
        dependsOn: (task.after ?? []).map((key) => ids.get(key)!),
        role: 'builder',
        root: this.repo,
      });
      ids.set(task.key, added.item.id);
      if (wave.number === 1 && task.plant) this.plants.set(added.item.id, task.plant);
      wave.ids.push(added.item.id);
    }
    return wave.number;
  }

  /**
   * The demo's unfinished items are rolled back (done stays done), then every one of its items
   * leaves the shared queue, a wave per call: a real agent never pulls them and `fleet work list`
   * shows only real work. Returns the demo's tasks by status when it ended.
   */
  async windUp(operator: PlaneClient, err: (line: string) => void): Promise<Record<string, number>> {
    const statuses: Record<string, number> = {};
    for (const wave of this.waves) {
      for (const [index, id] of wave.ids.entries()) {
        const [item] = (await operator.call('fleet_work_list', { id })).items;
        if (!item) continue;
        if (index > 0) statuses[item.status] = (statuses[item.status] ?? 0) + 1;
        if (FINISHED_STATUSES.has(item.status)) continue;
        await operator
          .call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'demo-ended', refs: [], note: 'the demo ended before the item was done' } })
          .catch((error: Error) => err(`fleet demo: ${id} could not be rolled back: ${error.message}`));
      }
      await operator.call('fleet_work_remove', { ids: wave.ids }).catch((error: Error) => err(`fleet demo: wave ${wave.number}'s work items stay in the queue: ${error.message}`));
    }
    this.waves.length = 0;
    return statuses;
  }

  /** Whether `id` is one of the demo's items in the queue. */
  holds(id: string): boolean {
    return this.waves.some((wave) => wave.ids.includes(id));
  }

  /** Whether every item of the wave may leave the queue (none is still landing). */
  private async allFinished(client: PlaneClient, wave: Wave): Promise<boolean> {
    for (const id of wave.ids) {
      const [item] = (await client.call('fleet_work_list', { id })).items;
      if (item && !FINISHED_STATUSES.has(item.status)) return false;
    }
    return true;
  }

  private async isFinished(client: PlaneClient, wave: Wave): Promise<boolean> {
    if (wave.ids.length < WAVE.length + 1) return false;
    const [epic] = (await client.call('fleet_work_list', { id: wave.ids[0]! })).items;
    return epic === undefined || FINISHED_STATUSES.has(epic.status);
  }
}
