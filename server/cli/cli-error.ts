import { errorTable } from '../../contracts/errors.js';
import { PlaneCallError } from '../client/plane-call-error.js';
import { RemotePlaneError } from '../client/remote-plane.js';

/** Exit codes of every verb (DESIGN §3); `fleet hook …` speaks its caller's protocol instead. */
export const EXIT = { ok: 0, internal: 1, badInput: 2, refused: 3 } as const;

/** Bad command-line input: exit 2 with a message that says what was wrong and what to do. */
export class UsageError extends Error {}

/** A refusal the user should see as such (conflict, control state): exit 3. */
export class RefusedError extends Error {}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError || error instanceof RemotePlaneError) return EXIT.badInput;
  if (error instanceof RefusedError) return EXIT.refused;
  if (error instanceof PlaneCallError && error.errorName) return errorTable[error.errorName].exitCode;
  return EXIT.internal;
}
