import type { State } from './state.js';

/**
 * A result decided in a later run of the core than its call's (a waiting claim granted once its
 * territory frees). Its call must wait for exactly that run's events to be durable, and a replicated
 * store may since have reset the core to the shared order, dropping them or keeping them.
 */
export interface LaterDecision {
  /** The state it was decided on (a reset replaces the object) and the seq of its last event. */
  state: State;
  seq: number;
  /** Whether `state`, the core's after a reset, still holds what was decided. */
  kept(state: State): boolean;
}

const LATER = Symbol('decided later');

/** Tags `body` with its decision; the tag is not enumerable, so no reply ever carries it. */
export function markDecidedLater<T extends object>(body: T, decision: LaterDecision): T {
  Object.defineProperty(body, LATER, { value: decision });
  return body;
}

export function decidedLater(body: unknown): LaterDecision | undefined {
  return typeof body === 'object' && body !== null ? (body as { [LATER]?: LaterDecision })[LATER] : undefined;
}
