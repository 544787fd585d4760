// One randomly behaving agent for the concurrency suite: its own connection, several requests in
// flight at once, seeded choices over an overlapping pattern universe, and a client-side check of
// every answer. What it saw acknowledged goes to the shared LoadRecorder.
import type { Result } from '../../contracts/index.js';
import { PlaneCallError, type PlaneClient } from '../../server/client/plane-client.js';
import { compilePattern, overlaps, type CompiledPattern } from '../../server/core/glob/index.js';
import type { EventWatcher } from './event-watcher.js';
import type { LoadRecorder } from './load-recorder.js';
import { CHECK_PATHS, PATTERN_UNIVERSE, type PatternSpec } from './pattern-universe.js';
import type { SeededRandom } from './seeded-random.js';

interface Held {
  root: string;
  pattern: string;
  fence: number;
  ttl: boolean;
}

export interface RandomAgentOptions {
  callsign: string;
  client: PlaneClient;
  /** Repositories to claim in; the first one gets most of the traffic. */
  roots: readonly string[];
  random: SeededRandom;
  recorder: LoadRecorder;
  watcher: EventWatcher;
  /** Requests kept in flight on the connection at once. */
  inFlight: number;
  /** The plane's agent TTL: how long a nap must be for the agent to expire. */
  agentTtlMs: number;
}

const TTLS = [0.2, 0.4, 0.8, 1.5];
const compiledPatterns = new Map<string, CompiledPattern>();
function compiled(pattern: string): CompiledPattern {
  let found = compiledPatterns.get(pattern);
  if (!found) {
    found = compilePattern(pattern);
    compiledPatterns.set(pattern, found);
  }
  return found;
}
const MAX_HELD = 4;

export class RandomAgent {
  agentId = '';
  private sessionToken = '';
  private readonly held = new Map<string, Held>();
  private readonly releasedFences: number[] = [];
  private requestCounter = 0;
  /**
   * Claim requests sent and not yet answered. Fences count per scope, so a grant still on its way
   * (in another repository) can carry the very number of a fence released here: a fence is known
   * stale only when no claim is in flight.
   */
  private claimsInFlight = 0;
  private rejoining: Promise<void> | undefined;

  constructor(private readonly o: RandomAgentOptions) {}

  async join(): Promise<void> {
    const joined = await this.o.client.call('fleet_agent_join', { callsign: this.o.callsign, runtime: 'script' });
    this.agentId = joined.agentId;
    this.sessionToken = joined.sessionToken;
  }

  /**
   * Runs `ops` operations split into phases; between phases the agent naps: it goes silent until
   * the plane expires it (the `agent.expired` event is the signal), then re-joins with its token.
   */
  async run(ops: number, naps: number): Promise<void> {
    const phases = naps + 1;
    for (let phase = 0; phase < phases; phase++) {
      const share = Math.floor(ops / phases) + (phase < ops % phases ? 1 : 0);
      await this.runPhase(share);
      if (phase < naps) await this.nap();
    }
  }

  async leave(): Promise<void> {
    try {
      await this.o.client.call('fleet_agent_leave', {});
    } catch (error) {
      if (!(error instanceof PlaneCallError && error.errorName === 'NOT_JOINED')) throw error;
      // Expired in a stall after its last operation: come back first, then leave.
      this.o.recorder.unplannedRejoins++;
      await this.rejoin();
      await this.o.client.call('fleet_agent_leave', {});
    }
    this.o.recorder.planned.leaves++;
    this.held.clear();
  }

  private async runPhase(ops: number): Promise<void> {
    let remaining = ops;
    const worker = async () => {
      while (remaining > 0) {
        remaining--;
        await this.step();
      }
    };
    await Promise.all(Array.from({ length: this.o.inFlight }, worker));
  }

  private async nap(): Promise<void> {
    const mark = this.o.watcher.events.length;
    await this.o.watcher.waitFor(
      (e) => e.type === 'agent.expired' && e.agentId === this.agentId,
      mark,
      Math.max(20_000, 10 * this.o.agentTtlMs),
      `agent.expired for ${this.o.callsign} while it napped`,
    );
    await this.rejoin();
    this.o.recorder.planned.naps++;
  }

  private async rejoin(): Promise<void> {
    const again = await this.o.client.call('fleet_agent_join', { callsign: this.o.callsign, runtime: 'script', sessionToken: this.sessionToken });
    if (!again.rejoined || again.agentId !== this.agentId) {
      this.o.recorder.problem(`${this.o.callsign}: re-join with its sessionToken gave ${JSON.stringify(again)}, expected agent ${this.agentId} rejoined`);
    }
    this.held.clear(); // an expired agent's claims are gone
  }

  /** One operation; the rare wrong answer is recorded, never thrown, so the load keeps going. */
  private async step(): Promise<void> {
    const roll = this.o.random.next();
    try {
      if (roll < 0.45) await (this.held.size >= MAX_HELD ? this.release() : this.claim());
      else if (roll < 0.6) await this.renew();
      else if (roll < 0.87) await this.release();
      else if (roll < 0.97) await this.check();
      else await this.heartbeat();
    } catch (error) {
      await this.onError(error);
    }
  }

  private async onError(error: unknown): Promise<void> {
    if (!(error instanceof PlaneCallError)) throw error; // a dead connection ends the run
    this.o.recorder.error(error.errorName ?? String(error.code));
    if (error.errorName === 'NOT_JOINED') {
      // Not planned: the plane expired this agent while it was busy (a stall longer than 2 TTLs).
      this.o.recorder.unplannedRejoins++;
      this.rejoining ??= this.rejoin().finally(() => (this.rejoining = undefined));
      await this.rejoining;
      return;
    }
    if (error.errorName === 'NOT_FOUND') {
      // Renewing a claim that expired or was released meanwhile: forget it.
      const id = error.data?.claimId;
      if (typeof id === 'string') this.held.delete(id);
      return;
    }
    this.o.recorder.problem(`${this.o.callsign}: unexpected error ${error.errorName ?? error.code}: ${error.message}`);
  }

  private pickRoot(): string {
    return this.o.roots.length > 1 && this.o.random.chance(0.15) ? this.o.random.pick(this.o.roots.slice(1)) : this.o.roots[0]!;
  }

  private async claim(): Promise<void> {
    const random = this.o.random;
    const count = random.chance(0.6) ? 1 : random.chance(0.75) ? 2 : 3;
    const specs: PatternSpec[] = [];
    while (specs.length < count) {
      const spec = random.pickWeighted(PATTERN_UNIVERSE, (s) => s.weight);
      if (!specs.includes(spec)) specs.push(spec);
    }
    const root = this.pickRoot();
    const mode = random.chance(0.35) ? 'shared' : 'exclusive';
    const ttlSeconds = random.chance(0.35) ? random.pick(TTLS) : undefined;
    const requestId = random.chance(0.6) ? `${this.o.callsign}-${++this.requestCounter}` : undefined;
    const params = { patterns: specs.map((s) => s.input), mode, root, ...(ttlSeconds !== undefined && { ttlSeconds }), ...(requestId !== undefined && { requestId }) } as const;
    const canonical = new Set(specs.map((s) => s.canonical));
    const retry = requestId === undefined ? 'none' : random.chance(0.12) ? 'pipelined' : random.chance(0.12) ? 'after' : 'none';

    const send = () => {
      this.o.recorder.count('claim');
      const fill = requestId !== undefined ? this.o.recorder.reserve(`${this.agentId} ${requestId}`) : undefined;
      return this.o.client.call('fleet_claim_path', params).then((answer) => {
        fill?.({ granted: answer.granted, ids: answer.claims.map((c) => c.id) });
        return answer;
      });
    };
    this.claimsInFlight++;
    const answers: Result<'fleet_claim_path'>[] = [];
    try {
      const first = send();
      const duplicate = retry === 'pipelined' ? send() : undefined; // sent before the first is answered
      answers.push(await first);
      if (duplicate) answers.push(await duplicate);
      if (retry === 'after') answers.push(await send());
    } finally {
      this.claimsInFlight--;
    }

    answers.forEach((answer, i) => this.absorbClaim(answer, i === 0 || !answers.slice(0, i).some((a) => a.granted) ? canonical : undefined, root, ttlSeconds !== undefined));
  }

  /** `canonical` is set for an answer that must be a fresh decision (not a replay of a grant). */
  private absorbClaim(answer: Result<'fleet_claim_path'>, canonical: Set<string> | undefined, root: string, ttl: boolean): void {
    const recorder = this.o.recorder;
    if (answer.granted) {
      recorder.outcome('granted');
      if (answer.conflicts.length > 0 || answer.refusedBy !== undefined) recorder.problem(`${this.o.callsign}: a grant came with conflicts ${JSON.stringify(answer)}`);
      const patterns = answer.claims.map((c) => c.pattern);
      if (canonical && (patterns.length !== canonical.size || !patterns.every((p) => canonical.has(p)))) {
        recorder.problem(`${this.o.callsign}: asked for [${[...canonical].join(', ')}], granted [${patterns.join(', ')}] (all or nothing, stored canonically)`);
      }
      for (const c of answer.claims) {
        recorder.acked({ id: c.id, agentId: this.agentId, pattern: c.pattern, fence: c.fence });
        this.held.set(c.id, { root, pattern: c.pattern, fence: c.fence, ttl });
      }
      return;
    }
    recorder.outcome(`refused:${answer.refusedBy}`);
    if (answer.refusedBy !== 'conflict' || answer.claims.length > 0 || answer.conflicts.length === 0) {
      recorder.problem(`${this.o.callsign}: malformed refusal ${JSON.stringify(answer)}`);
    }
    for (const conflict of answer.conflicts) {
      const fine =
        (!canonical || canonical.has(conflict.pattern)) &&
        conflict.holder !== this.o.callsign &&
        overlaps(compiled(conflict.pattern), compiled(conflict.heldPattern));
      if (!fine) recorder.problem(`${this.o.callsign}: conflict ${JSON.stringify(conflict)} does not explain a refusal of [${[...(canonical ?? [])].join(', ')}]`);
    }
  }

  private fenceChoice(): { fence?: number; stale: boolean } {
    const random = this.o.random;
    const heldFences = new Set([...this.held.values()].map((h) => h.fence));
    if (heldFences.size > 0 && random.chance(0.1)) return { fence: random.pick([...heldFences]), stale: false };
    const stale = this.releasedFences.filter((f) => !heldFences.has(f));
    if (stale.length > 0 && random.chance(0.1)) return { fence: random.pick(stale), stale: this.claimsInFlight === 0 };
    return { stale: false };
  }

  /**
   * Makes a call that presented the chosen fence, if any: a fence known to be stale must be
   * refused with STALE_FENCE, which is counted; undefined then stands for the refusal.
   */
  private async fenced<T>(operation: string, { fence, stale }: { fence?: number; stale: boolean }, call: () => Promise<T>): Promise<T | undefined> {
    try {
      const answer = await call();
      if (stale) this.o.recorder.problem(`${this.o.callsign}: ${operation} with stale fence ${fence} was accepted`);
      return answer;
    } catch (error) {
      if (error instanceof PlaneCallError && error.errorName === 'STALE_FENCE' && fence !== undefined) {
        this.o.recorder.error('STALE_FENCE');
        return undefined;
      }
      throw error;
    }
  }

  private async renew(): Promise<void> {
    const random = this.o.random;
    const ttlHeld = [...this.held.entries()].filter(([, h]) => h.ttl).map(([id]) => id);
    const claimIds = ttlHeld.length > 0 && random.chance(0.75) ? random.sample(ttlHeld, random.int(1, 2)) : undefined;
    const ttlSeconds = random.chance(0.85) ? random.pick(TTLS) : undefined;
    const choice = this.fenceChoice();
    const { fence } = choice;
    this.o.recorder.count('renew');
    const answer = await this.fenced('renew', choice, () =>
      this.o.client.call('fleet_claim_renew', { ...(claimIds && { claimIds }), ...(ttlSeconds !== undefined && { ttlSeconds }), ...(fence !== undefined && { fence }) }),
    );
    if (!answer) return;
    for (const { id } of answer.renewed) {
      const held = this.held.get(id);
      if (held && ttlSeconds !== undefined) held.ttl = true;
    }
    this.o.recorder.outcome('renewed');
  }

  private async release(): Promise<void> {
    const random = this.o.random;
    if (this.held.size === 0) return this.check();
    const choice = this.fenceChoice();
    const { fence } = choice;
    const [id, target] = random.pick([...this.held.entries()]);
    const byPattern = random.chance(0.35);
    const claimIds = byPattern ? undefined : [id, ...random.sample([...this.held.keys()].filter((k) => k !== id), random.int(0, 1))];
    this.o.recorder.count('release');
    const answer = await this.fenced('release', choice, () =>
      this.o.client.call('fleet_release_path', {
        ...(claimIds ? { claimIds } : { patterns: [target.pattern], root: target.root }),
        ...(fence !== undefined && { fence }),
      }),
    );
    if (!answer) return;
    if (claimIds && answer.released.some((r) => !claimIds.includes(r))) {
      this.o.recorder.problem(`${this.o.callsign}: released ${answer.released.join(', ')} when asked for ${claimIds.join(', ')}`);
    }
    for (const released of [...answer.released, ...(claimIds ?? [])]) {
      const held = this.held.get(released);
      if (held) this.releasedFences.push(held.fence);
      this.held.delete(released);
    }
    if (this.releasedFences.length > 20) this.releasedFences.splice(0, this.releasedFences.length - 20);
    this.o.recorder.outcome(answer.released.length > 0 ? 'released' : 'released-nothing');
  }

  /** The check must never show an exclusive holder next to another agent (invariant 1, seen live). */
  private async check(): Promise<void> {
    const random = this.o.random;
    const paths = random.sample(CHECK_PATHS, random.int(1, 3));
    this.o.recorder.count('check');
    const answer = await this.o.client.call('fleet_check_path', { paths, root: this.pickRoot() });
    for (const result of answer.results) {
      const callsigns = new Set(result.holders.map((h) => h.callsign));
      if (result.holders.some((h) => h.mode === 'exclusive') && callsigns.size > 1) {
        this.o.recorder.problem(`${this.o.callsign}: check of ${result.path} shows an exclusive holder beside others: ${JSON.stringify(result.holders)}`);
      }
      const mine = callsigns.has(this.o.callsign);
      const othersExclusive = result.holders.some((h) => h.callsign !== this.o.callsign && h.mode === 'exclusive');
      if (result.allowed !== (mine && !othersExclusive)) {
        this.o.recorder.problem(`${this.o.callsign}: check of ${result.path} says allowed=${result.allowed} with holders ${JSON.stringify(result.holders)}`);
      }
    }
  }

  private async heartbeat(): Promise<void> {
    this.o.recorder.count('heartbeat');
    await this.o.client.call('fleet_agent_heartbeat', { status: 'active' });
  }
}
