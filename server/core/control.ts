import { FleetError, type ControlState } from '../../contracts/index.js';
import { actorName, isOperator } from './authority.js';
import type { Caller, Ctx } from './context.js';

/** How far from normal running each state is: agents may only move the switch toward safety. */
const safety: Record<ControlState, number> = { run: 0, drain: 1, pause: 2, stop: 3 };

export function setControl(ctx: Ctx, caller: Caller, state: ControlState, reason?: string): void {
  const current = ctx.state.control.state;
  if (safety[state] < safety[current] && !isOperator(ctx.state, caller)) {
    throw new FleetError('FORBIDDEN', `only the operator moves the fleet switch from ${current} back toward run; agents may only pull the brake`, { from: current, to: state });
  }
  ctx.emit({ type: 'control.set', by: actorName(ctx.state, caller), state, ...(reason !== undefined && { reason }) });
}

/** pause and stop refuse new claims and new work; drain still lets agents claim what they finish. */
export function refusesNewClaims(state: ControlState): boolean {
  return state === 'pause' || state === 'stop';
}
