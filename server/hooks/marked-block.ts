/**
 * A block of lines this tool owns inside a file someone else owns (a husky hook, AGENTS.md,
 * ~/.codex/config.toml): written between a begin and an end marker line, replaced in place when
 * written again, and taken out leaving the rest of the file as it was.
 */
export interface Markers {
  begin: string;
  end: string;
}

export type Placement = 'top' | 'bottom';

/**
 * Lines someone else wrote between our markers (a user, or the runtime editing its own config):
 * `kept` stays in the block after our body, `moved` goes right after the end marker. Both are
 * whole lines, byte for byte. Nothing found inside is ever dropped unless a reader says it is ours.
 */
export interface ForeignLines {
  kept: string;
  moved: string;
}

/** Sorts the text between the markers (whole lines) into ours and someone else's. */
export type ForeignReader = (inner: string) => ForeignLines;

/** The default: everything between the markers is ours. */
const ALL_OURS: ForeignReader = () => ({ kept: '', moved: '' });

/** Whole lines back into text (each with its newline). */
export function joinLines(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

/** The lines of a block's inner text (which ends with a newline, or is empty). */
export function innerLines(inner: string): string[] {
  return inner === '' ? [] : inner.replace(/\n$/, '').split('\n');
}

export function findBlock(content: string, markers: Markers): { start: number; end: number; innerStart: number; innerEnd: number } | undefined {
  const lines = content.split('\n');
  const first = lines.findIndex((line) => line.trim() === markers.begin);
  if (first < 0) return undefined;
  const last = lines.findIndex((line, i) => i > first && line.trim() === markers.end);
  if (last < 0) return undefined;
  const start = lines.slice(0, first).reduce((n, line) => n + line.length + 1, 0);
  const endLineStart = lines.slice(0, last).reduce((n, line) => n + line.length + 1, 0);
  // The block ends with its end marker's newline, when it has one.
  const end = Math.min(content.length, endLineStart + lines[last]!.length + 1);
  return { start, end, innerStart: start + lines[first]!.length + 1, innerEnd: endLineStart };
}

/** The file with the block set to `body` (replaced in place, or added at the top or the bottom); what `foreign` finds inside is kept. */
export function upsertBlock(content: string, markers: Markers, body: string, placement: Placement = 'bottom', foreign: ForeignReader = ALL_OURS): string {
  const found = findBlock(content, markers);
  const { kept, moved } = found ? foreign(content.slice(found.innerStart, found.innerEnd)) : ALL_OURS('');
  const block = `${markers.begin}\n${body.replace(/\n+$/, '')}\n${kept}${markers.end}\n${moved}`;
  if (found) return content.slice(0, found.start) + block + content.slice(found.end);
  if (content === '') return block;
  if (placement === 'top') {
    // After a shebang, which must stay the first line.
    if (content.startsWith('#!')) {
      const newline = content.indexOf('\n');
      if (newline < 0) return `${content}\n${block}`;
      return content.slice(0, newline + 1) + block + content.slice(newline + 1);
    }
    return block + content;
  }
  return `${content.endsWith('\n') ? content : `${content}\n`}\n${block}`;
}

/** The file without the block, and the blank line that set it apart at the bottom; what `foreign` moves out of it stays where the block was. */
export function removeBlock(content: string, markers: Markers, foreign: ForeignReader = ALL_OURS): { content: string; found: boolean } {
  const found = findBlock(content, markers);
  if (!found) return { content, found: false };
  let before = content.slice(0, found.start);
  const after = foreign(content.slice(found.innerStart, found.innerEnd)).moved + content.slice(found.end);
  if (after === '' && before.endsWith('\n\n')) before = before.slice(0, -1);
  return { content: before + after, found: true };
}
