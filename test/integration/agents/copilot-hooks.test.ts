// VS Code agent mode (Copilot) runs the hooks of .claude/settings*.json on its own tools (VS Code
// 1.109.3 and later, "Agent hooks (Preview)"; code.visualstudio.com/docs/agent-customization/hooks and
// docs/agents/reference/hooks-reference). It ignores matchers, so the fleet's PreToolUse hook sees
// every tool call, with VS Code's tool names and camelCase inputs. The payloads here are the
// documented shapes: the common fields as the Copilot Chat extension writes them (timestamp,
// hook_event_name, session_id, transcript_path, cwd: the workspace folder), tool_name, tool_input,
// tool_use_id; the tools' inputs as their schemas declare them (create_file {filePath, content}, …;
// run_in_terminal {command, explanation, isBackground}) and as the docs' examples show them
// (editFiles {files}, runTerminalCommand {command}). Each is fed to the command `fleet install-hooks`
// wrote, against a real plane with two agents holding claims.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { keepAlive } from './support.js';

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
}

describe('Copilot in VS Code: the fleet PreToolUse hook on VS Code agent-mode payloads', () => {
  let plane: PlaneProcess;
  let repo: string;
  const outside = tempHome('fleet-copilot-outside-');
  let hookCommand: string;
  const clients: PlaneClient[] = [];
  const stops: (() => void)[] = [];
  let calls = 0;

  /** The installed command run as VS Code's hook executor does: through a shell, in the workspace folder, the event on stdin. */
  function preToolUse(toolName: string, toolInput: Record<string, unknown>): Promise<HookOutput | undefined> {
    calls += 1;
    const event = {
      timestamp: new Date().toISOString(),
      hook_event_name: 'PreToolUse',
      session_id: 'vscode-chat-session-1',
      transcript_path: join(outside, 'transcript.jsonl'),
      cwd: repo,
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: `call_${calls}__vscode-${calls}`,
    };
    // VS Code's bridge registers no process (a window is never an agent's runtime), so a Copilot
    // session is its agent through FLEET_AS in VS Code's environment; without it, a person.
    const env: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: plane.home, FLEET_AS: 'ATLAS' };
    delete env.FLEET_OVERRIDE;
    return new Promise((resolve, reject) => {
      const child = execFile('sh', ['-c', hookCommand], { cwd: repo, env, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) return reject(new Error(`the hook exits 0 with its decision on stdout (VS Code reads other codes as a warning and runs the tool): ${stderr}`));
        resolve(stdout.trim() === '' ? undefined : (JSON.parse(stdout) as HookOutput));
      });
      child.stdin!.end(JSON.stringify(event));
    });
  }

  async function assertDenied(toolName: string, toolInput: Record<string, unknown>, mentions = 'src/theirs/x.ts'): Promise<void> {
    const output = await preToolUse(toolName, toolInput);
    assert.ok(output, `${toolName} ${JSON.stringify(toolInput)} is denied`);
    // VS Code reads the decision from hookSpecificOutput, and keeps it only when hookEventName is the event's.
    assert.equal(output.hookSpecificOutput.hookEventName, 'PreToolUse');
    assert.equal(output.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(output.hookSpecificOutput.permissionDecisionReason, /BOLT/);
    assert.ok(output.hookSpecificOutput.permissionDecisionReason.includes(mentions), output.hookSpecificOutput.permissionDecisionReason);
  }

  const marks = () => (existsSync(join(plane.home, 'tool-marks')) ? readdirSync(join(plane.home, 'tool-marks')) : []);

  before(async () => {
    plane = await startPlaneProcess();
    repo = makeRepo({ 'src/mine/a.ts': 'export const a = 1;\n', 'src/theirs/x.ts': 'export const theirs = 1;\n', 'README.md': '# repo\n' });
    const installed = await runCli(['install-hooks'], { home: plane.home, cwd: repo });
    assert.equal(installed.code, 0, installed.stderr);
    const settings = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    hookCommand = settings.hooks.PreToolUse.flatMap((entry) => entry.hooks.map((hook) => hook.command)).find((command) => command.includes('claude-pre-tool-use'))!;
    const atlas = await plane.connect('test-atlas');
    const bolt = await plane.connect('test-bolt');
    clients.push(atlas, bolt);
    // ATLAS is the Copilot session's agent (FLEET_AS); it registered the workspace folder as its worktree.
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'copilot', worktree: repo });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'claude-code', worktree: join(outside, 'bolt-tree') });
    stops.push(keepAlive(atlas, 5000), keepAlive(bolt, 5000));
    assert.equal((await bolt.call('fleet_claim_path', { patterns: ['src/theirs/**'], root: repo })).granted, true);
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/mine/**'], root: repo })).granted, true);
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of clients) client.close();
    await plane?.stop();
    for (const dir of [plane?.home, repo, outside]) if (dir) removeHome(dir);
  });

  test("VS Code's file tools writing another agent's file are denied, with the answer VS Code reads; its own are not", async () => {
    const theirs = join(repo, 'src/theirs/x.ts');
    await assertDenied('create_file', { filePath: theirs, content: 'x' });
    await assertDenied('replace_string_in_file', { filePath: theirs, oldString: '1', newString: '2', explanation: 'bump' });
    await assertDenied('insert_edit_into_file', { explanation: 'add a line', filePath: pathToFileURL(theirs).href, code: '// more' });
    await assertDenied('multi_replace_string_in_file', {
      explanation: 'two edits',
      replacements: [
        { filePath: join(repo, 'src/mine/a.ts'), oldString: '1', newString: '2', explanation: 'mine' },
        { filePath: theirs, oldString: '1', newString: '2', explanation: 'theirs' },
      ],
    });
    await assertDenied('apply_patch', { input: `*** Begin Patch\n*** Update File: ${theirs}\n@@\n-export const theirs = 1;\n+export const theirs = 2;\n*** End Patch`, explanation: 'patch it' });
    await assertDenied('create_directory', { dirPath: join(repo, 'src/theirs/new') }, 'src/theirs/new');
    // The docs' example shape: editFiles with a list of workspace-relative files.
    await assertDenied('editFiles', { files: ['src/mine/a.ts', 'src/theirs/x.ts'] });
    // VS Code names MCP tools mcp_<server>_<tool>: one that says it writes is judged by its path fields, as Claude Code's are.
    await assertDenied('mcp_files_write_file', { path: theirs, content: 'x' });
    // Writes in its own territory, and reads anywhere, are allowed without a word (VS Code then applies its own approvals).
    assert.equal(await preToolUse('create_file', { filePath: join(repo, 'src/mine/new.ts'), content: 'export {};\n' }), undefined);
    assert.equal(await preToolUse('replace_string_in_file', { filePath: join(repo, 'src/mine/a.ts'), oldString: '1', newString: '2' }), undefined);
    assert.equal(await preToolUse('read_file', { filePath: join(repo, 'src/theirs/x.ts'), startLine: 1, endLine: 10 }), undefined);
    assert.equal(await preToolUse('list_dir', { path: join(repo, 'src/theirs') }), undefined);
  });

  test("VS Code's terminal tool is judged as Bash is", async () => {
    await assertDenied('run_in_terminal', { command: 'echo x > src/theirs/x.ts', explanation: 'overwrite', isBackground: false });
    await assertDenied('runTerminalCommand', { command: "sed -i 's/1/2/' src/theirs/x.ts" });
    assert.equal(await preToolUse('run_in_terminal', { command: 'echo hi > src/mine/hi.txt', explanation: 'write mine', isBackground: false }), undefined);
  });

  test('matchers ignored, the hook runs on every tool: only the terminal tool marks the worktree for PostToolUse', async () => {
    const before = marks().length;
    assert.equal(await preToolUse('read_file', { filePath: join(repo, 'README.md'), startLine: 1, endLine: 5 }), undefined);
    assert.equal(await preToolUse('grep_search', { query: 'theirs', isRegexp: false }), undefined);
    assert.equal(await preToolUse('create_file', { filePath: join(repo, 'src/mine/other.ts'), content: '' }), undefined);
    assert.equal(marks().length, before, 'reads and exactly-checked file tools take no mark');
    assert.equal(await preToolUse('run_in_terminal', { command: 'ls', explanation: 'list', isBackground: false }), undefined);
    assert.equal(marks().length, before + 1, 'a terminal command is marked, so PostToolUse can tell what it changed');
  });
});
