import type { ErrorName } from '../../contracts/errors.js';

/** A JSON-RPC error the plane answered with; `errorName` comes from the contracts' error table. (Builtin-only: the lean hook runner throws it too.) */
export class PlaneCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly errorName: ErrorName | undefined,
    readonly data: Record<string, unknown> | undefined,
  ) {
    super(message);
  }
}
