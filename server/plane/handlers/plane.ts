import { FleetError, PROTOCOL_VERSION, type FleetEvent } from '../../../contracts/index.js';
import { controlView, iso } from '../../core/views.js';
import { page } from '../pager.js';
import type { HandlerTable } from './handler.js';
import { agentList, claimList } from './paged-lists.js';

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

  fleet_status: (params, session, { core, info }) =>
    core.run(session.caller, (ctx) => {
      const plane = info();
      return {
        plane: { version: plane.version, pid: plane.pid, port: plane.port, ...(plane.socket !== undefined && { socket: plane.socket }), startedAt: iso(plane.startedAt), seq: ctx.state.seq },
        controlDetail: controlView(ctx.state.control),
        ...page({ agents: agentList(ctx, params.includeGone), claims: claimList(ctx) }, params),
      };
    }),

  /**
   * Pushes every durable event to the session. With fromSeq, the history after it is replayed
   * first; events that become durable during the replay are held back and sent after it, in order.
   */
  fleet_events_subscribe: async (params, session, { journal, history }) => {
    session.unsubscribe?.();
    const held: FleetEvent[] = [];
    let replaying = params.fromSeq !== undefined;
    const send = (event: FleetEvent) => session.notify('fleet_event', { event });
    session.unsubscribe = journal.subscribe((events) => {
      for (const event of events) {
        if (replaying) held.push(event);
        else send(event);
      }
    });
    const seq = journal.lastDurableSeq;
    if (params.fromSeq !== undefined) {
      for await (const event of history(params.fromSeq + 1)) {
        if (event.seq > seq) break;
        send(event);
      }
      replaying = false;
      for (const event of held) send(event);
    }
    return { seq };
  },

  fleet_plane_shutdown: (_params, _session, { shutdown }) => {
    setImmediate(shutdown);
    return { shuttingDown: true };
  },
} satisfies Partial<HandlerTable>;
