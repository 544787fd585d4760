import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { Agent } from '../../contracts/index.js';
import { saveSession } from '../home/sessions.js';
import { homePaths } from '../home/paths.js';
import { isSameProcess, processStartTime } from '../plane/processes/process-identity.js';
import { writeFileDurably } from '../store/durable-write.js';

/** Who this bridge acts as, for the rest of its session. */
export interface BridgeIdentity {
  callsign: string;
  runtime: string;
  agentId: string;
  sessionToken: string;
  worktree: string;
}

const bridgeNoteSchema = z.object({ callsign: z.string(), sessionToken: z.string(), worktree: z.string(), pid: z.number().int(), start: z.string().optional() });

/**
 * Keeps the identity where the agent's shell finds it (the CLI's session file, written, never read
 * back by the bridge, so `fleet … --as ATLAS` continues as ATLAS), and in the bridge's own note,
 * keyed by worktree and callsign, so a restarted session in the same worktree can continue as ATLAS.
 */
export async function rememberIdentity(home: string, identity: BridgeIdentity): Promise<void> {
  await saveSession(home, { callsign: identity.callsign, runtime: identity.runtime, agentId: identity.agentId, sessionToken: identity.sessionToken });
  const note = { callsign: identity.callsign, sessionToken: identity.sessionToken, worktree: identity.worktree, pid: process.pid, start: processStartTime(process.pid) };
  mkdirSync(homePaths(home).bridgeSessions, { recursive: true, mode: 0o700 });
  await writeFileDurably(noteFile(home, identity.worktree, identity.callsign), JSON.stringify(note), 0o600);
}

/**
 * The token of `callsign` when a bridge in this same worktree held it and has ended: that is this
 * agent's previous session. Only this worktree's notes are ever looked up, so no other worktree's
 * agent can be continued from here.
 */
export function tokenOfEndedSession(home: string, callsign: string, worktree: string): string | undefined {
  try {
    const note = bridgeNoteSchema.parse(JSON.parse(readFileSync(noteFile(home, worktree, callsign), 'utf8')));
    if (note.callsign !== callsign || !samePath(note.worktree, worktree) || (note.pid !== process.pid && isSameProcess(note.pid, note.start))) return undefined;
    return note.sessionToken;
  } catch {
    return undefined;
  }
}

/**
 * Why a bridge standing in `worktree` may not re-attach `callsign`, if it may not: a session token
 * continues only an agent registered at the bridge's own worktree (an unknown callsign is a new agent).
 */
export function refuseReattach(roster: readonly Agent[], callsign: string, worktree: string): string | undefined {
  const holders = roster.filter((agent) => agent.callsign === callsign);
  const current = holders.find((agent) => agent.status !== 'left' && agent.status !== 'expired') ?? holders.sort((a, b) => b.joinedAt.localeCompare(a.joinedAt))[0];
  if (current === undefined || (current.worktree !== undefined && samePath(current.worktree, worktree))) return undefined;
  return `${callsign} is registered ${current.worktree === undefined ? 'without a worktree' : `at ${current.worktree}`}; this MCP session runs in ${worktree} and continues only an agent registered there: join under a callsign of your own`;
}

/** Whether two paths name the same directory (symlinked temp dirs such as /tmp → /private/tmp included). */
export function samePath(a: string, b: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return real(a) === real(b);
}

function noteFile(home: string, worktree: string, callsign: string): string {
  const key = createHash('sha256').update(`${resolve(worktree)}\0${callsign}`).digest('hex').slice(0, 32);
  return join(homePaths(home).bridgeSessions, `${key}.json`);
}
