import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { nonCallsignChars, roleSchema } from '../../contracts/index.js';
import { homePaths } from './paths.js';
import { writeFileDurably } from '../store/durable-write.js';

const savedSessionSchema = z.object({
  callsign: z.string(),
  runtime: z.string(),
  agentId: z.string(),
  sessionToken: z.string(),
  /** Kept for role operator: re-attaching that agent takes the operator credential. */
  role: roleSchema.optional(),
});
export type SavedSession = z.infer<typeof savedSessionSchema>;

/** Session tokens the CLI keeps in FLEET_HOME/sessions (0600), so `--as ATLAS` continues as ATLAS. */
export function loadSession(home: string, callsign: string): SavedSession | undefined {
  try {
    return savedSessionSchema.parse(JSON.parse(readFileSync(sessionFile(home, callsign), 'utf8')));
  } catch {
    return undefined;
  }
}

/** Every `--as` call saves its session: the file is written only when that changes it (no disk write, nothing to fail on a full disk). */
export async function saveSession(home: string, session: SavedSession): Promise<void> {
  // Both sides go through the schema, so key order never makes equal sessions differ.
  const content = JSON.stringify(savedSessionSchema.parse(session));
  const current = loadSession(home, session.callsign);
  if (current !== undefined && JSON.stringify(current) === content) return;
  mkdirSync(homePaths(home).sessions, { recursive: true, mode: 0o700 });
  await writeFileDurably(sessionFile(home, session.callsign), content, 0o600);
}

function sessionFile(home: string, callsign: string): string {
  return join(homePaths(home).sessions, `${callsign.replace(nonCallsignChars(), '_')}.json`);
}
