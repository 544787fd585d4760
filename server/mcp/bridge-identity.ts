import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { isSameProcess, processStartTime } from '../plane/process-identity.js';
import { homePaths } from '../plane/home.js';
import { loadSession, saveSession } from '../cli/sessions.js';
import { writeFileDurably } from '../store/durable-write.js';

/** Who this bridge acts as, for the rest of its session. */
export interface BridgeIdentity {
  callsign: string;
  runtime: string;
  agentId: string;
  sessionToken: string;
  worktree: string;
}

const bridgeNoteSchema = z.object({ pid: z.number().int(), start: z.string().optional(), worktree: z.string() });

/**
 * Keeps the identity where the rest of the fleet's tools find it: the CLI's session file (so
 * `fleet … --as ATLAS` in the agent's shell continues as it), plus a note of which bridge process
 * and worktree held it, so a restarted session in the same worktree can continue as ATLAS.
 */
export async function rememberIdentity(home: string, identity: BridgeIdentity): Promise<void> {
  await saveSession(home, { callsign: identity.callsign, runtime: identity.runtime, agentId: identity.agentId, sessionToken: identity.sessionToken });
  await writeFileDurably(noteFile(home, identity.callsign), JSON.stringify({ pid: process.pid, start: processStartTime(process.pid), worktree: identity.worktree }), 0o600);
}

/**
 * The saved token of `callsign` when the bridge that held it has ended and worked in the same
 * worktree: that is this agent's previous session, not another live agent with the same name.
 */
export function tokenOfEndedSession(home: string, callsign: string, worktree: string): string | undefined {
  const saved = loadSession(home, callsign);
  if (!saved) return undefined;
  try {
    const note = bridgeNoteSchema.parse(JSON.parse(readFileSync(noteFile(home, callsign), 'utf8')));
    if (note.worktree !== worktree || (note.pid !== process.pid && isSameProcess(note.pid, note.start))) return undefined;
    return saved.sessionToken;
  } catch {
    return undefined;
  }
}

function noteFile(home: string, callsign: string): string {
  return join(homePaths(home).sessions, `${callsign}.bridge.json`);
}
