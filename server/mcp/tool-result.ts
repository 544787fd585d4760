import { errorTable, FleetError, type ControlBrief } from '../../contracts/index.js';
import { PlaneCallError } from '../client/plane-client.js';
import { controlNotice } from './tool-guidance.js';

/** The shape of an MCP tools/call result, as far as the bridge fills it. */
export interface ToolCallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A plane result: the control notice first when the switch is not `run`, then the JSON itself.
 * Claude Code and Codex hand the model only `structuredContent` when a result has one (Codex:
 * codex-rs/protocol/src/models.rs, `From<&CallToolResult> for FunctionCallOutputPayload`; Claude
 * Code: anthropics/claude-code#55677, #79944), so the notice is also its first field, `notice`.
 * Errors carry no structuredContent: there both clients forward `content`, where toolError puts it.
 */
export function toolResult(result: Record<string, unknown>): ToolCallResult {
  const notice = controlNotice(result.control as ControlBrief | undefined);
  return {
    content: [...(notice ? [{ type: 'text' as const, text: notice }] : []), { type: 'text', text: JSON.stringify(result) }],
    structuredContent: notice ? { notice, ...result } : result,
  };
}

/** A tool error a model can act on: the error's name from the table, the message, what to do. */
export function toolError(name: string, message: string, lastControl?: ControlBrief): ToolCallResult {
  const doc = name in errorTable ? errorTable[name as keyof typeof errorTable].doc : undefined;
  const notice = controlNotice(lastControl);
  const text = [`${name}: ${message}`, doc && `What to do: ${doc}`, notice].filter(Boolean).join('\n');
  return { content: [{ type: 'text', text }], isError: true };
}

/** Any failure of a plane call as a tool error. */
export function errorResult(error: unknown, lastControl?: ControlBrief): ToolCallResult {
  if (error instanceof PlaneCallError) {
    return toolError(error.errorName ?? `ERROR ${error.code}`, error.message, lastControl);
  }
  // Raised in the plane itself, where /mcp on the TLS listener dispatches without a connection.
  if (error instanceof FleetError) return toolError(error.errorName, error.message, lastControl);
  const message = error instanceof Error ? error.message : String(error);
  return toolError(
    'PLANE_UNAVAILABLE',
    `${message}. The call may or may not have been applied: check before retrying (a claim retried with the same requestId returns the same grant). The next call reconnects to the plane (starting one if none runs) and re-joins you.`,
    lastControl,
  );
}
