import type { WebSocket } from 'ws';
import { FleetError } from '../../contracts/index.js';
import type { Credential } from '../core/context.js';
import { unjoinedCaller, type Session } from '../plane/rpc/session.js';
import { FlowControl } from './flow-control.js';
import { errorReply, FrameError, notification, parseRequest, resultReply } from './jsonrpc.js';
import type { ThrottledLog } from './throttled-log.js';
import type { ServedConnection } from './ws-endpoint.js';

/**
 * One WebSocket client. Requests run concurrently, under the connection's flow control, and are
 * answered by id; a bad frame gets its JSON-RPC error and the connection stays usable. Faults the
 * plane did not expect are logged and answered as internal errors, never thrown out of the socket
 * handler.
 */
/** Runs one call for a session: the plane's dispatcher, handed in so the transport knows no method. */
export type Dispatch = (session: Session, method: string, params: unknown) => Promise<unknown>;

export function serveConnection(socket: WebSocket, credential: Credential, dispatch: Dispatch, log: (message: string) => void, notices: ThrottledLog): ServedConnection {
  const flow = new FlowControl(socket, (frame) => answer(frame), (what, figures) => notices.note(what, figures));
  const closed = new AbortController();
  const session: Session = {
    caller: unjoinedCaller(credential),
    credential,
    closed: closed.signal,
    notify: (method, params) => flow.notify(notification(method, params)),
    notificationsBehind: () => flow.notificationsBehind(),
    notificationsDrained: () => flow.notificationsDrained(),
  };

  /** The reply to one frame, if it asks for one. */
  async function answer(text: string): Promise<string | undefined> {
    try {
      const request = parseRequest(text);
      try {
        const result = await dispatch(session, request.method, request.params);
        return request.id === undefined ? undefined : resultReply(request.id, result);
      } catch (error) {
        return request.id === undefined ? undefined : errorReply(request.id, asFleetError(error, log));
      }
    } catch (error) {
      return errorReply(error instanceof FrameError ? error.id : null, asFleetError(error, log));
    }
  }

  socket.on('close', () => {
    session.unsubscribe?.();
    closed.abort();
  });
  socket.on('error', (error) => log(`connection error: ${error.message}`));
  return flow;
}

export function asFleetError(error: unknown, log: (message: string) => void): FleetError {
  if (error instanceof FleetError) return error;
  log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new FleetError('INTERNAL', `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
