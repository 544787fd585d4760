import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { FleetError } from '../../../contracts/index.js';

/**
 * Reads a repository's git config file directly, without a git subprocess (the hook path resolves
 * scopes on every call). Enough of git-config(1)'s syntax for the keys the plane reads: sections
 * with quoted subsections, the old `[section.sub]` form, quoted values, escapes and comments.
 * `include` and `includeIf` are not followed. Keys are `section.subsection.name` with section and
 * name lower-cased as git does; the last value of a key wins.
 */
export function parseGitConfig(text: string): Map<string, string> {
  const values = new Map<string, string>();
  let section = '';
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const [name, ...sub] = header[1]!.split('.');
      section = header[2] !== undefined ? `${name!.toLowerCase()}.${header[2].replace(/\\(.)/g, '$1')}` : [name!.toLowerCase(), ...sub.map((s) => s.toLowerCase())].join('.');
      line = line.slice(header[0].length).trim();
      if (line === '') continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry || section === '') continue;
    values.set(`${section}.${entry[1]!.toLowerCase()}`, entry[2] === undefined ? 'true' : configValue(entry[2]));
  }
  return values;
}

/** A value as git reads it: quotes removed, escapes applied, an unquoted `#` or `;` starts a comment. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < raw.length) out += ({ n: '\n', t: '\t', b: '\b' } as Record<string, string>)[raw[++i]!] ?? raw[i];
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return quoted ? out : out.trimEnd();
}

/** The config file's values, or an empty map when it does not exist. */
export function readGitConfig(path: string): Map<string, string> {
  try {
    return parseGitConfig(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
}

/**
 * Sets `section.name` in a config file unless it is already set, under git's own lock protocol
 * (`config.lock` created exclusively, written, renamed over the file), so neither a concurrent
 * git command nor another plane can interleave. Returns the value in effect afterwards: the one
 * already there wins, so two planes racing to set it agree.
 */
export function setGitConfigOnce(path: string, section: string, name: string, value: string): string {
  const lock = `${path}.lock`;
  const fd = takeLock(lock, modeOf(path));
  try {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const existing = parseGitConfig(text).get(`${section}.${name}`);
    if (existing !== undefined) {
      closeSync(fd);
      unlinkSync(lock);
      return existing;
    }
    writeSync(fd, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}[${section}]\n\t${name} = ${value}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(lock, path);
    return value;
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(lock);
    } catch {
      // already renamed or removed
    }
    throw error;
  }
}

/** How long to wait for another writer's lock (git holds it for a moment; another plane for less). */
const LOCK_WAIT_MS = 50;

function takeLock(lock: string, mode: number): number {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return openSync(lock, 'wx', mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() >= until) {
        throw new FleetError('INVALID_STATE', `${lock} exists: a git command is changing this repository's config right now; retry in a moment (or remove the lock if no git command is running)`, { path: lock });
      }
      // Written once per repository, ever: a millisecond's pause here costs nothing on the hot path.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

function modeOf(path: string): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o644;
  }
}
