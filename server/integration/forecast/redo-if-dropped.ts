import { StoreRetryError } from '../../store/store.js';

/**
 * On a shared log, a plane's event may be dropped when another plane's decision overtakes it (the
 * plane is then reset to the log's order): `redo` runs once the plane has caught up, so a write-set
 * or a forecast decided on the old state is decided again rather than lost.
 */
export function redoIfDropped(durable: Promise<void>, redo: () => void): Promise<void> {
  return durable.catch((error: unknown) => {
    // Any other failure stops the plane (nothing unacknowledged is ever acknowledged): nothing to redo.
    if (error instanceof StoreRetryError) return error.settled.then(redo);
  });
}
