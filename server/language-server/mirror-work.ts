import type { FleetEvent, WorkItem } from '../../contracts/index.js';

/**
 * The work queue's events applied to the language server's copy of it, as the plane's reducer
 * applies them to its records (orchestration-reducer.ts), but on the public shapes: agent ids
 * become callsigns. Returns the item that changed, if any.
 */
export function applyWorkEvent(items: Map<string, WorkItem>, event: FleetEvent, callsign: (agentId: string) => string): WorkItem | undefined {
  const at = new Date(event.at).toISOString();
  switch (event.type) {
    case 'work.added': {
      if (items.has(event.itemId)) return undefined; // already in the loaded list
      const item: WorkItem = {
        id: event.itemId,
        title: event.title,
        kind: event.kind,
        ...(event.parent !== undefined && { parent: event.parent }),
        dependsOn: event.dependsOn,
        paths: event.paths,
        criteria: event.criteria,
        ...(event.role !== undefined && { role: event.role }),
        ...(event.tier !== undefined && { tier: event.tier }),
        ...(event.scope !== undefined && { scope: event.scope }),
        status: 'ready',
        blockedBy: [],
        createdAt: at,
        updatedAt: at,
      };
      items.set(item.id, item);
      return item;
    }
    case 'work.transitioned': {
      const old = items.get(event.itemId);
      if (!old) return undefined;
      const item: WorkItem = { ...old, status: event.status, updatedAt: at };
      if (event.assignee === null) delete item.assignee;
      else if (event.assignee !== undefined) item.assignee = callsign(event.assignee);
      if (event.verifier === null) delete item.verifier;
      else if (event.verifier !== undefined) item.verifier = callsign(event.verifier);
      if (event.reason !== undefined) item.statusReason = event.reason;
      if (event.artifact !== undefined) item.artifact = event.artifact;
      if (event.report !== undefined) item.report = event.report;
      if (event.decision !== undefined) {
        item.decision = event.decision;
        item.decidedBy = event.by ?? 'unknown';
      }
      items.set(item.id, item);
      return item;
    }
    case 'work.blockers': {
      const old = items.get(event.itemId);
      if (!old) return undefined;
      const item = { ...old, blockedBy: event.blockedBy };
      items.set(item.id, item);
      return item;
    }
    default:
      return undefined;
  }
}
