// The installed Claude Code hook (FLEET_HOME/bin/fleet-hook claude-pre-tool-use --home H): it runs on
// every edit of every agent, so it loads node builtins and the hooks' pure decision modules only.
// It decides a tool call itself (a file tool's, an MCP tool's, the shell's command), asking the
// running plane as the full verb does; what it cannot (input it can't read, no plane answering, a
// batch larger than one call) goes to the full CLI verb `fleet hook …` with the same stdin, so
// every answer is the full verb's.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { errorNameForCode } from '../../../contracts/errors.js';
import { answerForCommandVerdict, answerForFailure, answerForVerdict, claudeHookOutput, planCommandCheck, planWriteCheck, shellCall, type ClaudeHookAnswer, type ToolEvent } from '../claude-write-check.js';
import type { CommandVerdict, HookVerdict } from '../hook-check.js';
import { commandCheckParams, HOOK_CHECK_BATCH, hookCheckParams, hookEnvironment } from '../hook-check-request.js';
import { markRequest, saveToolMark } from '../claude-tool-marks.js';
import { callPlaneOnce } from './plane-call.js';
import { readStdin } from '../read-stdin.js';
import { answerWithin, PLANE_SILENT } from '../plane-deadline.js';

/** The full CLI next to this runner (tools/bundle.mjs points it at dist/fleet.cjs in the bundle). */
const FULL_CLI = new URL('../../cli/main.js', import.meta.url);

const args = process.argv.slice(2);

void (async () => {
  const stdin = await readStdin();
  const home = args[2]!;
  const answer = args.length === 3 && args[0] === 'claude-pre-tool-use' && args[1] === '--home' ? await answerWithin(decideWrite(stdin, home).catch(() => undefined), () => silentPlane()) : undefined;
  if (answer?.decision === 'allow') await answerWithin(markBeforeTool(stdin, home), () => undefined);
  if (answer) process.stdout.write(claudeHookOutput(answer), () => process.exit(0));
  else process.exitCode = runFullVerb(stdin);
})();

/** The plane took the connection but gave no answer in time: deny (the full verb would wait on it too); a socket left waiting must not keep the hook alive. */
function silentPlane(): ClaudeHookAnswer {
  return answerForFailure(undefined, PLANE_SILENT, hookEnvironment(process.env).override);
}

/** The answer the plane gave about a tool call; undefined for anything the full verb should take. */
async function decideWrite(input: string, home: string): Promise<ClaudeHookAnswer | undefined> {
  const event = toolEvent(input);
  if (!event) return undefined;
  const client = 'fleet-hook-claude-pre-tool-use';
  const shell = shellCall(event.tool_name, event.tool_input ?? {}, event.cwd ?? process.cwd());
  if (shell) {
    const plan = planCommandCheck(event, shell, home, process.env);
    if ('answer' in plan) return plan.answer;
    const reply = await callPlaneOnce(home, client, 'fleet_hook_check_command', commandCheckParams(plan.request));
    if (reply.error) return answerForFailure(errorNameForCode(reply.error.code), reply.error.message, plan.request.override);
    return answerForCommandVerdict(reply.result as CommandVerdict);
  }
  const plan = planWriteCheck(event, home, process.env);
  if ('answer' in plan) return plan.answer;
  if (plan.request.paths.length > HOOK_CHECK_BATCH) return undefined;
  const reply = await callPlaneOnce(home, client, 'fleet_hook_check', hookCheckParams(plan.request, plan.request.paths));
  if (reply.error) return answerForFailure(errorNameForCode(reply.error.code), reply.error.message, plan.request.override);
  return answerForVerdict(reply.result as HookVerdict);
}

/** As the full verb does once it allows (claude-post-tool-use.ts): the watcher's mark for PostToolUse, never a refusal. */
async function markBeforeTool(input: string, home: string): Promise<void> {
  const event = toolEvent(input);
  const request = event && markRequest(event, process.env);
  if (!request) return;
  const reply = await callPlaneOnce(home, 'fleet-hook-claude-pre-tool-use', 'fleet_worktree_changes', request.params).catch(() => undefined);
  const mark = (reply?.result as { mark?: unknown } | undefined)?.mark;
  if (typeof mark === 'number') saveToolMark(home, request.toolUseId, { mark, worktree: request.params.worktree });
}

/** The event, shaped as the full verb's schema expects; else undefined. */
function toolEvent(input: string): ToolEvent | undefined {
  const event = JSON.parse(input) as Record<string, unknown> | null;
  if (typeof event !== 'object' || event === null || typeof event.tool_name !== 'string') return undefined;
  const toolInput = event.tool_input;
  if (toolInput !== undefined && (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput))) return undefined;
  if (event.cwd !== undefined && typeof event.cwd !== 'string') return undefined;
  return event as unknown as ToolEvent;
}

function runFullVerb(input: string): number {
  const run = spawnSync(process.execPath, [fileURLToPath(FULL_CLI), 'hook', ...args], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  if (run.error) {
    process.stderr.write(`fleet-hook: could not run the fleet CLI (${run.error.message})\n`);
    return 1;
  }
  return run.status ?? 1;
}
