import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { nonCallsignChars } from '../../contracts/index.js';
import { homePaths } from '../plane/home.js';
import { writeFileDurably } from '../store/durable-write.js';

const savedSessionSchema = z.object({ callsign: z.string(), runtime: z.string(), agentId: z.string(), sessionToken: z.string() });
export type SavedSession = z.infer<typeof savedSessionSchema>;

/** Session tokens the CLI keeps in FLEET_HOME/sessions (0600), so `--as ATLAS` continues as ATLAS. */
export function loadSession(home: string, callsign: string): SavedSession | undefined {
  try {
    return savedSessionSchema.parse(JSON.parse(readFileSync(sessionFile(home, callsign), 'utf8')));
  } catch {
    return undefined;
  }
}

export async function saveSession(home: string, session: SavedSession): Promise<void> {
  mkdirSync(homePaths(home).sessions, { recursive: true, mode: 0o700 });
  await writeFileDurably(sessionFile(home, session.callsign), JSON.stringify(session), 0o600);
}

function sessionFile(home: string, callsign: string): string {
  return join(homePaths(home).sessions, `${callsign.replace(nonCallsignChars(), '_')}.json`);
}
