// `fleet demo --here`: the demo's sample repository inside the open workspace's repository
// (.fleet-demo/, kept out of its git status), so VS Code shows it and its badges; removed at the end
// unless --keep; refused outside a git repository.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { shutdownPlane } from './support.js';

const home = tempHome();
const workspace = realpathSync(makeRepo());
after(async () => {
  await shutdownPlane(home);
  removeHome(home);
  removeHome(workspace);
});

const demoHere = (seconds: number, ...extra: string[]) => runCli(['demo', '--here', '--duration', String(seconds), '--pace', '4', '--seed', '5', '--json', ...extra], { home, cwd: workspace });
const summaryOf = (stdout: string) => JSON.parse(stdout.trimEnd().split('\n').at(-1)!) as { repo: string; stats: { errors: number }; train: { landed: number } };
const gitIn = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
const gitStatus = () => gitIn(workspace, 'status', '--porcelain', '--untracked-files=all');
/** What the demo must leave as it was in the workspace's own repository: its refs, worktrees, HEAD and status. */
const workspaceGit = () => ({ refs: gitIn(workspace, 'for-each-ref'), worktrees: gitIn(workspace, 'worktree', 'list', '--porcelain'), head: gitIn(workspace, 'rev-parse', 'HEAD'), status: gitStatus() });

test('fleet demo --here runs in a repository inside the workspace, out of its git status, and removes it at the end', { timeout: 120_000 }, async () => {
  const before = workspaceGit();
  const run = await demoHere(2);
  assert.equal(run.code, 0, run.stderr);
  const summary = summaryOf(run.stdout);
  assert.equal(summary.stats.errors, 0);
  assert.ok(summary.repo.startsWith(join(workspace, '.fleet-demo', 'tiny-lang-')), `the demo repository ${summary.repo} is inside the workspace`);
  assert.match(run.stdout, /inside your workspace: the Explorer shows it and its badges/);
  assert.equal(existsSync(join(workspace, '.fleet-demo')), false, 'removed when the demo ends');
  assert.match(readFileSync(join(workspace, '.git', 'info', 'exclude'), 'utf8'), /^\/\.fleet-demo\/$/m);

  assert.deepEqual(workspaceGit(), before, "the workspace's repository has no new branch, ref or worktree");

  const kept = await demoHere(15, '--keep');
  assert.equal(kept.code, 0, kept.stderr);
  const keptSummary = summaryOf(kept.stdout);
  const keptRepo = keptSummary.repo;
  assert.ok(existsSync(join(keptRepo, 'src', 'parser.ts')), '--keep leaves the sample project in the workspace');
  // The builders' worktrees and branches are the sample repository's; the train landed on its main.
  const worktrees = gitIn(keptRepo, 'worktree', 'list', '--porcelain');
  for (const builder of ['atlas', 'bolt', 'comet']) assert.ok(worktrees.includes(`worktree ${join(keptRepo, '.worktrees', builder)}\n`), `${builder}'s worktree is in the sample repository:\n${worktrees}`);
  assert.ok(keptSummary.train.landed >= 1, `the train landed work: ${kept.stdout.slice(-2000)}`);
  assert.match(gitIn(keptRepo, 'log', '--format=%s', 'main'), /^fleet: land wk_\S+ \((atlas|bolt|comet)\/wk_/m);
  assert.deepEqual(workspaceGit(), before, "the workspace's repository has no new branch, ref or worktree");
  assert.equal(gitStatus(), '', "the workspace's own git status stays clean");
  assert.equal(readFileSync(join(workspace, '.git', 'info', 'exclude'), 'utf8').match(/\/\.fleet-demo\//g)?.length, 1, 'listed once however often the demo runs');
});

test('fleet demo --here outside a git repository is refused with what to do', async () => {
  const outside = tempHome('fleet-not-a-repo-');
  try {
    const run = await runCli(['demo', '--here'], { home, cwd: outside });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--here puts the demo inside the git repository of the current folder, .* is in none: run it in your workspace's folder/);
  } finally {
    removeHome(outside);
  }
});
