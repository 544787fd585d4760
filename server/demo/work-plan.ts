/** One task of the seeded queue; `after` names earlier tasks of the same wave by key. */
export interface PlannedTask {
  key: string;
  title: string;
  paths: string[];
  criteria: string[];
  after?: string[];
  /**
   * Planted in the first wave only, for the train to handle: `breaks-build` writes a line that makes
   * the build RED; `edits` names a file its builder also changes outside the item's paths (as agents
   * do), where another item of the wave changes it too: the forecast shows the conflict, the train
   * sends one of them back.
   */
  plant?: { breaksBuild: true } | { edits: string };
}

/** A wave of work on the sample repository: dependencies make the pipeline visible (build → verify → accept → next). */
export const WAVE: PlannedTask[] = [
  { key: 'cli', title: 'Add --version to the CLI', paths: ['src/cli.ts', 'package.json'], criteria: ['prints the package version'] },
  { key: 'lexer', title: 'Lex string literals with escapes', paths: ['src/lexer.ts', 'test/lexer.test.ts'], criteria: ['escaped quotes lex as one token', 'lexer tests pass'], plant: { edits: 'package.json' } },
  { key: 'ast', title: 'Add AST node types for expressions', paths: ['src/ast.ts'], criteria: ['binary and unary nodes exist'] },
  { key: 'parser', title: 'Parse binary expressions with precedence', paths: ['src/parser.ts'], criteria: ['1 + 2 * 3 nests correctly', 'parser tests pass'], after: ['lexer', 'ast'] },
  { key: 'printer', title: 'Pretty-print expressions', paths: ['src/printer.ts'], criteria: ['round-trips parse(print(x))'], after: ['ast'] },
  { key: 'strings', title: 'Unicode-safe string helpers', paths: ['src/util/strings.ts'], criteria: ['quote() escapes control characters'], plant: { breaksBuild: true } },
  { key: 'parser-tests', title: 'Parser test suite', paths: ['test/parser.test.ts'], criteria: ['covers precedence and errors'], after: ['parser'] },
  { key: 'api', title: 'Document the public API', paths: ['docs/api.md'], criteria: ['every export is documented'], after: ['ast'] },
  { key: 'guide', title: 'Write the getting-started guide', paths: ['docs/guide.md'], criteria: ['a newcomer can run an example'] },
  { key: 'readme', title: 'README quick start', paths: ['README.md'], criteria: ['shows install and first run'], after: ['guide'] },
];
