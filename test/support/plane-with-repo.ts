import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { makeRepo } from './git-repo.js';
import { removeHome, startPlaneProcess, tempHome } from './plane-process.js';

type TestEnd = { after(fn: () => Promise<void>): void };

/** A real plane in a temp FLEET_HOME and a real repository, both removed when the test ends. */
export async function planeWithRepo(t: TestEnd, env: NodeJS.ProcessEnv = {}) {
  const repo = makeRepo();
  const plane = await startPlaneProcess({ env });
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
  });
  return { plane, repo };
}

/**
 * A real plane, a repository of `files`, and a linked worktree of it on branch `bolt` (BOLT's, beside
 * the main one: the watcher's two-worktree case). Clients made with `connect` are closed, and all of it
 * removed, when the test ends.
 */
export async function planeWithLinkedWorktree(t: TestEnd, files: Record<string, string>) {
  const repo = makeRepo(files);
  const boltTree = join(tempHome('fleet-worktrees-'), 'bolt');
  execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', boltTree, '-b', 'bolt', 'main'], { stdio: 'ignore' });
  const plane = await startPlaneProcess();
  const clients: PlaneClient[] = [];
  t.after(async () => {
    for (const client of clients) client.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(join(boltTree, '..'));
    removeHome(repo);
  });
  const kept = (client: PlaneClient): PlaneClient => (clients.push(client), client);
  return {
    plane,
    repo,
    boltTree,
    connect: async (name: string) => kept(await plane.connect(name)),
    connectAsOperator: async () => kept(await plane.connectAsOperator()),
  };
}
