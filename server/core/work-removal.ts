import { FINISHED_STATUSES, FleetError } from '../../contracts/index.js';
import { actorName, isRteOrOperator } from './authority.js';
import { releaseHeldClaims } from './work-claims.js';
import type { Caller, Ctx } from './context.js';


/**
 * Takes finished items out of the queue (a demo's, an old wave's), all or nothing. Only done or
 * rolled-back items go, and none that an item staying in the queue still points at (as a
 * dependency or a parent), so nothing left behind refers to an item that is gone. Their history
 * stays in the event log.
 */
export function removeWork(ctx: Ctx, caller: Caller, itemIds: readonly string[]): string[] {
  if (!isRteOrOperator(ctx.state, caller)) throw new FleetError('FORBIDDEN', 'removing work from the queue needs role rte or the operator');
  const removing = new Set(itemIds);
  for (const id of removing) {
    const item = ctx.state.work.get(id);
    if (!item) throw new FleetError('NOT_FOUND', `no work item ${id}`);
    if (!FINISHED_STATUSES.has(item.status)) throw new FleetError('INVALID_STATE', `${id} is ${item.status}: only done or rolled-back work leaves the queue (landed and land_failed count as done; roll it back first)`);
  }
  for (const item of ctx.state.work.values()) {
    if (removing.has(item.id)) continue;
    const pointed = [...item.dependsOn, ...(item.parent !== undefined ? [item.parent] : [])].find((id) => removing.has(id));
    if (pointed !== undefined) throw new FleetError('INVALID_STATE', `${item.id} (${item.status}) still depends on ${pointed}: remove it too, or leave ${pointed} in the queue`);
  }
  const removed = [...removing];
  for (const id of removed) releaseHeldClaims(ctx, id, actorName(ctx.state, caller), `${id} removed from the queue`);
  ctx.emit({ type: 'work.removed', itemIds: removed });
  return removed;
}
