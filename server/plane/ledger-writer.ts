import type { Ledger } from '../../contracts/index.js';
import type { FleetCore } from '../core/fleet-core.js';
import { claimExpiresAt } from '../core/liveness.js';
import { agentView, callsignOf, controlView, iso } from '../core/views.js';
import { writeFileDurably } from '../store/durable-write.js';

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
    const started = performance.now();
    const text = JSON.stringify(buildLedger(this.core));
    this.spacingMs = Math.max(MIN_SPACING_MS, (performance.now() - started) * SPACING_PER_COST);
    this.writing = this.writing.then(() => writeFileDurably(this.path, text)).catch((error: Error) => this.onError(error));
    return this.writing;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }
}

export function buildLedger(core: FleetCore): Ledger {
  const { state, indexes, config } = core;
  const now = Date.now();
  const ownership: Ledger['ownership'] = {};
  for (const claim of state.claims.values()) {
    const byPattern = (ownership[claim.scope] ??= {});
    (byPattern[claim.pattern] ??= []).push({
      claimId: claim.id,
      holder: callsignOf(state, claim.agentId),
      mode: claim.mode,
      fence: claim.fence,
      expiresAt: iso(claimExpiresAt(claim, state, config)),
    });
  }
  return {
    schemaVersion: 1,
    generatedAt: iso(now),
    seq: state.seq,
    control: controlView(state.control),
    agents: [...state.agents.values()].filter((a) => !a.gone).map((a) => agentView(a, indexes, now, config)),
    ownership,
  };
}
