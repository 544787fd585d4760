import { buildHandlers } from './build.js';
import { coordinationHandlers } from './coordination.js';
import { digestHandlers } from './digest.js';
import type { HandlerTable } from './handler.js';
import { historyHandlers } from './history.js';
import { integrationHandlers } from './integration.js';
import { hookHandlers } from './hooks.js';
import { trainHandlers } from './train.js';
import { messagingHandlers } from './messaging.js';
import { planeHandlers } from './plane.js';
import { rosterHandlers } from './roster.js';
import { territoryHandlers } from './territory.js';
import { tokenHandlers } from './tokens.js';
import { violationHandlers } from './violations.js';
import { workHandlers } from './work.js';

/** Every method of the table, each handled by its feature's file; a missing one does not compile. */
export const handlers: HandlerTable = {
  ...rosterHandlers,
  ...territoryHandlers,
  ...coordinationHandlers,
  ...messagingHandlers,
  ...workHandlers,
  ...buildHandlers,
  ...trainHandlers,
  ...digestHandlers,
  ...historyHandlers,
  ...hookHandlers,
  ...planeHandlers,
  ...violationHandlers,
  ...integrationHandlers,
  ...tokenHandlers,
};
