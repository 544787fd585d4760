import type { FleetCore } from '../../core/fleet-core.js';
import { StoreRetryError } from '../../store/store.js';
import type { Journal } from '../persistence/journal.js';

/** Between two announcements of a start the store refused. */
const RETRY_PAUSE_MS = 500;

/**
 * Waits until the plane's start (announced already, by `announce`) is durable. A shared log whose cluster
 * has only just formed may refuse the first publish as retryable ("JetStream not enabled", a
 * timeout); the refusal rolls the core back, so the start is announced again, until it is taken or
 * `boundMs` has passed. The embedded store never refuses that way.
 */
export async function recordStart(core: FleetCore, journal: Journal, announce: () => void, boundMs: number, log: (message: string) => void): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    try {
      await journal.whenDurable(core.state.seq);
      return;
    } catch (error) {
      if (!(error instanceof StoreRetryError) || Date.now() > deadline) throw error;
      if (error.kind === 'unavailable') log(`store: the plane's start was not recorded yet (${error.message}); announcing it again`);
      await error.settled;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      announce();
    }
  }
}
