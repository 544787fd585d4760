// DESIGN §11: a hook that cannot get the plane's answer denies, saying why, and does so before the
// runtime gives up on it: Claude Code and Codex let a tool call through when its PreToolUse hook
// times out (the installed timeout is 30 s). A plane that is alive but answers nothing (stopped,
// swapped out, stuck) is the case that hung every hook until the runtime's timeout let the write in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOOK_PLANE_DEADLINE_MS } from '../../server/hooks/plane-deadline.js';
import { runShell } from '../integration/agents/support.js';
import { makeRepo } from '../support/git-repo.js';
import { within } from '../support/within.js';
import { removeHome, startPlaneProcess, tempHome } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';

/** What install-hooks gave each runtime for PreToolUse, read back from the files it wrote. */
function installedPreToolUse(repo: string, codexHome: string): { claude: string; codex: string } {
  type Hooks = { hooks: { PreToolUse: { hooks: { command: string; timeout: number }[] }[] } };
  const pick = (file: string, verb: string) => {
    const hook = (JSON.parse(readFileSync(file, 'utf8')) as Hooks).hooks.PreToolUse.flatMap((group) => group.hooks).find((hook) => hook.command.includes(verb))!;
    assert.ok(HOOK_PLANE_DEADLINE_MS + 5_000 < hook.timeout * 1000, `the deadline leaves the runtime's ${hook.timeout} s timeout room`);
    return hook.command;
  };
  return { claude: pick(join(repo, '.claude', 'settings.local.json'), 'claude-pre-tool-use'), codex: pick(join(codexHome, 'hooks.json'), 'codex-pre-tool-use') };
}

test('with the plane alive but answering nothing, every PreToolUse hook denies, saying why, before the runtime would give up on it', async () => {
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const codexHome = tempHome('fleet-codex-home-');
  const plane = await startPlaneProcess();
  const env = { ...process.env, FLEET_HOME: plane.home, CODEX_HOME: codexHome, FLEET_AS: 'ATLAS', FLEET_OVERRIDE: '' };
  try {
    const installed = await runCli(['install-hooks'], { home: plane.home, cwd: repo, env: { CODEX_HOME: codexHome } });
    assert.equal(installed.code, 0, installed.stderr);
    const { claude, codex } = installedPreToolUse(repo, codexHome);
    const atlas = await plane.connect('atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo });
    atlas.close();

    plane.child.kill('SIGSTOP');
    const claudeEvent = (tool_name: string, tool_input: object) => JSON.stringify({ session_id: 's1', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id: 'toolu_1' });
    const codexEvent = (tool_name: string, tool_input: object) => JSON.stringify({ session_id: 'thread-1', turn_id: 'turn-1', transcript_path: null, cwd: repo, hook_event_name: 'PreToolUse', model: 'gpt-5-codex', permission_mode: 'default', tool_name, tool_input, tool_use_id: 'call-1' });
    const cases = [
      { name: 'Claude Write (the lean runner)', command: claude, input: claudeEvent('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }) },
      { name: 'Claude Bash (the lean runner)', command: claude, input: claudeEvent('Bash', { command: 'echo x > src/a.ts' }) },
      { name: 'Claude Write (the full verb)', command: claude.replace(/fleet-hook' /, "fleet' hook "), input: claudeEvent('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'x' }) },
      { name: 'Codex apply_patch', command: codex, input: codexEvent('apply_patch', { command: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch' }) },
    ];
    const started = Date.now();
    // Bounded: past the runtime's timeout the hook has lost (the write went through); SIGCONT then ends the stuck ones.
    const answers = await within(Promise.all(cases.map(async (each) => ({ ...each, ...(await runShell(each.command, { cwd: repo, env, input: each.input })), ms: Date.now() - started }))), 30_000, 'every hook answering while the plane is stopped');
    for (const answer of answers) {
      assert.ok(answer.ms < HOOK_PLANE_DEADLINE_MS + 5_000, `${answer.name} answered after ${answer.ms} ms`);
      assert.equal(answer.status, 0, `${answer.name}: ${answer.stderr}`);
      const decision = JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      assert.equal(decision.hookSpecificOutput.permissionDecision, 'deny', answer.name);
      assert.match(decision.hookSpecificOutput.permissionDecisionReason, /^The fleet could not check this write \(the plane did not answer within \d+ s/, answer.name);
    }
  } finally {
    plane.child.kill('SIGCONT');
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(codexHome);
  }
});
