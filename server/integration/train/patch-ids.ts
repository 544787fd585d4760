import { spawn } from 'node:child_process';
import { GIT_LIMITS } from '../git/limits.js';

/** Commits of the target compared with a branch's diff and with its commits: a squash or rebase merge older than this is not recognized. */
export const RECENT_TARGET_COMMITS = 50;

/**
 * Stable patch ids (`git patch-id --stable`) of what `diffArgs` prints, by the commit it names
 * (`git log -p` output) or under the key "-" for a bare diff. Both git runs are bounded in time and
 * output; a failure gives none.
 */
export function patchIds(cwd: string, diffArgs: readonly string[]): Promise<Map<string, string>> {
  return new Promise((resolve) => {
    const env = { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', GIT_PAGER: 'cat' };
    const producer = spawn('git', diffArgs, { cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
    const hasher = spawn('git', ['patch-id', '--stable'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let fed = 0;
    let output = '';
    const timer = setTimeout(() => {
      producer.kill('SIGKILL');
      hasher.kill('SIGKILL');
    }, GIT_LIMITS.heavyMs);
    producer.stdout.on('data', (chunk: Buffer) => {
      fed += chunk.length;
      if (fed > GIT_LIMITS.listingBytes) producer.kill('SIGKILL');
      else hasher.stdin.write(chunk);
    });
    producer.once('close', () => hasher.stdin.end());
    hasher.stdin.on('error', () => undefined);
    hasher.stdout.on('data', (chunk: Buffer) => {
      if (output.length < GIT_LIMITS.quickBytes) output += chunk.toString();
    });
    const done = () => {
      clearTimeout(timer);
      const ids = new Map<string, string>();
      for (const line of output.split('\n')) {
        const [patch, commit] = line.split(' ');
        if (patch && commit) ids.set(/^0{40}$/.test(commit) ? '-' : commit, patch);
      }
      resolve(ids);
    };
    hasher.once('close', done);
    hasher.once('error', done);
    producer.once('error', () => hasher.stdin.end());
  });
}
