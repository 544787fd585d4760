import { FleetError, PROTOCOL_VERSION, STORE_HEALTH_NOTIFICATION, type StoreHealthNotification } from '../../../contracts/index.js';
import { controlView, iso } from '../../core/views.js';
import { EventFeed } from '../rpc/event-feed.js';
import { page } from '../rpc/pager.js';
import type { HandlerTable } from './handler.js';
import { agentList, claimList, parkedClaimList } from './paged-lists.js';

export const planeHandlers = {
  fleet_plane_hello: (params, _session, { info }) => {
    if (params.protocolVersion !== PROTOCOL_VERSION) {
      throw new FleetError(
        'PROTOCOL_MISMATCH',
        `this plane speaks protocol ${PROTOCOL_VERSION}, the client ${params.protocolVersion}: run \`fleet shutdown\` and let the client start a matching plane, or update the client`,
        { plane: PROTOCOL_VERSION, client: params.protocolVersion },
      );
    }
    const { version, pid } = info();
    return { protocolVersion: PROTOCOL_VERSION, planeVersion: version, pid };
  },

  fleet_status: (params, session, { core, info, storeHealth }) =>
    core.run(session.caller, (ctx) => {
      const plane = info();
      return {
        plane: { version: plane.version, pid: plane.pid, port: plane.port, ...(plane.socket !== undefined && { socket: plane.socket }), ...(plane.listen !== undefined && { listen: plane.listen }), startedAt: iso(plane.startedAt), seq: ctx.state.seq, store: storeHealth(), agentTtlSeconds: ctx.config.agentTtlMs / 1000 },
        controlDetail: controlView(ctx.state.control),
        ...page({ agents: agentList(ctx, params.includeGone), claims: claimList(ctx), parkedClaims: parkedClaimList(ctx) }, params, ctx.state),
      };
    }),

  /**
   * Pushes every durable event to the session, after replaying the history after fromSeq if given
   * (see EventFeed), and each change of the store's health (not an event: a cut-off plane logs nothing).
   */
  fleet_events_subscribe: async (params, session, { journal, history, onStoreHealthChange }) => {
    session.unsubscribe?.();
    const stopHealth = onStoreHealthChange((store) => session.notify(STORE_HEALTH_NOTIFICATION, { store } satisfies StoreHealthNotification));
    // The feed ends the whole subscription, whether unsubscribed or cut by a gap.
    const feed = new EventFeed(session, journal, history, stopHealth);
    session.unsubscribe = () => feed.stop();
    try {
      return { seq: await feed.start(params.fromSeq) };
    } catch (error) {
      feed.stop(); // the replay failed (the store out of reach): nothing half-subscribed stays behind
      throw error;
    }
  },

  fleet_plane_shutdown: (_params, _session, { shutdown }) => {
    setImmediate(shutdown);
    return { shuttingDown: true };
  },
} satisfies Partial<HandlerTable>;
