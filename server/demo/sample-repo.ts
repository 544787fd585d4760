import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

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
};

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
  return root;
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

/** Commits are serialised: the simulated agents share one worktree and one index. */
export class CommitQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly root: string) {}

  commit(paths: string[], message: string): Promise<void> {
    const next = this.tail.then(async () => {
      await git(this.root, 'add', '--', ...paths);
      const staged = (await git(this.root, 'diff', '--cached', '--name-only')).stdout.trim();
      if (staged !== '') await git(this.root, 'commit', '-q', '-m', message);
    });
    this.tail = next.catch(() => undefined);
    return next;
  }
}
