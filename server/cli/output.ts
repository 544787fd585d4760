/** Prints either the JSON result (for scripts and agents) or the human rendering. */
export function emit(json: boolean | undefined, result: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${human()}\n`);
}

export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

/** The line under a list cut by `--limit` saying how many more there are, if any. */
export function moreLines(shown: number, total: number, what: string): string[] {
  return total > shown ? [`… and ${total - shown} more ${what} (a larger --limit shows more; without --limit every one is listed)`] : [];
}
