import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { homePaths } from '../home/paths.js';

/** A tool call whose PostToolUse never comes (interrupted) leaves its mark behind: past this many, the oldest go. */
const MAX_MARKS = 256;

const markSchema = z.object({ mark: z.number().int(), worktree: z.string() });
export type ToolMark = z.infer<typeof markSchema>;

/** One file per tool call (tool_use_id): Claude Code runs tool calls in parallel, so no two hooks share one. */
function markFile(home: string, toolUseId: string): string {
  return join(homePaths(home).toolMarks, `${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

export function saveToolMark(home: string, toolUseId: string, mark: ToolMark): void {
  const dir = homePaths(home).toolMarks;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(markFile(home, toolUseId), JSON.stringify(mark), { mode: 0o600 });
  const names = readdirSync(dir);
  if (names.length <= MAX_MARKS) return;
  const byAge = names.map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
  for (const { name } of byAge.slice(0, names.length - MAX_MARKS)) unlinkSync(join(dir, name));
}

/** The mark of this tool call, taken out (read once): undefined when PreToolUse took none. */
export function takeToolMark(home: string, toolUseId: string): ToolMark | undefined {
  const file = markFile(home, toolUseId);
  try {
    const mark = markSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    unlinkSync(file);
    return mark;
  } catch {
    return undefined;
  }
}
