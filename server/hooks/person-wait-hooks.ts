import { hookEnvironment, payloadSessionId, writerHints } from './hook-check-request.js';
import type { OpenHookPlane } from './hook-plane.js';
import { answerWithin } from './plane-deadline.js';
import { OPTIONAL_OBJECT, OPTIONAL_STRING, readEvent } from './tool-event.js';

/**
 * Claude Code's Notification hook and Codex's PermissionRequest hook: the runtime waits for a
 * person, and the fleet records it on the session's agent (fleet_hook_waiting) so the operator sees
 * it beside escalations and decisions. These hooks observe only (DESIGN §16): they print nothing and
 * exit 0 whatever happens, so the runtime's own prompt decides — Codex takes a PermissionRequest
 * hook's JSON or exit 2 as a verdict, and an empty answer as none.
 */

type WaitReason = 'permission' | 'input' | 'question';

interface WaitEvent {
  session_id?: unknown;
  cwd?: string;
  message?: string;
  notification_type?: string;
  tool_name?: string;
  tool_input?: { command?: unknown; description?: unknown };
}

/** The plane's bounds (contracts/limits.ts: a paragraph, a label). */
const MESSAGE_MAX = 1000;
const TOOL_MAX = 64;

/**
 * Claude Code's notification types that mean a person is waited for (hooks reference, Notification):
 * a permission prompt, the prompt idle 60 s, an MCP server's question. Others (auth_success, the
 * elicitation's own completion) wait for nobody.
 */
const CLAUDE_WAITS: Record<string, WaitReason> = { permission_prompt: 'permission', idle_prompt: 'input', elicitation_dialog: 'question' };

/** `fleet hook claude-notification`: records the wait a notification announces; prints nothing. */
export async function claudeNotification(stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<void> {
  const read = readEvent<WaitEvent>(stdin, { cwd: OPTIONAL_STRING, message: OPTIONAL_STRING, notification_type: OPTIONAL_STRING });
  if (!('event' in read)) return;
  const { event } = read;
  const message = event.message ?? '';
  // Before notification_type existed, Claude Code notified only for a permission prompt or an idle prompt.
  const reason = event.notification_type !== undefined ? CLAUDE_WAITS[event.notification_type] : /permission/i.test(message) ? 'permission' : 'input';
  if (reason === undefined) return;
  const tool = reason === 'permission' ? /permission to use (\S+)/.exec(message)?.[1] : undefined;
  await recordWait(home, env, open, 'claude-notification', event, { reason, message: message || 'Claude Code waits for you', tool });
}

/** `fleet hook codex-permission-request --root REPO`: records that Codex asks to run a tool; prints nothing. */
export async function codexPermissionRequest(stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<void> {
  const read = readEvent<WaitEvent>(stdin, { cwd: OPTIONAL_STRING, tool_name: OPTIONAL_STRING, tool_input: OPTIONAL_OBJECT });
  if (!('event' in read)) return;
  const { event } = read;
  const command = typeof event.tool_input?.command === 'string' ? event.tool_input.command : undefined;
  const description = typeof event.tool_input?.description === 'string' ? event.tool_input.description : undefined;
  const tool = event.tool_name ?? 'a tool';
  const message = `Codex asks to run ${tool}${command !== undefined ? `: ${command}` : ''}${description !== undefined ? ` (${description})` : ''}`;
  await recordWait(home, env, open, 'codex-permission-request', event, { reason: 'permission', message, tool: event.tool_name });
}

/** Tells the plane, within the hooks' deadline; any failure is swallowed (an observer never blocks its runtime). */
async function recordWait(home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane, hook: string, event: WaitEvent, wait: { reason: WaitReason; message: string; tool: string | undefined }): Promise<void> {
  const sessionId = payloadSessionId(event);
  const { callsign } = hookEnvironment(env);
  const tell = async () => {
    const plane = await open(`fleet-hook-${hook}`);
    try {
      await plane.call('fleet_hook_waiting', {
        ...writerHints({ ...(callsign !== undefined && { callsign }), ...(sessionId !== undefined && { sessionId }) }),
        ...(event.cwd !== undefined && event.cwd !== '' && { worktree: event.cwd }),
        hook,
        reason: wait.reason,
        message: wait.message.slice(0, MESSAGE_MAX),
        ...(wait.tool !== undefined && wait.tool !== '' && { tool: wait.tool.slice(0, TOOL_MAX) }),
      });
    } finally {
      plane.close();
    }
  };
  await answerWithin(
    home,
    tell().catch(() => undefined),
    () => undefined,
  );
}
