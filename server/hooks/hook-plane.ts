// The plane as every hook talks to it: the full CLI verb through PlaneClient (connectToPlane, which
// starts a plane where none runs), the lean runner through its own small socket client
// (lean/plane-call.ts). The hooks' logic takes one of these and loads neither.
import type { PlaneClient } from '../client/plane-client.js';

export type HookPlane = Pick<PlaneClient, 'call' | 'close'>;

/** Opens a connection for one client name (`fleet-hook-<verb>`); each hook closes what it opens. */
export type OpenHookPlane = (client: string) => Promise<HookPlane>;

/**
 * Every connection a hook run asks for is the first one (a hook asks one question after another):
 * one upgrade and hello per run, opened at the first question; each hook's close leaves it open,
 * `close` ends it when the run is over.
 */
export function oneConnectionPerRun(open: OpenHookPlane): { open: OpenHookPlane; close(): void } {
  let plane: Promise<HookPlane> | undefined;
  return {
    open: async (client) => {
      const opened = await (plane ??= open(client));
      return { call: opened.call.bind(opened) as HookPlane['call'], close: () => undefined };
    },
    close: () => void plane?.then((opened) => opened.close(), () => undefined),
  };
}
