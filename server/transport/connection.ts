import type { WebSocket } from 'ws';
import { FleetError } from '../../contracts/index.js';
import { dispatch } from '../plane/dispatcher.js';
import type { PlaneServices } from '../plane/handlers/handler.js';
import type { Credential } from '../core/context.js';
import { unjoinedCaller, type Session } from '../plane/session.js';
import { errorReply, FrameError, notification, parseRequest, resultReply, type JsonRpcId } from './jsonrpc.js';

/**
 * One WebSocket client. Requests run concurrently and are answered by id; a bad frame gets its
 * JSON-RPC error and the connection stays usable. Faults the plane did not expect are logged and
 * answered as internal errors, never thrown out of the socket handler.
 */
export function serveConnection(socket: WebSocket, credential: Credential, plane: PlaneServices, log: (message: string) => void): void {
  const session: Session = {
    caller: unjoinedCaller(credential),
    credential,
    notify: (method, params) => send(notification(method, params)),
  };
  const send = (frame: string) => {
    if (socket.readyState === socket.OPEN) socket.send(frame);
  };

  socket.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
    let id: JsonRpcId | undefined;
    try {
      const request = parseRequest(text);
      id = request.id;
      dispatch(plane, session, request.method, request.params)
        .then(
          (result) => id !== undefined && send(resultReply(id, result)),
          (error: unknown) => id !== undefined && send(errorReply(id, asFleetError(error, log))),
        )
        .catch((error: unknown) => log(`could not answer ${request.method}: ${String(error)}`));
    } catch (error) {
      send(errorReply(error instanceof FrameError ? error.id : null, asFleetError(error, log)));
    }
  });
  socket.on('close', () => session.unsubscribe?.());
  socket.on('error', (error) => log(`connection error: ${error.message}`));
}

function asFleetError(error: unknown, log: (message: string) => void): FleetError {
  if (error instanceof FleetError) return error;
  log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new FleetError('INTERNAL', `internal error: ${error instanceof Error ? error.message : String(error)}`);
}
