import type { Ledger } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { claimLapse } from '../../core/liveness.js';
import { agentView, callsignOf, controlView, iso } from '../../core/views.js';
import type { ClaimRecord } from '../../core/state.js';
import { writeChunksDurably } from '../../store/durable-write.js';

const MIN_SPACING_MS = 200;
/** A rewrite blocks the event loop while it serializes; spacing it by a multiple of its cost keeps that a small share. */
const SPACING_PER_COST = 20;

/**
 * Keeps FLEET_HOME/ledger.json, the read-only cache of roster and ownership for agents that can
 * only read files. Rewritten atomically after changes, spaced by its own cost (at least
 * MIN_SPACING_MS apart), never read back by the plane.
 */
export class LedgerWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private spacingMs = MIN_SPACING_MS;

  constructor(
    private readonly core: FleetCore,
    private readonly path: string,
    private readonly onError: (error: Error) => void,
  ) {}

  changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, this.spacingMs);
  }

  /** Writes now (after any write in flight); used at start and shutdown. */
  write(): Promise<void> {
    this.writing = this.writing
      .then(() => {
        const started = performance.now();
        const written = writeChunksDurably(this.path, (write) => writeLedger(this.core, write));
        this.spacingMs = Math.max(MIN_SPACING_MS, (performance.now() - started) * SPACING_PER_COST);
        return written;
      })
      .catch((error: Error) => this.onError(error));
    return this.writing;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }
}

/**
 * Writes the ledger as JSON, piece by piece: with tens of thousands of claims, building it as one
 * object and one string kept several copies of the ownership map alive at once and grew the
 * plane's heap by tens of megabytes per rewrite.
 */
function writeLedger(core: FleetCore, write: (text: string) => void): void {
  const { state, indexes, config } = core;
  const now = Date.now();
  const head: Omit<Ledger, 'ownership'> = {
    schemaVersion: 1,
    generatedAt: iso(now),
    seq: state.seq,
    control: controlView(state.control),
    agents: [...state.agents.values()].filter((a) => !a.gone).map((a) => agentView(a, indexes, now, config)),
  };
  write(`${JSON.stringify(head).slice(0, -1)},"ownership":{`);
  // Sorted, each scope's and each pattern's owners come together: ownership is scope → pattern → owners.
  const claims = [...state.claims.values()].sort(byScopeThenPattern);
  let scope: string | undefined;
  let pattern: string | undefined;
  for (const claim of claims) {
    if (claim.scope !== scope) write(`${scope === undefined ? '' : ']},'}${JSON.stringify(claim.scope)}:{${JSON.stringify(claim.pattern)}:[`);
    else if (claim.pattern !== pattern) write(`],${JSON.stringify(claim.pattern)}:[`);
    else write(',');
    scope = claim.scope;
    pattern = claim.pattern;
    const { expiresAt, expiresWith } = claimLapse(claim, state, config);
    const owner: Ledger['ownership'][string][string][number] = {
      claimId: claim.id,
      holder: callsignOf(state, claim.agentId),
      mode: claim.mode,
      fence: claim.fence,
      expiresAt: expiresAt === null ? null : iso(expiresAt),
      expiresWith,
    };
    write(JSON.stringify(owner));
  }
  write(scope === undefined ? '}}' : ']}}}');
}

function byScopeThenPattern(a: ClaimRecord, b: ClaimRecord): number {
  if (a.scope !== b.scope) return a.scope < b.scope ? -1 : 1;
  return a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0;
}
