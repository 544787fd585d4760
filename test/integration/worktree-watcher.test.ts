import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FleetEvent } from '../../contracts/index.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { EventWatcher } from '../support/event-watcher.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../support/plane-process.js';
import { planeWithLinkedWorktree } from '../support/plane-with-repo.js';
import { runCli } from '../support/run-cli.js';

type Violated = Extract<FleetEvent, { type: 'territory.violated' }>;

/** A write by a plain process that no hook sees: the case the watcher exists for. */
function plainWrite(worktree: string, path: string, content: string): void {
  execFileSync('sh', ['-c', 'mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1"', 'sh', join(worktree, path), content]);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd, stdio: 'ignore' });
}

describe("the plane's worktree watcher (DESIGN §11 layer 3): plain processes, two worktrees, no hooks", () => {
  const repo = makeRepo({ 'src/a/x.ts': 'x0\n', 'src/b/y.ts': 'y0\n', '.gitignore': 'build/\n*.log\n', 'README.md': '# repo\n' });
  const boltTree = join(tempHome('fleet-worktrees-'), 'bolt');
  let plane: PlaneProcess;
  let atlas: PlaneClient;
  let bolt: PlaneClient;
  let operator: PlaneClient;
  let events: EventWatcher;

  const violations = (from: number): Violated[] => events.events.slice(from).filter((e): e is Violated => e.type === 'territory.violated');
  const violationOf = async (path: string, from: number): Promise<Violated> =>
    (await events.waitFor((e) => e.type === 'territory.violated' && e.path === path, from, 5000, `territory.violated for ${path}`)) as Violated;

  before(async () => {
    // A branch that changes ATLAS's file, for the checkout case; BOLT works in a linked worktree.
    git(repo, 'checkout', '-q', '-b', 'other');
    plainWrite(repo, 'src/a/x.ts', 'x on other\n');
    git(repo, 'commit', '-q', '-am', 'other');
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'worktree', 'add', '-q', boltTree, '-b', 'bolt', 'main');
    plane = await startPlaneProcess();
    operator = await plane.connectAsOperator();
    events = await EventWatcher.follow(operator);
    atlas = await plane.connect('test-atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', worktree: repo });
    bolt = await plane.connect('test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'script', worktree: boltTree });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/a/**', 'build/**', '*.log'], root: repo })).granted, true);
    assert.equal((await bolt.call('fleet_claim_path', { patterns: ['src/b/**', '.git/**'], root: repo })).granted, true);
    // Taking a mark waits until the worktree is watched: the readiness signal.
    for (const worktree of [repo, boltTree]) await operator.call('fleet_worktree_changes', { worktree });
  });

  after(async () => {
    for (const client of [atlas, bolt, operator]) client?.close();
    await plane?.stop();
    removeHome(plane.home);
    removeHome(join(boltTree, '..'));
    removeHome(repo);
  });

  test('a git checkout in BOLT\'s worktree that rewrites ATLAS\'s file is no write; the changes since a mark say viaGit', async () => {
    const { mark } = await operator.call('fleet_worktree_changes', { worktree: boltTree });
    const from = events.events.length;
    git(boltTree, 'checkout', '-q', 'other');
    plainWrite(boltTree, 'src/a/after-checkout.ts', 'written after the checkout\n');
    await violationOf('src/a/after-checkout.ts', from);
    assert.deepEqual(violations(from).map((v) => v.path), ['src/a/after-checkout.ts']);
    const { changes } = await operator.call('fleet_worktree_changes', { worktree: boltTree, since: mark });
    assert.deepEqual(changes.find((c) => c.path === 'src/a/x.ts'), { path: 'src/a/x.ts', viaGit: true });
    assert.deepEqual(changes.find((c) => c.path === 'src/a/after-checkout.ts'), { path: 'src/a/after-checkout.ts' });
  });

  test("a plain process writing ATLAS's file in BOLT's worktree is a territory.violated naming BOLT and ATLAS within a second", async () => {
    const from = events.events.length;
    const started = Date.now();
    plainWrite(boltTree, 'src/a/x.ts', 'bolt was here\n');
    const violation = await violationOf('src/a/x.ts', from);
    const elapsed = Date.now() - started;
    console.log(`territory.violated ${elapsed} ms after the write`);
    assert.ok(elapsed < 1000, `took ${elapsed} ms`);
    assert.equal(violation.writer, 'BOLT');
    assert.equal(violation.holder, 'ATLAS');
    assert.equal(violation.source, 'watcher');
    assert.match(violation.fingerprint, /^[0-9a-f]{32}$/);
  });

  test('the same content written again is the same violation: one event', async () => {
    const from = events.events.length;
    plainWrite(boltTree, 'src/a/x.ts', 'bolt was here\n');
    plainWrite(boltTree, 'src/a/after-repeat.ts', 'a later write\n');
    await violationOf('src/a/after-repeat.ts', from); // bursts are judged in order: the repeat was judged first
    assert.deepEqual(violations(from).map((v) => v.path), ['src/a/after-repeat.ts']);
  });

  test('a write seen before another agent claimed the file, and judged after, broke no claim; the next write does', async () => {
    const from = events.events.length;
    const { mark } = await operator.call('fleet_worktree_changes', { worktree: boltTree });
    plainWrite(boltTree, 'early.md', 'written before the claim\n'); // in a watched folder: a new folder's files are found a moment later
    // Seen now (the kernel's events are read first); judged only after the burst's quiet time, when ATLAS holds it.
    assert.ok((await operator.call('fleet_worktree_changes', { worktree: boltTree, since: mark })).changes.some((c) => c.path === 'early.md'));
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['early.md', 'late.md'], root: repo })).granted, true);
    plainWrite(boltTree, 'late.md', 'written after the claim\n');
    const late = await violationOf('late.md', from);
    assert.deepEqual(violations(from).map((v) => v.path), ['late.md']);
    await operator.call('fleet_violation_ack', { ids: [late.violationId] }); // the count the operator's test reads stays its own
    await atlas.call('fleet_release_path', { patterns: ['early.md', 'late.md'], root: repo });
  });

  test("the holder's own write is no violation; another agent's path written from the holder's worktree is", async () => {
    const from = events.events.length;
    plainWrite(repo, 'src/a/own.ts', 'ATLAS in its own territory\n');
    plainWrite(repo, 'src/b/y.ts', 'ATLAS in BOLT territory\n');
    const violation = await violationOf('src/b/y.ts', from);
    assert.deepEqual([violation.writer, violation.holder], ['ATLAS', 'BOLT']);
    assert.deepEqual(violations(from).map((v) => v.path), ['src/b/y.ts']);
  });

  test('writes under .git/ and to ignored paths are not writes, though claims cover them', async () => {
    const from = events.events.length;
    const { mark } = await operator.call('fleet_worktree_changes', { worktree: boltTree });
    plainWrite(repo, '.git/fleet-note', 'inside .git, which BOLT claimed\n');
    plainWrite(boltTree, 'debug.log', 'ignored, ATLAS holds *.log\n');
    plainWrite(boltTree, 'build/out.js', 'ignored, ATLAS holds build/**\n');
    plainWrite(repo, 'src/b/after-git.ts', 'sentinel\n');
    plainWrite(boltTree, 'src/a/after-ignored.ts', 'sentinel\n');
    await violationOf('src/b/after-git.ts', from);
    await violationOf('src/a/after-ignored.ts', from);
    assert.deepEqual(violations(from).map((v) => v.path).sort(), ['src/a/after-ignored.ts', 'src/b/after-git.ts']);
    const { changes } = await operator.call('fleet_worktree_changes', { worktree: boltTree, since: mark });
    assert.deepEqual(changes.map((c) => c.path), ['src/a/after-ignored.ts']);
  });

  test('the operator sees the violations in fleet status and acknowledges them, one by id, then all', async () => {
    const listed = await operator.call('fleet_violations', {});
    assert.equal(listed.total, 6);
    assert.equal(listed.violations[0]!.path, 'src/a/after-ignored.ts', 'newest first');
    const status = await runCli(['status'], { home: plane.home, cwd: repo });
    assert.match(status.stdout, /violations \(6 unacknowledged;/);
    assert.match(status.stdout, /src\/a\/x\.ts\s+BOLT\s+ATLAS/);
    const one = listed.violations[1]!.id;
    assert.deepEqual((await operator.call('fleet_violation_ack', { ids: [one] })).acknowledged, [one]);
    const after = await operator.call('fleet_violations', {});
    assert.equal(after.total, 5);
    assert.ok(!after.violations.some((v) => v.id === one));
    const all = await runCli(['call', 'fleet_violation_ack', '--params', '{"all":true}'], { home: plane.home, cwd: repo });
    assert.equal(all.code, 0, all.stderr);
    assert.equal((await operator.call('fleet_violations', {})).total, 0);
    await assert.rejects(bolt.call('fleet_violation_ack', { all: true }), /operator/);
  });

  test('fleet history PATH lists the violations of the path beside its claims', async () => {
    const history = await runCli(['history', 'src/a/x.ts', '--json'], { home: plane.home, cwd: repo });
    assert.equal(history.code, 0, history.stderr);
    const result = JSON.parse(history.stdout) as { entries: unknown[]; violations: { writer: string; holder: string }[] };
    assert.deepEqual(result.violations.map((v) => [v.writer, v.holder]), [['BOLT', 'ATLAS']]);
  });

  test("a hook check asked for a mark takes it only when it lets the call through: the call's writes are then the writer's, with its tool as source", async () => {
    const ask = (command: string) => operator.call('fleet_hook_check_command', { command, cwd: boltTree, callsign: 'BOLT', hook: 'claude-pre-tool-use', fromRuntime: true, mark: { worktree: boltTree, source: 'Bash' } });
    const refused = await ask('echo x > src/a/x.ts');
    assert.equal(refused.allowed, false);
    assert.equal(refused.mark, undefined, 'a refused call takes no mark');
    let from = events.events.length;
    plainWrite(boltTree, 'src/a/x.ts', 'no call in flight\n');
    assert.equal((await violationOf('src/a/x.ts', from)).source, 'watcher', 'nothing attributed to a refused call');

    const allowed = await ask('ls src');
    assert.equal(allowed.allowed, true);
    assert.equal(typeof allowed.mark, 'number');
    from = events.events.length;
    plainWrite(boltTree, 'src/a/x.ts', 'written during the call\n');
    const during = await violationOf('src/a/x.ts', from);
    assert.deepEqual([during.writer, during.source], ['BOLT', 'Bash'], "the call's write, as its PreToolUse named it");
    const after = await operator.call('fleet_worktree_changes', { worktree: boltTree, since: allowed.mark! });
    assert.ok(after.changes.some((change) => change.path === 'src/a/x.ts'), 'PostToolUse asks with the mark the check took');

    const outside = tempHome('fleet-unwatched-');
    try {
      const unwatched = await operator.call('fleet_hook_check_command', { command: 'ls', cwd: outside, hook: 'claude-pre-tool-use', fromRuntime: true, mark: { worktree: outside, source: 'Bash' } });
      assert.deepEqual([unwatched.allowed, unwatched.mark], [true, null], 'nothing is watched there');
    } finally {
      removeHome(outside);
    }
  });

  test('a worktree two live agents registered: the writer is unknown unless a hook names it; once both leave it is no longer watched', async () => {
    const cara = await plane.connect('test-cara');
    await cara.call('fleet_agent_join', { callsign: 'CARA', runtime: 'script', worktree: boltTree });
    await operator.call('fleet_worktree_changes', { worktree: boltTree });
    const from = events.events.length;
    plainWrite(boltTree, 'src/a/x.ts', 'BOLT or CARA\n');
    const violation = await violationOf('src/a/x.ts', from);
    assert.deepEqual([violation.writer, violation.holder], ['unknown', 'ATLAS']);
    // A hook that knows its session's agent attributes the worktree's changes until its next call.
    const { mark } = await operator.call('fleet_worktree_changes', { worktree: boltTree, writer: 'CARA' });
    const attributedFrom = events.events.length;
    plainWrite(boltTree, 'src/a/x.ts', 'CARA, as her hook says\n');
    assert.equal((await violationOf('src/a/x.ts', attributedFrom)).writer, 'CARA');
    const after = await operator.call('fleet_worktree_changes', { worktree: boltTree, since: mark });
    assert.deepEqual([after.changes.map((c) => c.path), after.truncated], [['src/a/x.ts'], false]);
    await assert.rejects(operator.call('fleet_worktree_changes', { worktree: boltTree, writer: 'NOBODY' }), /no live agent NOBODY/);
    await assert.rejects(operator.call('fleet_worktree_changes', { worktree: 'relative/path' }), /must be an absolute path/);
    await cara.call('fleet_agent_leave', {});
    await bolt.call('fleet_agent_leave', {});
    cara.close();
    await assert.rejects(operator.call('fleet_worktree_changes', { worktree: boltTree }), /no live agent registered the worktree/);
  });
});

describe('the per-second cap on recorded violations counts files, not folders', () => {
  test('a file written after 30 new folders in held territory, within one second, is recorded (the folders had used up the 20)', async (t) => {
    // src/a/made exists (and is watched) from the start, so each folder made in it is seen as a change of its own.
    const { repo, boltTree, connect, connectAsOperator } = await planeWithLinkedWorktree(t, { 'src/a/made/keep.txt': 'k\n', 'README.md': '# repo\n' });
    const [operator, atlas, bolt] = await Promise.all([connectAsOperator(), connect('test-atlas'), connect('test-bolt')]);
    const events = await EventWatcher.follow(operator);
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', worktree: repo });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'script', worktree: boltTree });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/a/**'], root: repo })).granted, true);
    await operator.call('fleet_worktree_changes', { worktree: boltTree }); // waits until the worktree is watched
    const from = events.events.length;
    execFileSync(process.execPath, ['-e', 'const fs=require("fs"),d=process.argv[1]+"/src/a/made/";for(let i=0;i<30;i++)fs.mkdirSync(d+"d"+i);fs.writeFileSync(d+"d29/f.ts","f\\n")', boltTree]);
    await events.waitFor((e) => e.type === 'territory.violated' && e.path === 'src/a/made/d29/f.ts', from, 5000, 'the violation of the file after the folders');
    assert.deepEqual(events.events.slice(from).filter((e) => e.type === 'territory.violated').map((e) => (e as Violated).path), ['src/a/made/d29/f.ts'], 'folders are no violations');
  });
});
