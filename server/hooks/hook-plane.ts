// The plane as every hook talks to it: the full CLI verb through PlaneClient (connectToPlane, which
// starts a plane where none runs), the lean runner through its own small socket client
// (lean/plane-call.ts). The hooks' logic takes one of these and loads neither.
import type { PlaneClient } from '../client/plane-client.js';

export type HookPlane = Pick<PlaneClient, 'call' | 'close'>;

/** Opens a connection for one client name (`fleet-hook-<verb>`); each hook closes what it opens. */
export type OpenHookPlane = (client: string) => Promise<HookPlane>;
