import type { FleetCore } from '../../core/fleet-core.js';
import { integratorLease } from '../../core/integration-train.js';
import { holdPlaneLease } from '../../core/leases.js';

/**
 * Whether this plane is a scope's integrator (DESIGN §14, §16): the holder of the scope's integrator
 * lease, the one the train uses, so one plane at a time forecasts between branches. A lease that is
 * free or lapsed (its plane died) is taken here; one this plane holds is kept alive by the train's
 * renewal. Alone on its store (no shared log) the plane is every scope's integrator, without a lease.
 */
export class IntegratorRole {
  constructor(
    private readonly core: FleetCore,
    /** The train's name for this plane as a lease holder. */
    readonly planeName: string,
    private readonly leaseTtlMs: number,
  ) {}

  get sharedLog(): boolean {
    return this.core.config.planeId !== undefined;
  }

  holds(scope: string): boolean {
    if (!this.sharedLog) return true;
    const lease = this.core.state.leases.get(integratorLease(scope));
    const live = lease !== undefined && lease.expiresAt > this.core.now();
    if (live) return lease.agentId === this.planeName;
    return this.core.run(undefined, (ctx) => holdPlaneLease(ctx, integratorLease(scope), this.planeName, this.leaseTtlMs));
  }
}
