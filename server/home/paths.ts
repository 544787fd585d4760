import { join } from 'node:path';

/** The files of one FLEET_HOME. One plane owns a home at a time. */
export function homePaths(home: string) {
  return {
    home,
    /** The plane token: agents, hooks and the MCP bridge present it. */
    token: join(home, 'token'),
    /** The operator's own credential: only the person's tools (the CLI's operator verbs, the editor) present it. */
    operatorToken: join(home, 'operator-token'),
    discovery: join(home, 'plane.json'),
    socket: join(home, 'plane.sock'),
    lock: join(home, 'plane.lock'),
    state: join(home, 'state'),
    ledger: join(home, 'ledger.json'),
    sessions: join(home, 'sessions'),
    /** The MCP bridge's own notes of which agent it held in which worktree (never the CLI's sessions). */
    bridgeSessions: join(home, 'bridge-sessions'),
    /** Claude Code hooks: the watcher's mark PreToolUse took, kept per tool call until PostToolUse asks what changed since. */
    toolMarks: join(home, 'tool-marks'),
    /** A hook's note that the plane missed its deadline (hooks/plane-deadline.ts): the next hooks wait less until it answers. */
    planeUnanswered: join(home, 'plane-unanswered.json'),
    log: join(home, 'plane.log'),
    /** The TLS listener's service tokens, hashed (DESIGN §13); only the plane writes it. */
    serviceTokens: join(home, 'service-tokens.json'),
  };
}
export type HomePaths = ReturnType<typeof homePaths>;
