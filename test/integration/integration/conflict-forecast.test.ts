import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { EventWatcher } from '../../support/event-watcher.js';
import { tapPlaneSocket } from '../../support/plane-wiretap.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { CLI, removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

type Forecast = Extract<FleetEvent, { type: 'integration.forecast' }>;
type WriteSetEvent = Extract<FleetEvent, { type: 'integration.write_set' }>;

const SHARED = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const edited = (line: number, text: string) => `${SHARED.map((l, i) => (i === line - 1 ? text : l)).join('\n')}\n`;
/** A branch named like an option: every git call must keep it a name. */
const HOSTILE_BRANCH = '--output=hostile-output';

/** The lean runner as a checkout's `fleet init` installs it (FLEET_HOME/bin/fleet-hook runs it). */
const LEAN_RUNNER = fileURLToPath(new URL('../../../server/hooks/lean/fleet-hook.js', import.meta.url));

/** `fleet hook VERB` as Claude Code runs it, with the payload on stdin (or the lean runner, as installed). */
function runHook(verb: 'claude-pre-tool-use' | 'claude-post-tool-use', home: string, payload: object, runner: 'full verb' | 'lean runner' = 'full verb'): Promise<string> {
  const args = runner === 'full verb' ? [CLI, 'hook', verb, '--home', home] : [LEAN_RUNNER, verb, '--home', home];
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { env: { ...process.env, FLEET_HOME: home }, timeout: 30_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin!.end(JSON.stringify(payload));
  });
}

describe('write-sets and the conflict forecast (DESIGN §14): real worktrees on their own branches, a real plane', () => {
  const repo = makeRepo({ 'src/shared.ts': `${SHARED.join('\n')}\n`, 'src/a.ts': 'a\n', 'README.md': '# r\n' });
  const trees = tempHome('fleet-forecast-trees-');
  const worktreeOf = { ATLAS: join(trees, 'atlas'), BOLT: join(trees, 'bolt'), CLEO: join(trees, 'cleo') };
  let plane: PlaneProcess;
  let operator: PlaneClient;
  let events: EventWatcher;
  const agents = new Map<string, PlaneClient>();
  let atlasIndex: { path: string; mtime: number };

  const forecastBetween = (a: string, b: string, status: 'conflict' | 'cleared') => (e: FleetEvent) =>
    e.type === 'integration.forecast' && e.status === status && [e.callsign, e.otherCallsign].sort().join() === [a, b].sort().join();
  const writeSetOf = (callsign: string, has: (e: WriteSetEvent) => boolean) => (e: FleetEvent) => e.type === 'integration.write_set' && e.callsign === callsign && has(e);

  before(async () => {
    for (const [callsign, worktree] of Object.entries(worktreeOf)) {
      const branch = callsign === 'BOLT' ? HOSTILE_BRANCH : callsign.toLowerCase();
      // Made by plumbing, so the branch named like an option can be checked out as agents' tools would.
      git(repo, 'update-ref', `refs/heads/${branch}`, 'main');
      git(repo, 'worktree', 'add', '-q', '--detach', worktree, 'main');
      git(worktree, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`);
    }
    plane = await startPlaneProcess();
    operator = await plane.connectAsOperator();
    events = await EventWatcher.follow(operator);
    for (const [callsign, worktree] of Object.entries(worktreeOf)) {
      const client = await plane.connect(`test-${callsign}`);
      await client.call('fleet_agent_join', { callsign, runtime: 'script', worktree });
      agents.set(callsign, client);
    }
    const index = git(worktreeOf.ATLAS, 'rev-parse', '--path-format=absolute', '--git-path', 'index');
    git(worktreeOf.ATLAS, 'status', '--porcelain'); // refreshes the index now, not during the test
    atlasIndex = { path: index, mtime: statSync(index).mtimeMs };
  });

  after(async () => {
    for (const client of [...agents.values(), operator]) client?.close();
    await plane?.stop();
    for (const dir of [plane.home, repo, trees]) removeHome(dir);
  });

  test('two agents whose edits conflict are told before either completes: the event names both, resume and the hook note list it; a clean pair is not', async () => {
    // CLEO edits the same file far from the others: its write-set intersects theirs, the merge is clean.
    writeFileSync(join(worktreeOf.CLEO, 'src/shared.ts'), edited(11, 'CLEO was here'));
    await events.waitFor(writeSetOf('CLEO', (e) => e.paths.includes('src/shared.ts')), 0, 20_000, "CLEO's write-set");
    const from = events.events.length;
    // ATLAS's edit stays uncommitted; BOLT commits its own.
    writeFileSync(join(worktreeOf.ATLAS, 'src/shared.ts'), edited(2, 'ATLAS says two'));
    writeFileSync(join(worktreeOf.BOLT, 'src/shared.ts'), edited(2, 'BOLT says two'));
    git(worktreeOf.BOLT, 'commit', '-q', '-am', 'bolt edits line 2');
    const found = (await events.waitFor(forecastBetween('ATLAS', 'BOLT', 'conflict'), from, 30_000, 'the ATLAS–BOLT conflict forecast')) as Forecast;
    assert.deepEqual(found.paths, ['src/shared.ts']);
    assert.ok([found.branch, found.otherBranch].includes(`refs/heads/${HOSTILE_BRANCH}`), 'the hostile branch is named as a branch');

    const resume = await agents.get('ATLAS')!.call('fleet_agent_resume', {});
    assert.deepEqual(resume.writeSet?.paths, ['src/shared.ts']);
    assert.deepEqual(resume.conflicts.map((c) => [c.callsign, c.otherCallsign, c.paths]), [['ATLAS', 'BOLT', ['src/shared.ts']]]);

    // A file tool: the check before it writes carries the note (Claude Code reads it after the tool's result), both runners alike.
    const edit = (file: string) => ({ session_id: 'atlas-session', hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'toolu_forecast', cwd: worktreeOf.ATLAS, tool_input: { file_path: join(worktreeOf.ATLAS, file), old_string: 'line', new_string: 'Line' } });
    for (const runner of ['full verb', 'lean runner'] as const) {
      const note = JSON.parse(await runHook('claude-pre-tool-use', plane.home, edit('src/shared.ts'), runner)) as { hookSpecificOutput?: { hookEventName: string; additionalContext: string; permissionDecision?: string }; decision?: string };
      assert.equal(note.hookSpecificOutput?.hookEventName, 'PreToolUse', runner);
      assert.match(note.hookSpecificOutput.additionalContext, /^Fleet conflict forecast: .*\n  src\/shared\.ts: with BOLT's branch refs\/heads\/--output=hostile-output/, runner);
      assert.deepEqual(Object.keys(note.hookSpecificOutput), ['hookEventName', 'additionalContext'], 'a note never allows (no permissionDecision: the runtime\'s own rules decide)');
      assert.equal(await runHook('claude-pre-tool-use', plane.home, edit('src/a.ts'), runner), '', 'no note for a file in no forecast conflict');
    }

    // A shell write: PreToolUse marks the worktree, the command writes, PostToolUse asks what changed and notes the conflict.
    const bash = { session_id: 'atlas-session', tool_name: 'Bash', tool_use_id: 'toolu_shell', cwd: worktreeOf.ATLAS, tool_input: { command: 'node scripts/touch-shared.js' } };
    assert.doesNotMatch(await runHook('claude-pre-tool-use', plane.home, { ...bash, hook_event_name: 'PreToolUse' }), /"deny"/);
    writeFileSync(join(worktreeOf.ATLAS, 'src/shared.ts'), `${edited(2, 'ATLAS says two')}// touched by a script\n`);
    const shellNote = JSON.parse(await runHook('claude-post-tool-use', plane.home, { ...bash, hook_event_name: 'PostToolUse', tool_response: {} })) as { hookSpecificOutput?: { additionalContext: string } };
    assert.match(shellNote.hookSpecificOutput?.additionalContext ?? '', /src\/shared\.ts: with BOLT's branch/);

    const { digest, markdown } = await operator.call('fleet_digest', { sinceSeq: 1 });
    assert.equal(digest.openForecastConflicts, 1);
    assert.match(markdown, /## Conflict forecast[\s\S]*ATLAS .* would conflict in src\/shared\.ts|## Conflict forecast[\s\S]*BOLT .* would conflict in src\/shared\.ts/);

    const cli = await runCli(['conflicts'], { home: plane.home, cwd: repo });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /ATLAS .*BOLT|BOLT .*ATLAS/);
    const status = await runCli(['status'], { home: plane.home, cwd: repo });
    assert.match(status.stdout, /forecast conflicts \(1\)[\s\S]*src\/shared\.ts/);

    assert.deepEqual((await operator.call('fleet_conflicts', { callsign: 'CLEO' })).conflicts, []);
    assert.ok(!events.events.some((e) => e.type === 'integration.forecast' && (e.callsign === 'CLEO' || e.otherCallsign === 'CLEO')), 'CLEO merges cleanly with both');
    assert.equal(existsSync(join(repo, 'hostile-output')) || existsSync(join(worktreeOf.BOLT, 'hostile-output')), false, 'the branch name ran no --output');
  });

  test('a shell call that changed a file in a forecast conflict: its PostToolUse notes it over one connection, the forecast coming with what changed', async () => {
    const tap = await tapPlaneSocket(plane.socket!);
    try {
      for (const runner of ['lean runner', 'full verb'] as const) {
        const bash = { session_id: 'atlas-session', tool_name: 'Bash', tool_use_id: `toolu_one_${runner.replace(' ', '_')}`, cwd: worktreeOf.ATLAS, tool_input: { command: 'node scripts/touch-shared.js' } };
        assert.doesNotMatch(await runHook('claude-pre-tool-use', plane.home, { ...bash, hook_event_name: 'PreToolUse' }, runner), /"deny"/);
        writeFileSync(join(worktreeOf.ATLAS, 'src/shared.ts'), `${edited(2, 'ATLAS says two')}// touched by the ${runner}\n`);
        tap.reset();
        const answer = JSON.parse(await runHook('claude-post-tool-use', plane.home, { ...bash, hook_event_name: 'PostToolUse', tool_response: {} }, runner)) as { hookSpecificOutput?: { additionalContext: string } };
        assert.match(answer.hookSpecificOutput?.additionalContext ?? '', /^Fleet conflict forecast: .*\n  src\/shared\.ts: with BOLT's branch refs\/heads\/--output=hostile-output/, runner);
        assert.equal(tap.connections(), 1, `${runner}: one connection to the plane (${tap.methods().join(', ')})`);
        // What changed (with the forecast among it), then the check of those paths as ATLAS: no question of the forecast's own.
        assert.deepEqual(tap.methods(), ['fleet_plane_hello', 'fleet_worktree_changes', 'fleet_hook_check'], runner);
      }
    } finally {
      await tap.close();
    }
  });

  test("the snapshot of uncommitted work left ATLAS's worktree and index as they were", () => {
    assert.equal(statSync(atlasIndex.path).mtimeMs, atlasIndex.mtime, 'the index file was not rewritten');
    assert.equal(git(worktreeOf.ATLAS, 'status', '--porcelain'), 'M src/shared.ts', 'still one unstaged edit, nothing staged');
  });

  test('the conflict is cleared once the other side takes its change back', async () => {
    const from = events.events.length;
    git(worktreeOf.BOLT, 'reset', '-q', '--hard', 'main');
    const cleared = (await events.waitFor(forecastBetween('ATLAS', 'BOLT', 'cleared'), from, 30_000, 'the cleared forecast')) as Forecast;
    assert.deepEqual(cleared.paths, []);
    assert.deepEqual((await agents.get('ATLAS')!.call('fleet_agent_resume', {})).conflicts, []);
    const history = await runCli(['history', 'src/shared.ts', '--json'], { home: plane.home, cwd: repo });
    assert.equal(history.code, 0, history.stderr);
    const { forecasts } = JSON.parse(history.stdout) as { forecasts: { status: string; agent: string; other: string }[] };
    assert.deepEqual(forecasts.map((f) => [f.status, [f.agent, f.other].sort().join()]), [['conflict', 'ATLAS,BOLT'], ['cleared', 'ATLAS,BOLT']]);
  });

  test('a branch deleted under its worktree ends that write-set (and no git error stops the others)', async () => {
    const from = events.events.length;
    git(repo, 'update-ref', '-d', 'refs/heads/cleo');
    await events.waitFor(writeSetOf('CLEO', (e) => e.ended === true), from, 30_000, "the end of CLEO's write-set");
    const { writeSets } = await operator.call('fleet_conflicts', {});
    assert.deepEqual(writeSets.map((w) => w.callsign).sort(), ['ATLAS', 'BOLT']);
  });

  test('a worktree on a detached HEAD is on no branch of its own: its write-set ends and its conflict is no longer forecast', async () => {
    let from = events.events.length;
    writeFileSync(join(worktreeOf.BOLT, 'src/shared.ts'), edited(2, 'BOLT says two again'));
    git(worktreeOf.BOLT, 'commit', '-q', '-am', 'bolt edits line 2 again');
    await events.waitFor(forecastBetween('ATLAS', 'BOLT', 'conflict'), from, 30_000, 'the ATLAS–BOLT conflict forecast again');
    from = events.events.length;
    // Work on a detached HEAD (a builder left on a checkout of main, a bisect): the same conflicting edit and more, on no branch.
    git(worktreeOf.BOLT, 'checkout', '-q', '--detach');
    writeFileSync(join(worktreeOf.BOLT, 'src/a.ts'), 'a, detached\n');
    git(worktreeOf.BOLT, 'commit', '-q', '-am', 'bolt commits on a detached HEAD');
    await events.waitFor(writeSetOf('BOLT', (e) => e.ended === true), from, 30_000, "the end of BOLT's write-set");
    await events.waitFor(forecastBetween('ATLAS', 'BOLT', 'cleared'), from, 30_000, 'the ATLAS–BOLT forecast cleared');
    const { writeSets, conflicts } = await operator.call('fleet_conflicts', {});
    assert.deepEqual(writeSets.map((w) => w.callsign), ['ATLAS']);
    assert.deepEqual(conflicts, []);
    const { digest } = await operator.call('fleet_digest', { sinceSeq: 1 });
    assert.equal(digest.openForecastConflicts, 0);
  });
});
