/**
 * The one error table. JSON-RPC codes for transport faults, project codes for the rest. Each
 * entry says what the CLI exits with and what the caller should do; docs/errors.md is generated
 * from this table and a test keeps the two in step.
 */
export const errorTable = {
  PARSE_ERROR: { code: -32700, exitCode: 2, doc: 'The frame is not valid JSON. Send one JSON-RPC 2.0 object per WebSocket message.' },
  INVALID_REQUEST: { code: -32600, exitCode: 2, doc: 'The JSON is not a JSON-RPC 2.0 request: it needs "jsonrpc": "2.0", a string "method" and an optional object "params".' },
  METHOD_NOT_FOUND: { code: -32601, exitCode: 2, doc: 'No method of that name. Method names are listed by `fleet call --list` and in contracts/method-table.ts.' },
  INVALID_PARAMS: { code: -32602, exitCode: 2, doc: 'A parameter is missing, of the wrong type, over its size limit (docs/limits.md), or not allowed (a bad glob, a path outside the repository). The message names the parameter (and the limit): fix that parameter and retry.' },
  INTERNAL: { code: -32603, exitCode: 1, doc: 'The plane hit a fault it did not expect. The request may not have been applied; the plane log in FLEET_HOME/plane.log has details.' },
  NOT_JOINED: { code: -32001, exitCode: 2, doc: 'This method acts as an agent: call fleet_agent_join on this connection first (CLI: pass --as CALLSIGN).' },
  FORBIDDEN: { code: -32002, exitCode: 3, doc: 'Your role may not do this (e.g. only the operator moves the control switch back toward run; deciding and force-releasing need rte or operator).' },
  CALLSIGN_TAKEN: { code: -32003, exitCode: 3, doc: 'A live agent already uses that callsign. Re-join with its sessionToken to continue as it, or pick another callsign.' },
  SESSION_INVALID: { code: -32004, exitCode: 2, doc: 'The sessionToken does not belong to that callsign. Join without a token under a free callsign, or use the token the join returned.' },
  STALE_FENCE: { code: -32005, exitCode: 3, doc: 'The fencing token you presented is no longer current: your claim or lease was released or re-granted. Re-check, re-claim, and redo the work under the new token.' },
  NOT_FOUND: { code: -32006, exitCode: 2, doc: 'No claim, agent or lease with that id or name exists (it may have been released or expired).' },
  NOT_HOLDER: { code: -32007, exitCode: 3, doc: 'That claim or lease belongs to another agent; only its holder (or the operator) may change it.' },
  OUTSIDE_REPOSITORY: { code: -32008, exitCode: 2, doc: 'The root or path is not inside a git repository. Territory is per repository: run inside one or pass --root.' },
  PROTOCOL_MISMATCH: { code: -32009, exitCode: 2, doc: 'Client and plane speak different protocol versions. Restart the plane (`fleet shutdown`, then any fleet command) or update the client.' },
  SHUTTING_DOWN: { code: -32010, exitCode: 1, doc: 'The plane is shutting down. Retry in a moment; clients start a new plane when none is running.' },
  INVALID_STATE: { code: -32012, exitCode: 3, doc: 'The item is not in a state that allows this: accepting a handoff twice, completing work not assigned to you, accepting work no verifier passed. The message says what state it is in and what comes next.' },
  LIMIT_REACHED: { code: -32013, exitCode: 3, doc: 'A count limit of the fleet is reached (e.g. memos: docs/limits.md lists every limit and why). Reuse what exists (rewrite an existing memo key) or ask the operator to clear room; the message names the limit.' },
  ALREADY_JOINED: { code: -32011, exitCode: 2, doc: 'This connection already acts as another agent. Open a new connection to act as a second agent.' },
  PATTERN_TOO_COMPLEX: { code: -32020, exitCode: 2, doc: 'A claim pattern (or the claim as a whole) needs more glob-overlap work than one request may do, so the plane refuses it rather than decide slowly (DESIGN §12). The message says why; split brace groups into several patterns, use fewer "*" runs, claim a directory such as "src/api/**", or claim fewer patterns per request.' },
  SERVICE_TOKEN_INVALID: { code: -32030, exitCode: 2, doc: 'The service token this remote connection or MCP session presented was revoked or has expired since it connected (DESIGN §13). Ask the operator for a new one (`fleet token create --callsign X --role R`) and reconnect with it.' },
  STORE_UNAVAILABLE: { code: -32031, exitCode: 1, doc: 'The plane runs on NATS JetStream (DESIGN §13) and is cut off from a quorum of its cluster, so it cannot make the change durable and refuses it rather than decide alone: the change was not acknowledged. If it was refused after being sent, the cluster may have stored it just as the connection failed (it then shows once the plane catches up): retry the same call, a claim with the same `requestId` (which returns its grant if it was stored), or read before redoing anything else. Retry in a few seconds: the plane reconnects and catches up by itself, and reads still answer from its replica, saying how stale it is (reads of the log itself, `fleet events` and path history, need the stream: they move to another node by themselves and are refused with this code only when none answers for 15 s). If it lasts, check the NATS servers named by `fleet status` and the network to them.' },
} as const;

export type ErrorName = keyof typeof errorTable;

/** An error a method raises on purpose; the transport turns it into a JSON-RPC error reply. */
export class FleetError extends Error {
  readonly code: number;
  constructor(
    readonly errorName: ErrorName,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.code = errorTable[errorName].code;
  }
}

export function errorNameForCode(code: number): ErrorName | undefined {
  return (Object.keys(errorTable) as ErrorName[]).find((name) => errorTable[name].code === code);
}
