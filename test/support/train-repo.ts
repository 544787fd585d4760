import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { git, makeRepo } from './git-repo.js';
import { passingReport } from './orchestration-plane.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from './plane-process.js';

type TestEnd = { after(fn: () => Promise<void> | void): void };

/**
 * A real plane and a real repository whose main checkout is on a branch of its own (`operator`), so
 * the train may move `main`; agents get linked worktrees on branches of their own beside it.
 */
export async function trainRepo(t: TestEnd, files: Record<string, string>, options: { remote?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const repo = makeRepo(files);
  git(repo, 'checkout', '-q', '-b', 'operator');
  const trees = tempHome('fleet-trees-');
  // A bare remote (origin) the train fetches from and pushes to, added before the plane names the scope.
  const remote = join(trees, 'remote.git');
  if (options.remote === true) {
    execFileSync('git', ['clone', '-q', '--bare', repo, remote], { stdio: 'ignore' });
    git(repo, 'remote', 'add', 'origin', remote);
  }
  // The plane's environment, the same after a restart (a git shim first on its PATH).
  const env = options.env ?? {};
  let plane = await startPlaneProcess({ env });
  const clients: PlaneClient[] = [];
  t.after(async () => {
    for (const client of clients) client.close();
    await plane.stop().catch(() => undefined);
    removeHome(plane.home);
    removeHome(trees);
    removeHome(repo);
  });
  const kept = (client: PlaneClient): PlaneClient => (clients.push(client), client);
  let verifiers = 0;
  return {
    repo,
    remote,
    trees,
    get plane(): PlaneProcess {
      return plane;
    },
    /** Kills the plane (-9; or waits for it to be gone if something else killed it) and starts a new one on the same home. */
    async restart(): Promise<void> {
      await plane.kill();
      plane = await startPlaneProcess({ home: plane.home, env });
    },
    operator: async () => kept(await plane.connectAsOperator()),
    /** A linked worktree on branch `branch` from main, and an agent joined there. */
    async agent(callsign: string, branch: string, role: 'builder' | 'rte' = 'builder') {
      const worktree = join(trees, branch.replace(/[^A-Za-z0-9]/g, '_'));
      execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', branch, worktree, 'main'], { stdio: 'ignore' });
      const client = kept(await plane.connect(callsign));
      await client.call('fleet_agent_join', { callsign, runtime: 'test', role, worktree });
      return { client, worktree, callsign };
    },
    async verifier(callsign = `VERA${++verifiers}`) {
      const client = kept(await plane.connect(callsign));
      await client.call('fleet_agent_join', { callsign, runtime: 'test', role: 'verifier' });
      return client;
    },
  };
}

/** Writes files in a worktree and commits them there. */
export function commitFiles(worktree: string, files: Record<string, string>, message = 'work'): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(worktree, path)), { recursive: true });
    writeFileSync(join(worktree, path), content);
  }
  git(worktree, 'add', '-A');
  git(worktree, 'commit', '-q', '-m', message);
  return git(worktree, 'rev-parse', 'HEAD');
}

/** Drives an item through the protocol: the builder completes it (unless `completed`), the verifier passes it, the operator accepts it. */
export async function completeVerifyAccept(builder: PlaneClient, verifier: PlaneClient, operator: PlaneClient, id: string, criteria: string[], options: { completed?: boolean } = {}): Promise<void> {
  if (options.completed !== true) await builder.call('fleet_work_update', { id, action: 'complete', artifact: { touchedFiles: [], commands: [{ command: 'npm test', exitCode: 0 }], criteria } });
  await verifier.call('fleet_work_pull', {});
  await verifier.call('fleet_work_update', { id, action: 'verify', report: passingReport(criteria) });
  await operator.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'verified', refs: [], note: 'the verifier passed it' } });
}

/** Retries `check` until it passes or `ms` have passed (then its last failure is thrown). */
export async function eventually(ms: number, check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export type Fleet = Awaited<ReturnType<typeof trainRepo>>;

const CRITERIA = ['it works'];

/** Builders on branches of their own, each completing one accepted item that commits `files` on its branch. */
export async function acceptedItems(fleet: Fleet, work: { callsign: string; files: Record<string, string>; paths?: string[] }[]) {
  const operator = await fleet.operator();
  const verifier = await fleet.verifier();
  const items: { id: string; branch: string; commit: string }[] = [];
  for (const { callsign, files, paths } of work) {
    const branch = `${callsign.toLowerCase()}-work`;
    const agent = await fleet.agent(callsign, branch);
    const { item } = await operator.call('fleet_work_add', { title: `${callsign}'s change`, paths: paths ?? Object.keys(files), criteria: CRITERIA, root: fleet.repo });
    assert.equal((await agent.client.call('fleet_work_pull', {})).item?.id, item.id);
    const commit = commitFiles(agent.worktree, files, `${callsign}'s change`);
    await completeVerifyAccept(agent.client, verifier, operator, item.id, CRITERIA);
    items.push({ id: item.id, branch, commit });
  }
  return { operator, items };
}

export const statusOf = async (fleet: Fleet, id: string) => (await (await fleet.operator()).call('fleet_work_list', { id })).items[0]!;

/** main's first-parent history since `from`, oldest first, each with its parents. */
export function landings(repo: string, from: string): { commit: string; parents: string[] }[] {
  const lines = git(repo, 'rev-list', '--first-parent', '--reverse', '--parents', `${from}..main`);
  return lines === '' ? [] : lines.split('\n').map((line) => {
    const [commit, ...parents] = line.split(' ');
    return { commit: commit!, parents };
  });
}

