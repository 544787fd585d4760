import { spawn } from 'node:child_process';

/** Each git query is bounded in time: a wedged git never holds a watcher's pipeline. */
const GIT_TIMEOUT_MS = 10_000;

/** Runs git in `root` with `input` on stdin; resolves with stdout, whatever the exit code. */
function git(root: string, args: string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', root, ...args], { stdio: ['pipe', 'pipe', 'ignore'], timeout: GIT_TIMEOUT_MS });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    child.stdin.on('error', () => undefined); // git may exit before reading everything
    child.stdin.end(input);
  });
}

const nulSeparated = (output: string): string[] => output.split('\0').filter((entry) => entry !== '');

/** The worktree's own git directory (a linked worktree has one under the main `.git/worktrees/`). */
export async function gitDirOf(root: string): Promise<string> {
  const dir = (await git(root, ['rev-parse', '--absolute-git-dir'])).trim();
  if (dir === '') throw new Error(`${root} is not a git worktree`);
  return dir;
}

/** Ignored directories (repository-relative, no trailing slash), so the watcher never descends into them. */
export async function ignoredDirectories(root: string): Promise<Set<string>> {
  const entries = nulSeparated(await git(root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']));
  return new Set(entries.filter((e) => e.endsWith('/')).map((e) => e.slice(0, -1)));
}

/** Which of `paths` git ignores; one process for the whole batch. Tracked files are never ignored. */
export async function ignoredAmong(root: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  return new Set(nulSeparated(await git(root, ['check-ignore', '-z', '--stdin'], paths.map((p) => `${p}\0`).join(''))));
}
