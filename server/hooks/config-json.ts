import type { z } from 'zod';

/**
 * A runtime's JSON config file (Claude Code's settings, Codex's hooks.json), checked against the
 * shape the runtime reads but returned as written, so key order and unknown keys survive our edit.
 * Anything unreadable is refused with what to do, and nothing is changed.
 */
export function parseConfigJson<T>(path: string, text: string, schema: z.ZodType, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}): fix it, then run this again; nothing was changed`);
  }
  const checked = schema.safeParse(raw);
  if (!checked.success) throw new Error(`${path} does not look like ${what} (${checked.error.issues[0]?.message}): fix it, then run this again; nothing was changed`);
  return raw as T;
}
