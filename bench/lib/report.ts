/** One line of the printed table; `met` is undefined for figures that carry no target. */
export interface Row {
  section: string;
  figure: string;
  value: string;
  reference?: string;
  ratio?: string;
  target?: string;
  met?: boolean;
}

/** Collects the table rows and the raw figures (for the JSON file) of one run. */
export class Report {
  readonly rows: Row[] = [];
  readonly data: Record<string, unknown> = {};

  add(row: Row): void {
    this.rows.push(row);
  }

  set(key: string, value: unknown): void {
    this.data[key] = value;
  }

  /** A target check: `value <= limit` (or >= with `atLeast`), with the row saying which. */
  target(row: Omit<Row, 'met' | 'target'>, value: number, limit: number, text: string, atLeast = false): boolean {
    const met = atLeast ? value >= limit : value <= limit;
    this.add({ ...row, target: text, met });
    return met;
  }

  table(): string {
    const header: Row = { section: 'section', figure: 'figure', value: 'value', reference: 'reference', ratio: 'ratio', target: 'target' };
    const cells = (row: Row, status: string) => [row.section, row.figure, row.value, row.reference ?? '', row.ratio ?? '', row.target ?? '', status];
    const lines = [cells(header, 'status'), ...this.rows.map((row) => cells(row, row.met === undefined ? '' : row.met ? 'met' : 'MISSED'))];
    const widths = lines[0]!.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
    const format = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
    const rule = widths.map((w) => '-'.repeat(w)).join('  ');
    return [format(lines[0]!), rule, ...lines.slice(1).map(format)].join('\n');
  }
}

/** The same table as Markdown, for BENCHMARKS.md. */
export function markdownTable(rows: readonly Row[]): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  const lines = ['| section | figure | value | reference | ratio | target | status |', '|---|---|---|---|---|---|---|'];
  for (const row of rows) {
    const status = row.met === undefined ? '' : row.met ? 'met' : '**MISSED**';
    lines.push(`| ${[row.section, row.figure, row.value, row.reference ?? '', row.ratio ?? '', row.target ?? '', status].map(escape).join(' | ')} |`);
  }
  return lines.join('\n');
}

export const us = (micros: number): string => (micros >= 10_000 ? `${(micros / 1000).toFixed(1)} ms` : micros >= 1000 ? `${(micros / 1000).toFixed(2)} ms` : `${micros.toFixed(0)} µs`);
export const ms = (millis: number): string => `${millis.toFixed(0)} ms`;
export const mb = (bytes: number): string => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
export const count = (n: number): string => Math.round(n).toLocaleString('en-US');
export const times = (ratio: number): string => `${ratio.toFixed(2)}×`;
