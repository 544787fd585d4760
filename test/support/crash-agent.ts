// An agent of the crash suite: it survives plane restarts by re-joining with its sessionToken, and
// claims and releases continuously (several requests in flight) until the plane dies under it.
import type { ClaimMode } from '../../contracts/index.js';
import { PlaneCallError, type PlaneClient } from '../../server/client/plane-client.js';
import type { CrashLedger, LogIndex, PendingClaim, PendingRelease } from './crash-ledger.js';
import { PATTERN_UNIVERSE } from './pattern-universe.js';
import type { PlaneProcess } from './plane-process.js';
import type { SeededRandom } from './seeded-random.js';

const MAX_HELD = 6;
const OWN_FILES = 12;

export class CrashAgent {
  agentId = '';
  private sessionToken = '';
  private client: PlaneClient | undefined;
  private requests = 0;
  /** Set once the plane is being killed: from then on a dead connection is expected. */
  private dying = false;
  private readonly candidates: { input: string; canonical: string }[];

  constructor(
    readonly callsign: string,
    private readonly root: string,
    private readonly random: SeededRandom,
    private readonly ledger: CrashLedger,
  ) {
    // The shared universe collides a lot; files of its own (listed twice, so about half the picks
    // land there) keep grants, and so acknowledged state to lose, plentiful.
    const own = Array.from({ length: OWN_FILES }, (_, k) => ({ input: `agents/${callsign}/f${k}.ts`, canonical: `agents/${callsign}/f${k}.ts` }));
    this.candidates = [...PATTERN_UNIVERSE.map(({ input, canonical }) => ({ input, canonical })), ...own, ...own];
  }

  /** Connects to a (re)started plane and joins, or re-joins with the sessionToken. */
  async attach(plane: PlaneProcess): Promise<void> {
    this.client = await plane.connect(this.callsign);
    this.dying = false;
    const joined = await this.client.call('fleet_agent_join', { callsign: this.callsign, runtime: 'script', ...(this.sessionToken && { sessionToken: this.sessionToken }) });
    if (this.sessionToken) {
      if (!joined.rejoined || joined.agentId !== this.agentId) {
        this.ledger.violation(`${this.callsign}: re-join after restart gave ${JSON.stringify(joined)}, expected agent ${this.agentId} again`);
      }
    } else {
      this.agentId = joined.agentId;
      this.sessionToken = joined.sessionToken;
    }
  }

  markDying(): void {
    this.dying = true;
  }

  /**
   * Retries the claim requests of this agent that the last kill left unanswered, with the same
   * requestId: one the log shows granted, with a claim of it still live, must come back as exactly
   * that grant.
   */
  async retryUncertain(log: LogIndex, round: number): Promise<void> {
    for (const pending of this.ledger.uncertainClaims.filter((p) => p.agentId === this.agentId)) {
      const floor = this.ledger.maxFence;
      const answer = await this.client!.call('fleet_claim_path', { patterns: pending.patterns, mode: pending.mode, root: this.root, requestId: pending.requestId });
      const logged = log.byRequest.get(`${this.agentId} ${pending.requestId}`) ?? [];
      // A grant all of whose claims the log shows ended (e.g. a release by pattern that was in
      // flight beside it) is no longer replayed: the retry is decided afresh, like a new request.
      const stillLive = logged.some((id) => !log.endings.has(id));
      if (stillLive) {
        this.ledger.counts.retriedSame++;
        const ids = answer.claims.map((c) => c.id);
        if (!answer.granted || ids.length !== logged.length || !ids.every((id) => logged.includes(id))) {
          this.ledger.violation(`round ${round}: retrying ${pending.requestId}, granted before the kill as [${logged.join(', ')}], returned ${JSON.stringify(answer)}`);
        }
        continue; // the retry re-reports a grant the restart checks already accounted for
      }
      this.ledger.counts.retriedFresh++;
      if (answer.granted) this.ledger.granted(this.agentId, pending.mode, answer.claims, floor, `round ${round} retry of ${pending.requestId}`);
      else this.ledger.counts.refused++;
    }
  }

  /** Claims and releases until the connection dies; `onAck` fires on every acknowledged operation. */
  async load(round: number, inFlight: number, onAck: () => void): Promise<void> {
    const worker = async () => {
      for (;;) {
        try {
          await this.step(round);
          onAck();
        } catch (error) {
          if (error instanceof PlaneCallError || !this.dying) {
            this.ledger.violation(`${this.callsign} round ${round}: ${error instanceof PlaneCallError ? `plane error ${error.errorName}` : 'connection lost before the kill'}: ${(error as Error).message}`);
          }
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  }

  private async step(round: number): Promise<void> {
    const held = this.ledger.heldBy(this.agentId);
    if (held.length < 2 || (held.length < MAX_HELD && this.random.chance(0.55))) return this.claim(round);
    return this.release(held);
  }

  private async claim(round: number): Promise<void> {
    const mode: ClaimMode = this.random.chance(0.75) ? 'exclusive' : 'shared';
    // Never re-ask for what this agent already holds or is asking for: each answer is then a fresh decision.
    const busy = new Set([
      ...this.ledger.heldBy(this.agentId).filter((c) => c.mode === mode).map((c) => c.pattern),
      ...[...this.ledger.pendingClaims].filter((p) => p.agentId === this.agentId).flatMap((p) => p.patterns),
    ]);
    const free = this.candidates.filter((c) => !busy.has(c.canonical));
    const chosen = this.random.sample(free, this.random.chance(0.7) ? 1 : 2);
    const patterns = [...new Set(chosen.map((c) => c.canonical))];
    const pending: PendingClaim = { agentId: this.agentId, requestId: `${this.callsign}-r${round}-${++this.requests}`, patterns, mode };
    const floor = this.ledger.maxFence;
    this.ledger.pendingClaims.add(pending);
    const answer = await this.client!.call('fleet_claim_path', { patterns: chosen.map((c) => c.input), mode, root: this.root, requestId: pending.requestId });
    this.ledger.pendingClaims.delete(pending);
    if (answer.granted) this.ledger.granted(this.agentId, mode, answer.claims, floor, `${this.callsign} round ${round}`);
    else this.ledger.counts.refused++;
  }

  private async release(held: { id: string; pattern: string }[]): Promise<void> {
    const byPattern = this.random.chance(0.2);
    const target = this.random.pick(held);
    const ids = byPattern ? held.filter((c) => c.pattern === target.pattern).map((c) => c.id) : this.random.sample(held, this.random.int(1, 2)).map((c) => c.id);
    const pending: PendingRelease = { agentId: this.agentId, ids, ...(byPattern && { pattern: target.pattern }) };
    this.ledger.pendingReleases.add(pending);
    const answer = await this.client!.call('fleet_release_path', byPattern ? { patterns: [target.pattern], root: this.root } : { claimIds: ids });
    this.ledger.pendingReleases.delete(pending);
    // Nothing expires in this suite, so every live claim asked for must be released.
    // (One released just before by another of this agent's requests is fine: it is acknowledged as released.)
    const missing = ids.filter((id) => !answer.released.includes(id) && !this.ledger.released.has(id));
    if (missing.length > 0) this.ledger.violation(`${this.callsign}: releasing [${ids.join(', ')}] released only [${answer.released.join(', ')}]`);
    this.ledger.releasedAck(answer.released);
  }
}
