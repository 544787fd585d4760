import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nonCallsignChars } from '../../contracts/callsign-chars.js';
import { ROLES, type Role } from '../../contracts/roles.js';
import { homePaths } from './paths.js';
import { writeFileDurably } from '../store/durable-write.js';

// Builtin-only (no zod): the lean hook runner's session hooks read and write these too.
export interface SavedSession {
  callsign: string;
  runtime: string;
  agentId: string;
  sessionToken: string;
  /** Kept for role operator: re-attaching that agent takes the operator credential. */
  role?: Role | undefined;
}

/** The session's fields in one order, unknown ones left out; undefined for anything else. */
function savedSession(value: unknown): SavedSession | undefined {
  const { callsign, runtime, agentId, sessionToken, role } = (value ?? {}) as Record<string, unknown>;
  if (typeof callsign !== 'string' || typeof runtime !== 'string' || typeof agentId !== 'string' || typeof sessionToken !== 'string') return undefined;
  if (role !== undefined && !(ROLES as readonly unknown[]).includes(role)) return undefined;
  return { callsign, runtime, agentId, sessionToken, ...(role !== undefined && { role: role as Role }) };
}

/** Session tokens the CLI keeps in FLEET_HOME/sessions (0600), so `--as ATLAS` continues as ATLAS. */
export function loadSession(home: string, callsign: string): SavedSession | undefined {
  try {
    return savedSession(JSON.parse(readFileSync(sessionFile(home, callsign), 'utf8')));
  } catch {
    return undefined;
  }
}

/** Every `--as` call saves its session: the file is written only when that changes it (no disk write, nothing to fail on a full disk). */
export async function saveSession(home: string, session: SavedSession): Promise<void> {
  // Both sides in the same field order, so key order never makes equal sessions differ.
  const normal = savedSession(session);
  if (normal === undefined) throw new Error(`not a session to save: ${JSON.stringify(session)}`);
  const content = JSON.stringify(normal);
  const current = loadSession(home, session.callsign);
  if (current !== undefined && JSON.stringify(current) === content) return;
  mkdirSync(homePaths(home).sessions, { recursive: true, mode: 0o700 });
  await writeFileDurably(sessionFile(home, session.callsign), content, 0o600);
}

function sessionFile(home: string, callsign: string): string {
  return join(homePaths(home).sessions, `${callsign.replace(nonCallsignChars(), '_')}.json`);
}
