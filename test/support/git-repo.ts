import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempHome } from './plane-process.js';

/** A real git repository in a temp folder, with the given files committed. */
export function makeRepo(files: Record<string, string> = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' }): string {
  const root = tempHome('fleet-repo-');
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { stdio: 'ignore' });
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return root;
}

/** Runs git in `root` (with an identity, so commits work) and returns its trimmed output. */
export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { encoding: 'utf8' }).trim();
}

/** A real clone of `source` in a temp folder: its origin is `source`. */
export function cloneRepo(source: string): string {
  const root = tempHome('fleet-clone-');
  execFileSync('git', ['clone', '-q', source, root], { stdio: 'ignore' });
  return root;
}
