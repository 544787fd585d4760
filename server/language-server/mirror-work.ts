import type { FleetEvent, WorkItem } from '../../contracts/index.js';
import { addedWork, transitionWork } from '../core/work-events.js';

/**
 * The work queue's events applied to the language server's copy of it, by the plane's own rules
 * (core/work-events.ts) but on the public shapes: ISO times, callsigns for agent ids. Returns the
 * item that changed, if any (a new object: the views compare by identity).
 */
export function applyWorkEvent(items: Map<string, WorkItem>, event: FleetEvent, callsign: (agentId: string) => string): WorkItem | undefined {
  const at = new Date(event.at).toISOString();
  let item: WorkItem | undefined;
  if (event.type === 'work.added') {
    if (items.has(event.itemId)) return undefined; // already in the loaded list
    item = addedWork(event, at);
  } else if (event.type === 'work.transitioned') {
    const old = items.get(event.itemId);
    if (!old) return undefined;
    item = { ...old };
    transitionWork(item, event, at, callsign);
  } else if (event.type === 'work.blockers') {
    const old = items.get(event.itemId);
    if (!old) return undefined;
    item = { ...old, blockedBy: event.blockedBy };
  }
  if (item) items.set(item.id, item);
  return item;
}
