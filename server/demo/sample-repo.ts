import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A line a build breaker writes; the sample project's build fails while a source file holds it. */
export const PLANTED_BUG = 'PLANTED BUG: the build fails while this line is here';

/** A small TypeScript project the simulated fleet works on: a lexer, a parser, docs and tests. */
const FILES: Record<string, string> = {
  'package.json': '{\n  "name": "tiny-lang",\n  "version": "0.0.1",\n  "private": true\n}\n',
  'README.md': '# tiny-lang\n\nA toy language the demo fleet keeps improving.\n',
  'CHANGELOG.md': '# Changelog\n',
  'src/lexer.ts': 'export function lex(source: string): string[] {\n  return source.split(/\\s+/);\n}\n',
  'src/parser.ts': "import { lex } from './lexer.js';\n\nexport const parse = (source: string) => lex(source);\n",
  'src/ast.ts': 'export interface Node {\n  kind: string;\n}\n',
  'src/printer.ts': "import type { Node } from './ast.js';\n\nexport const print = (node: Node) => node.kind;\n",
  'src/cli.ts': "console.log('tiny-lang');\n",
  'src/util/strings.ts': 'export const quote = (s: string) => JSON.stringify(s);\n',
  'docs/guide.md': '# Guide\n',
  'docs/api.md': '# API\n',
  'test/lexer.test.ts': '// lexer tests\n',
  'test/parser.test.ts': '// parser tests\n',
  'scripts/build.mjs': [
    "// tiny-lang's build, as the demo's train runs it on each batch: it takes the milliseconds it is given,",
    '// reads every source and test file and fails on a planted bug.',
    "import { readdirSync, readFileSync, statSync } from 'node:fs';",
    "import { join } from 'node:path';",
    '',
    `const MARKER = ${JSON.stringify(PLANTED_BUG)};`,
    'const broken = [];',
    'let files = 0;',
    'const read = (dir) => {',
    '  for (const name of readdirSync(dir)) {',
    '    const path = join(dir, name);',
    '    if (statSync(path).isDirectory()) read(path);',
    '    else {',
    '      files++;',
    "      readFileSync(path, 'utf8').split('\\n').forEach((line, i) => line.includes(MARKER) && broken.push(`${path}:${i + 1}: ${line.trim()}`));",
    '    }',
    '  }',
    '};',
    'await new Promise((resolve) => setTimeout(resolve, Number(process.argv[2] ?? 0)));',
    "['src', 'test'].forEach(read);",
    'if (broken.length > 0) {',
    "  console.error(`tiny-lang: build RED, ${broken.length} error(s):\\n${broken.join('\\n')}`);",
    '  process.exit(1);',
    '}',
    'console.log(`tiny-lang: ${files} files build GREEN`);',
    '',
  ].join('\n'),
};

/** Where the builders' worktrees go, inside the sample repository (excluded from its git status). */
const WORKTREES_FOLDER = '.worktrees';

/** Where `fleet demo --here` puts its repository: a folder of the open workspace, kept out of its git. */
export const HERE_FOLDER = '.fleet-demo';

/**
 * Creates the sample repository (a real git repository with one commit) and returns its root: in
 * the OS temp folder, or with `inside` (fleet demo --here) in `inside/.fleet-demo/`, so the open
 * workspace shows it and its badges; that folder is listed in the workspace repository's
 * .git/info/exclude (a local file, not a tracked change), so its git status stays clean.
 */
export async function createSampleRepository(inside?: string): Promise<string> {
  const root = inside === undefined ? mkdtempSync(join(tmpdir(), 'fleet-demo-repo-')) : await hereFolder(inside);
  await git(root, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  await git(root, 'add', '-A');
  await git(root, 'commit', '-q', '-m', 'tiny-lang: initial import');
  // The train moves `main` and never a branch checked out in a worktree: the checkout stays detached.
  await git(root, 'checkout', '-q', '--detach');
  appendFileSync(join(root, '.git', 'info', 'exclude'), `/${WORKTREES_FOLDER}/\n`);
  return root;
}

/**
 * A worktree of the sample repository for one builder, on a detached `main` until its first item:
 * inside the repository's folder, so removing the repository removes it too (and `--here` leaves
 * nothing in the workspace's own repository: the worktree belongs to the sample one).
 */
export async function addWorktree(root: string, name: string): Promise<string> {
  const path = join(root, WORKTREES_FOLDER, name.toLowerCase());
  await git(root, 'worktree', 'add', '-q', '--detach', path, 'main');
  return path;
}

async function hereFolder(workspace: string): Promise<string> {
  const exclude = join(workspace, (await git(workspace, 'rev-parse', '--git-path', 'info/exclude')).stdout.trim());
  const line = `/${HERE_FOLDER}/`;
  if (!existsSync(exclude) || !readFileSync(exclude, 'utf8').split('\n').includes(line)) {
    mkdirSync(dirname(exclude), { recursive: true });
    appendFileSync(exclude, `${existsSync(exclude) && !readFileSync(exclude, 'utf8').endsWith('\n') ? '\n' : ''}# fleet demo --here\n${line}\n`);
  }
  mkdirSync(join(workspace, HERE_FOLDER), { recursive: true });
  return mkdtempSync(join(workspace, HERE_FOLDER, 'tiny-lang-'));
}

/** Git as the simulated agents use it; identity and hooks are fixed so the demo runs anywhere. */
export function git(root: string, ...args: string[]): Promise<{ stdout: string }> {
  return run('git', ['-c', 'user.name=fleet-demo', '-c', 'user.email=demo@fleet.invalid', '-c', 'core.hooksPath=/dev/null', ...args], { cwd: root });
}
