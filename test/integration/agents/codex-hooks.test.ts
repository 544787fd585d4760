import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { RuntimeStandIn } from '../../support/runtime-stand-in.js';
import { keepAlive, runShell } from './support.js';

interface HooksFile {
  hooks?: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
}
interface Decision {
  hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
}

const userHook = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo my-own-audit', timeout: 5 }] };

describe('Codex hooks: installed into $CODEX_HOME/hooks.json, run as Codex runs them, against a real plane', () => {
  let plane: PlaneProcess;
  let home: string;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n', 'README.md': '# repo\n' });
  const otherRepo = makeRepo({ 'src/a.ts': 'export {};\n' });
  const codexHome = tempHome('fleet-codex-home-');
  const hooksPath = join(codexHome, 'hooks.json');
  const env = { CODEX_HOME: codexHome };
  let atlas: PlaneClient;
  let bolt: PlaneClient;
  const stops: (() => void)[] = [];

  /** Our PreToolUse command, as hooks.json holds it. */
  function ourPreToolUseCommand(): string {
    const file = JSON.parse(readFileSync(hooksPath, 'utf8')) as HooksFile;
    return file.hooks!.PreToolUse!.flatMap((group) => group.hooks).find((hook) => hook.command.includes('codex-pre-tool-use'))!.command;
  }

  /**
   * Runs the installed PreToolUse hook exactly as hooks.json tells Codex to: the command through a
   * shell, Codex's payload on stdin; in the background, so ATLAS and BOLT keep answering pings.
   */
  async function codexPreToolUse(cwd: string, tool_name: string, tool_input: unknown, runtime?: RuntimeStandIn): Promise<{ status: number | null; decision?: Decision; stderr: string }> {
    const run = await (runtime ? runtime.run.bind(runtime) : runShell)(ourPreToolUseCommand(), {
      cwd,
      env: { ...process.env, FLEET_HOME: home, FLEET_PORT: '0', FLEET_AS: '', FLEET_OVERRIDE: '' },
      // The fields of codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json.
      input: JSON.stringify({ session_id: 'thread-1', turn_id: 'turn-1', transcript_path: null, cwd, hook_event_name: 'PreToolUse', model: 'gpt-5-codex', permission_mode: 'default', tool_name, tool_input, tool_use_id: 'call-1' }),
    });
    return { status: run.status, stderr: run.stderr, ...(run.stdout.trim() !== '' && { decision: JSON.parse(run.stdout) as Decision }) };
  }

  const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

  function assertDenied(result: Awaited<ReturnType<typeof codexPreToolUse>>, pattern: RegExp) {
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.decision?.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(result.decision?.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(result.decision!.hookSpecificOutput.permissionDecisionReason, pattern);
  }

  function assertAllowed(result: Awaited<ReturnType<typeof codexPreToolUse>>) {
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.decision, undefined, JSON.stringify(result.decision));
  }

  before(async () => {
    plane = await startPlaneProcess();
    home = plane.home;
    // The user's own Codex hook is there first and must survive install and uninstall.
    writeFileSync(hooksPath, `${JSON.stringify({ hooks: { PreToolUse: [userHook] } }, null, 2)}\n`);
    const installed = await runCli(['install-hooks', '--no-git', '--no-claude'], { home, cwd: repo, env });
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /Codex hooks \(PreToolUse, PostToolUse, SessionStart, PermissionRequest\) updated: .*hooks\.json\nCodex hooks installed but NOT trusted yet .*open Codex and run \/hooks/);
    atlas = await plane.connect('test-atlas');
    // This test process stands in for ATLAS's runtime: the hooks it runs are its children, as a runtime's are.
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'codex', worktree: repo, pid: process.pid });
    bolt = await plane.connect('test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', worktree: join(codexHome, 'elsewhere') });
    stops.push(keepAlive(atlas, 5000), keepAlive(bolt, 5000));
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: repo, reason: 'parser rewrite' });
    await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of [atlas, bolt]) client?.close();
    await plane?.stop();
    for (const dir of [home, repo, otherRepo, codexHome]) removeHome(dir);
  });

  test('the file written keeps the user hook and adds ours on Bash, apply_patch and MCP tools, with nothing machine-specific in the repository', () => {
    const file = JSON.parse(readFileSync(hooksPath, 'utf8')) as HooksFile;
    assert.deepEqual(file.hooks!.PreToolUse![0], userHook);
    assert.equal(file.hooks!.PreToolUse![1]!.matcher, 'Bash|apply_patch|mcp__.*');
    assert.match(file.hooks!.PreToolUse![1]!.hooks[0]!.command, /\/bin\/fleet-hook' codex-pre-tool-use --home .* --root /);
    assert.equal(existsSync(join(repo, '.codex')), false);
  });

  test('fleet status and the roster show whether the agent\'s hooks have run this session: none before, codex after its hook checked a call', async () => {
    const agentsIn = async () => (JSON.parse((await runCli(['status', '--json'], { home, cwd: repo })).stdout) as { agents: { callsign: string; hooksSeen?: { hook: string; at: string } }[] }).agents;
    assert.equal((await agentsIn()).find((a) => a.callsign === 'ATLAS')!.hooksSeen, undefined);
    assert.match((await runCli(['status'], { home, cwd: repo })).stdout, /ATLAS .* none\s*$/m);
    assertAllowed(await codexPreToolUse(repo, 'Bash', { command: 'ls' }));
    assert.equal((await agentsIn()).find((a) => a.callsign === 'ATLAS')!.hooksSeen?.hook, 'codex-pre-tool-use');
    assert.match((await runCli(['status'], { home, cwd: repo })).stdout, /ATLAS .* codex \S+ ago/);
    const roster = (await atlas.call('fleet_roster', {})) as { agents: { callsign: string; hooksSeen?: { hook: string } }[] };
    assert.equal(roster.agents.find((a) => a.callsign === 'ATLAS')!.hooksSeen?.hook, 'codex-pre-tool-use');
    assert.equal(roster.agents.find((a) => a.callsign === 'BOLT')!.hooksSeen, undefined);
  });

  test('shell commands: a write in the agent own territory passes, one into another agent territory is denied naming the holder', async () => {
    assertAllowed(await codexPreToolUse(repo, 'Bash', { command: 'echo more >> docs/guide.md' }));
    assertDenied(await codexPreToolUse(repo, 'Bash', { command: 'echo x > src/theirs.ts' }), /src\/theirs\.ts[\s\S]*BOLT/);
    assertAllowed(await codexPreToolUse(repo, 'Bash', { command: 'cat src/a.ts' }));
  });

  test('apply_patch: add, update and delete in the own territory pass; an add, a delete or a move into another territory is denied', async () => {
    assertAllowed(await codexPreToolUse(repo, 'apply_patch', { command: patch('*** Add File: docs/new.md', '+hello', '*** Update File: docs/guide.md', '@@', '-# guide', '+# Guide', '*** Delete File: docs/old.md') }));
    assertDenied(await codexPreToolUse(repo, 'apply_patch', { command: patch('*** Add File: src/b.ts', '+export const b = 2;') }), /src\/b\.ts[\s\S]*BOLT/);
    assertDenied(await codexPreToolUse(repo, 'apply_patch', { command: patch('*** Delete File: src/a.ts') }), /src\/a\.ts/);
    assertDenied(await codexPreToolUse(repo, 'apply_patch', { command: patch('*** Update File: docs/guide.md', '*** Move to: src/guide.md', '@@', '+moved') }), /src\/guide\.md[\s\S]*BOLT/);
  });

  test("an MCP write tool naming a path in another agent's territory is denied; a read tool and the fleet's own tools are not checked", async () => {
    assertDenied(await codexPreToolUse(repo, 'mcp__filesystem__write_file', { path: join(repo, 'src/c.ts'), content: 'x' }), /src\/c\.ts/);
    assertAllowed(await codexPreToolUse(repo, 'mcp__filesystem__write_file', { path: join(repo, 'docs/c.md'), content: 'x' }));
    assertAllowed(await codexPreToolUse(repo, 'mcp__filesystem__read_file', { path: join(repo, 'src/a.ts') }));
    // An MCP shell tool runs its command in the project: judged as the shell's; a project-relative path as the project's.
    assertDenied(await codexPreToolUse(join(repo, 'docs'), 'mcp__serena__execute_shell_command', { command: 'echo x > src/a.ts' }), /src\/a\.ts[\s\S]*BOLT/);
    assertDenied(await codexPreToolUse(join(repo, 'docs'), 'mcp__serena__create_text_file', { relative_path: 'src/d.ts', content: 'x' }), /src\/d\.ts[\s\S]*BOLT/);
    assertAllowed(await codexPreToolUse(join(repo, 'docs'), 'mcp__serena__execute_shell_command', { command: 'echo x >> docs/guide.md' }));
  });

  test('one entry gates every worktree of the repository: an agent in a second git worktree is judged as itself', async () => {
    const second = join(tempHome('fleet-codex-wt-'), 'second');
    spawnSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'base'], { encoding: 'utf8' });
    const added = spawnSync('git', ['-C', repo, 'worktree', 'add', '-q', second], { encoding: 'utf8' });
    assert.equal(added.status, 0, added.stderr);
    const carol = await plane.connect('test-carol');
    // CAROL's Codex runs these hooks: CAROL registered it at join, as its MCP bridge would.
    const codex = await RuntimeStandIn.start();
    try {
      await carol.call('fleet_agent_join', { callsign: 'CAROL', runtime: 'codex', worktree: second, pid: codex.pid });
      assertDenied(await codexPreToolUse(second, 'apply_patch', { command: patch('*** Add File: src/w.ts', '+w') }, codex), /CAROL[\s\S]*src\/w\.ts[\s\S]*BOLT/);
      assertDenied(await codexPreToolUse(second, 'Bash', { command: 'echo x > docs/guide.md' }, codex), /docs\/guide\.md[\s\S]*ATLAS/);
    } finally {
      await codex.stop();
      carol.close();
      removeHome(join(second, '..'));
    }
  });

  test("a session in another repository is not this install's business: it stays silent, even for a write the plane would refuse there", async () => {
    await bolt.call('fleet_claim_path', { patterns: ['src/**'], root: otherRepo });
    assertAllowed(await codexPreToolUse(otherRepo, 'Bash', { command: 'echo x > src/a.ts' }));
    assertAllowed(await codexPreToolUse(otherRepo, 'apply_patch', { command: patch('*** Add File: src/b.ts', '+b') }));
  });

  test('a session outside this repository that writes into it is judged: by absolute path, from a folder above it, or by a path from a sibling folder', async () => {
    const denied = (result: Awaited<ReturnType<typeof codexPreToolUse>>) => assert.equal(result.decision?.hookSpecificOutput.permissionDecision, 'deny', JSON.stringify(result));
    denied(await codexPreToolUse(otherRepo, 'Bash', { command: `echo x > ${join(repo, 'src/a.ts')}` }));
    denied(await codexPreToolUse(otherRepo, 'apply_patch', { command: patch(`*** Add File: ${join(repo, 'src/b.ts')}`, '+b') }));
    denied(await codexPreToolUse(dirname(repo), 'Bash', { command: `cd ${basename(repo)} && echo x > src/a.ts` }));
    // From a sibling folder, by a relative path (or ~/…, $HOME/…): the input names the repository's folder.
    assert.equal(dirname(otherRepo), dirname(repo), 'the two repositories are siblings');
    denied(await codexPreToolUse(otherRepo, 'Bash', { command: `echo x > ../${basename(repo)}/src/a.ts` }));
    denied(await codexPreToolUse(otherRepo, 'Bash', { command: `cd ../${basename(repo)} && rm -rf src` }));
    denied(await codexPreToolUse(otherRepo, 'apply_patch', { command: patch(`*** Add File: ../${basename(repo)}/src/b.ts`, '+b') }));
  });

  test('input Codex would never send is refused with the reason, not allowed', async () => {
    const run = await runShell(ourPreToolUseCommand(), { cwd: repo, env: { ...process.env, FLEET_HOME: home }, input: '{"tool_name": 3}' });
    assert.match((JSON.parse(run.stdout) as Decision).hookSpecificOutput.permissionDecisionReason, /could not read Codex's PreToolUse input/);
  });

  test('install again changes nothing; uninstall removes exactly ours and keeps the user hook', async () => {
    const before = readFileSync(hooksPath, 'utf8');
    const again = await runCli(['install-hooks', '--no-git', '--no-claude'], { home, cwd: repo, env });
    assert.match(again.stdout, /Codex hooks \(PreToolUse, PostToolUse, SessionStart, PermissionRequest\) unchanged/);
    assert.equal(readFileSync(hooksPath, 'utf8'), before);
    const removed = await runCli(['uninstall-hooks', '--no-git', '--no-claude'], { home, cwd: repo, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /Codex hooks removed/);
    assert.deepEqual(JSON.parse(readFileSync(hooksPath, 'utf8')), { hooks: { PreToolUse: [userHook] } });
  });

  test('a hooks.json the install created goes with the uninstall; a broken one is refused and left untouched', async () => {
    const fresh = tempHome('fleet-codex-fresh-');
    try {
      const freshEnv = { CODEX_HOME: join(fresh, 'codex') };
      assert.equal((await runCli(['install-hooks', '--no-git', '--no-claude'], { home, cwd: repo, env: freshEnv })).code, 0);
      assert.equal(existsSync(join(fresh, 'codex', 'hooks.json')), true);
      assert.equal((await runCli(['uninstall-hooks', '--no-git', '--no-claude'], { home, cwd: repo, env: freshEnv })).code, 0);
      assert.equal(existsSync(join(fresh, 'codex', 'hooks.json')), false);
      mkdirSync(join(fresh, 'broken'));
      writeFileSync(join(fresh, 'broken', 'hooks.json'), '{ not json');
      const refused = await runCli(['install-hooks', '--no-git', '--no-claude'], { home, cwd: repo, env: { CODEX_HOME: join(fresh, 'broken') } });
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /hooks\.json is not valid JSON .*nothing was changed/);
      assert.equal(readFileSync(join(fresh, 'broken', 'hooks.json'), 'utf8'), '{ not json');
    } finally {
      removeHome(fresh);
    }
  });
});
