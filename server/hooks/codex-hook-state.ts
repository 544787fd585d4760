/**
 * The trust a user gave Codex hooks: the `[hooks.state."<key>"]` tables of $CODEX_HOME/config.toml
 * (`trusted_hash`, `enabled`), which Codex writes when you review hooks in `/hooks`. Read, never
 * written: the fleet does not trust its own hooks for you (DESIGN §16).
 *
 * Not a TOML parser: it reads the shapes Codex writes and a person would (a table per key, dotted
 * keys, an inline table per key) with basic or literal strings and booleans; every other line is
 * passed over.
 */
export interface CodexHookState {
  trustedHash?: string;
  enabled?: boolean;
}

/** A config.toml larger than this is not read for hook trust. */
export const CODEX_CONFIG_READ_LIMIT = 1024 * 1024;

export function readCodexHookStates(toml: string): Map<string, CodexHookState> {
  const states = new Map<string, CodexHookState>();
  let table: string[] | undefined = [];
  for (const raw of toml.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[[')) {
      table = undefined;
      continue;
    }
    const cursor = { text: line, at: 0 };
    if (line.startsWith('[')) {
      cursor.at = 1;
      const path = readDottedKey(cursor);
      table = path !== undefined && skipSpace(cursor) === ']' ? path : undefined;
      continue;
    }
    if (table === undefined) continue;
    const key = readDottedKey(cursor);
    if (key === undefined || skipSpace(cursor) !== '=') continue;
    cursor.at++;
    record(states, [...table, ...key], readValue(cursor));
  }
  return states;
}

type Value = string | boolean | { [key: string]: Value } | undefined;

function record(states: Map<string, CodexHookState>, path: string[], value: Value): void {
  if (path[0] !== 'hooks' || path[1] !== 'state' || path.length < 3 || path[2] === undefined) return;
  if (path.length === 3) {
    if (typeof value === 'object') for (const [field, inner] of Object.entries(value)) record(states, [...path, field], inner);
    return;
  }
  if (path.length !== 4) return;
  const state = states.get(path[2]) ?? {};
  if (path[3] === 'trusted_hash' && typeof value === 'string') state.trustedHash = value;
  else if (path[3] === 'enabled' && typeof value === 'boolean') state.enabled = value;
  else return;
  states.set(path[2], state);
}

interface Cursor {
  text: string;
  at: number;
}

/** The next character after spaces and tabs (the cursor left on it). */
function skipSpace(cursor: Cursor): string | undefined {
  while (cursor.text[cursor.at] === ' ' || cursor.text[cursor.at] === '\t') cursor.at++;
  return cursor.text[cursor.at];
}

function readDottedKey(cursor: Cursor): string[] | undefined {
  const parts: string[] = [];
  for (;;) {
    const next = skipSpace(cursor);
    const part = next === '"' ? readBasicString(cursor) : next === "'" ? readLiteralString(cursor) : readBareKey(cursor);
    if (part === undefined) return undefined;
    parts.push(part);
    if (skipSpace(cursor) !== '.') return parts;
    cursor.at++;
  }
}

function readBareKey(cursor: Cursor): string | undefined {
  const match = /^[A-Za-z0-9_-]+/.exec(cursor.text.slice(cursor.at));
  if (!match) return undefined;
  cursor.at += match[0].length;
  return match[0];
}

function readValue(cursor: Cursor): Value {
  const next = skipSpace(cursor);
  if (next === '"') return cursor.text.startsWith('"""', cursor.at) ? undefined : readBasicString(cursor);
  if (next === "'") return cursor.text.startsWith("'''", cursor.at) ? undefined : readLiteralString(cursor);
  if (next === '{') return readInlineTable(cursor);
  for (const word of ['true', 'false']) {
    if (cursor.text.startsWith(word, cursor.at)) {
      cursor.at += word.length;
      return word === 'true';
    }
  }
  return undefined;
}

function readInlineTable(cursor: Cursor): Value {
  cursor.at++;
  const table: { [key: string]: Value } = {};
  for (;;) {
    if (skipSpace(cursor) === '}') {
      cursor.at++;
      return table;
    }
    const key = readDottedKey(cursor);
    if (key === undefined || key.length !== 1 || skipSpace(cursor) !== '=') return undefined;
    cursor.at++;
    table[key[0]!] = readValue(cursor);
    if (skipSpace(cursor) === ',') cursor.at++;
  }
}

function readLiteralString(cursor: Cursor): string | undefined {
  const end = cursor.text.indexOf("'", cursor.at + 1);
  if (end < 0) return undefined;
  const value = cursor.text.slice(cursor.at + 1, end);
  cursor.at = end + 1;
  return value;
}

const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };

function readBasicString(cursor: Cursor): string | undefined {
  let value = '';
  for (let at = cursor.at + 1; at < cursor.text.length; at++) {
    const char = cursor.text[at]!;
    if (char === '"') {
      cursor.at = at + 1;
      return value;
    }
    if (char !== '\\') {
      value += char;
      continue;
    }
    const escape = cursor.text[at + 1] ?? '';
    const width = escape === 'u' ? 4 : escape === 'U' ? 8 : 0;
    if (width > 0) {
      const code = Number.parseInt(cursor.text.slice(at + 2, at + 2 + width), 16);
      if (!Number.isInteger(code) || code > 0x10ffff) return undefined;
      value += String.fromCodePoint(code);
      at += 1 + width;
    } else if (escape in ESCAPES) {
      value += ESCAPES[escape];
      at += 1;
    } else {
      return undefined;
    }
  }
  return undefined;
}
