// A small universe of heavily overlapping claim patterns over one repository layout, so random
// agents collide often. `canonical` is what the plane must store for `input` (DESIGN.md §4: a
// trailing "/" or a literal naming a directory claims the subtree; "." and "//" are normalized).

export interface PatternSpec {
  input: string;
  canonical: string;
  /** Relative pick weight: broad patterns are rarer, or nothing would ever be granted. */
  weight: number;
}

const spec = (input: string, weight: number, canonical = input): PatternSpec => ({ input, canonical, weight });

export const PATTERN_UNIVERSE: readonly PatternSpec[] = [
  spec('src/**', 1),
  spec('src/a/**', 2),
  spec('src/a', 2, 'src/a/**'), // an existing directory
  spec('src/b/', 2, 'src/b/**'),
  spec('src/a/*.ts', 3),
  spec('src/*.py', 3),
  spec('src/a*', 3),
  spec('**/*.ts', 1),
  spec('**/x.ts', 2),
  spec('src/{a,b}/x.ts', 3),
  spec('src/[ab]/*.ts', 2),
  spec('src/?/y.ts', 3),
  spec('src/a/x.ts', 4),
  spec('src/b/x.ts', 4),
  spec('./src/main.py', 4, 'src/main.py'),
  spec('docs/', 2, 'docs/**'),
  spec('docs/**', 1),
  spec('docs/guide.md', 4),
  spec('*.md', 3),
  spec('README.md', 4),
  spec('test/**', 2),
  spec('test/unit/*.test.ts', 3),
  spec('**/*.yml', 2),
  spec('.github/workflows/ci.yml', 3),
  spec('lib//util.js', 3, 'lib/util.js'),
  spec('lib/*', 2),
];

/** The files every test repository starts with (directories named by the universe must exist). */
export const REPO_FILES: Record<string, string> = {
  'src/a/x.ts': 'export const x = 1;\n',
  'src/a/y.ts': 'export const y = 1;\n',
  'src/b/x.ts': 'export const x = 2;\n',
  'src/main.py': 'print(1)\n',
  'README.md': '# repo\n',
  'docs/guide.md': '# guide\n',
  'test/unit/a.test.ts': '\n',
  'lib/util.js': '\n',
  '.github/workflows/ci.yml': 'on: push\n',
};

/** Paths agents ask the check about: some claimed often, some never. */
export const CHECK_PATHS: readonly string[] = [
  'src/a/x.ts',
  'src/a/y.ts',
  'src/b/x.ts',
  'src/b/y.ts',
  'src/main.py',
  'src/app.ts',
  'src/abc',
  'README.md',
  'docs/guide.md',
  'test/unit/a.test.ts',
  'lib/util.js',
  '.github/workflows/ci.yml',
  'x.ts',
];
