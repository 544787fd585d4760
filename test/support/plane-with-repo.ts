import { makeRepo } from './git-repo.js';
import { removeHome, startPlaneProcess } from './plane-process.js';

/** A real plane in a temp FLEET_HOME and a real repository, both removed when the test ends. */
export async function planeWithRepo(t: { after(fn: () => Promise<void>): void }, env: NodeJS.ProcessEnv = {}) {
  const repo = makeRepo();
  const plane = await startPlaneProcess({ env });
  t.after(async () => {
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
  });
  return { plane, repo };
}
