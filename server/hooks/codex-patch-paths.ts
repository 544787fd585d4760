/**
 * The files a Codex `apply_patch` call writes. Its PreToolUse input carries the patch text, not a
 * path (tool_input.command): the envelope names each file on a header line, and a move writes both
 * the file it leaves (removed) and the one it lands on.
 *
 *   *** Begin Patch
 *   *** Add File: PATH | *** Delete File: PATH | *** Update File: PATH [*** Move to: PATH]
 *   *** End Patch
 */

/** Codex's file edit tool: tool_input.command carries the patch text. */
export const CODEX_PATCH_TOOL = 'apply_patch';
const FILE_HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/;

/** Every path the patch adds, updates, deletes or moves to or from, as written (relative to the session's cwd unless absolute), each once. */
export function patchedPaths(patch: string): string[] {
  const paths = new Set<string>();
  for (const line of patch.split(/\r?\n/)) {
    // Codex trims a hunk's first line before reading it (codex-rs/apply-patch parser.rs), so an
    // indented header is one; an added or removed line starts with '+' or '-' and is not.
    const header = FILE_HEADER.exec(line.trim());
    const path = header?.[2]!.trim();
    if (path) paths.add(path);
  }
  return [...paths];
}
