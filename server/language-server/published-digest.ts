import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { digestSchema, type Digest } from '../../contracts/index.js';

/**
 * A digest the plane published, read from the history it keeps (FLEET_HOME/digests/<toSeq>.json;
 * the `digest.published` event carries only the sequence numbers). A file is a trust boundary:
 * parsed, and undefined when missing or malformed.
 */
export async function readPublishedDigest(home: string, toSeq: number): Promise<Digest | undefined> {
  try {
    const file = join(home, 'digests', `${String(toSeq).padStart(12, '0')}.json`);
    const parsed = digestSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The newest `limit` published digests, newest first (unreadable entries are skipped). */
export async function listPublishedDigests(home: string, limit: number): Promise<Digest[]> {
  let names: string[];
  try {
    names = await readdir(join(home, 'digests'));
  } catch {
    return [];
  }
  const seqs = names.filter((name) => /^\d{12}\.json$/.test(name)).map((name) => Number(name.slice(0, 12))).sort((a, b) => b - a).slice(0, limit);
  const digests = await Promise.all(seqs.map((seq) => readPublishedDigest(home, seq)));
  return digests.filter((digest): digest is Digest => digest !== undefined);
}
