import { errorTable, FleetError, type ErrorName } from '../../contracts/index.js';

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  id: JsonRpcId | undefined;
  method: string;
  params: unknown;
}

export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** A frame that could not be read as a request, with the id to answer it under (if any). */
export class FrameError extends FleetError {
  constructor(
    name: ErrorName,
    message: string,
    readonly id: JsonRpcId,
  ) {
    super(name, message);
  }
}

const isValidId = (id: unknown): id is JsonRpcId => id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/**
 * Reads one WebSocket message as one JSON-RPC 2.0 request. Everything else is answered with the
 * standard code and a message that names what was wrong; vscode-jsonrpc would only log these.
 */
export function parseRequest(text: string): JsonRpcRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FrameError('PARSE_ERROR', `the frame is not valid JSON (${(error as Error).message}): send one JSON-RPC 2.0 object per message`, null);
  }
  if (Array.isArray(value)) throw new FrameError('INVALID_REQUEST', 'batch requests are not supported: send one request per message', null);
  if (typeof value !== 'object' || value === null) {
    throw new FrameError('INVALID_REQUEST', `a request is a JSON object, not ${value === null ? 'null' : typeof value}`, null);
  }
  const frame = value as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(frame, 'id');
  if (hasId && !isValidId(frame.id)) throw new FrameError('INVALID_REQUEST', '"id" must be a string, a number or null', null);
  const id = hasId ? (frame.id as JsonRpcId) : undefined;
  if (frame.jsonrpc !== '2.0') throw new FrameError('INVALID_REQUEST', '"jsonrpc" must be exactly "2.0"', id ?? null);
  if (typeof frame.method !== 'string') throw new FrameError('INVALID_REQUEST', '"method" must be a string naming a fleet_… method', id ?? null);
  const params = frame.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    throw new FrameError('INVALID_REQUEST', '"params" must be an object of named parameters', id ?? null);
  }
  if (Array.isArray(params)) throw new FrameError('INVALID_PARAMS', `${frame.method}: params are named: pass an object, not an array`, id ?? null);
  return { id, method: frame.method, params };
}

export function resultReply(id: JsonRpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export function errorReply(id: JsonRpcId, error: FleetError): string {
  const data = { ...error.data, name: error.errorName };
  const reply: JsonRpcErrorReply = { jsonrpc: '2.0', id, error: { code: errorTable[error.errorName].code, message: error.message, data } };
  return JSON.stringify(reply);
}

export function notification(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}
