import type { Ledger } from '../../contracts/index.js';
import type { FleetCore } from '../core/fleet-core.js';
import { claimExpiresAt } from '../core/liveness.js';
import { agentView, callsignOf, controlView, iso } from '../core/views.js';
import { writeFileDurably } from '../store/durable-write.js';

const DEBOUNCE_MS = 200;

/**
 * Keeps FLEET_HOME/ledger.json, the read-only cache of roster and ownership for agents that can
 * only read files. Rewritten atomically, at most every DEBOUNCE_MS, never read back by the plane.
 */
export class LedgerWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly core: FleetCore,
    private readonly path: string,
    private readonly onError: (error: Error) => void,
  ) {}

  changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, DEBOUNCE_MS);
  }

  /** Writes now (after any write in flight); used at start and shutdown. */
  write(): Promise<void> {
    const text = JSON.stringify(buildLedger(this.core), null, 1);
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
