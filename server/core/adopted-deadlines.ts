import type { FleetEvent } from '../../contracts/index.js';
import type { Deadline } from './context.js';

/**
 * The deadline an event decided on another plane creates here, as the command that emitted it
 * scheduled it there. Only creations: a later renewal or heartbeat moves a deadline the sweeper
 * already re-checks when it comes due.
 */
export function deadlineOfAdopted(event: FleetEvent): { at: number; deadline: Deadline } | undefined {
  switch (event.type) {
    case 'agent.joined':
      return { at: event.at, deadline: { kind: 'agent', agentId: event.agentId } };
    case 'claim.granted':
      return event.expiresAt === undefined ? undefined : { at: event.expiresAt, deadline: { kind: 'claim', claimId: event.claimId } };
    case 'lease.acquired':
      return { at: event.expiresAt, deadline: { kind: 'lease', name: event.name } };
    case 'handoff.sent':
      return { at: event.expiresAt, deadline: { kind: 'handoff', handoffId: event.handoffId } };
    default:
      return undefined;
  }
}
