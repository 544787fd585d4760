import { z } from 'zod';
import { PlaneCallError } from '../client/plane-client.js';
import { answerForCommandVerdict, answerForFailure, answerForVerdict, CLAUDE_SHELL_TOOL, claudeWriter, deny, planCommandCheck, planWriteCheck, type ClaudeHookAnswer } from './claude-write-check.js';
import { runCommandCheck, runHookCheck } from './hook-check.js';

export { CLAUDE_MCP_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_WRITE_TOOLS, claudeHookOutput, type ClaudeHookAnswer } from './claude-write-check.js';

const preToolUseSchema = z.looseObject({
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  cwd: z.string().optional(),
});

/**
 * `fleet hook claude-pre-tool-use`: reads the PreToolUse event, and denies a write outside the
 * writing agent's territory with a reason the model reads. Allowing prints nothing, so Claude
 * Code's own permission rules still apply (an explicit "allow" would skip them). The installed
 * hook is the lean runner (lean/fleet-hook.ts): it decides the same way, through
 * claude-write-check.ts, and hands what it cannot (unreadable input, no plane answering) to this verb.
 */
export async function claudePreToolUse(stdin: string, home: string, env: NodeJS.ProcessEnv): Promise<ClaudeHookAnswer> {
  let event: z.infer<typeof preToolUseSchema>;
  try {
    event = preToolUseSchema.parse(JSON.parse(stdin));
  } catch (error) {
    return deny(`The fleet hook could not read the PreToolUse input (${(error as Error).message.split('\n')[0]}), so it cannot tell whether this write is inside your territory.`);
  }
  const { override } = claudeWriter(home, env);
  try {
    if (event.tool_name === CLAUDE_SHELL_TOOL) {
      const plan = planCommandCheck(event, home, env);
      return 'answer' in plan ? plan.answer : answerForCommandVerdict(await runCommandCheck(plan.request));
    }
    const plan = planWriteCheck(event, home, env);
    if ('answer' in plan) return plan.answer;
    return answerForVerdict(await runHookCheck(plan.request));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return answerForFailure(error instanceof PlaneCallError ? error.errorName : undefined, message, override);
  }
}
