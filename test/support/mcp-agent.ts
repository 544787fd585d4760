import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './plane-process.js';

/** Tool results are read field by field and each field asserted, so they are typed loosely here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = Record<string, any>;

export interface McpAgent {
  /** A tool call that must succeed: its structured result. */
  ok(name: string, args?: Record<string, unknown>): Promise<Loose>;
  /** A tool call that may fail: whether it did, its text, and what Claude Code and Codex hand the model. */
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; result: Loose; forwarded: string }>;
  close(): Promise<void>;
}

/** An agent as a runtime runs it: the official MCP client talking to `fleet mcp` over stdio, in `cwd`. */
export async function startMcpAgent(home: string, cwd: string, env: Record<string, string> = {}): Promise<McpAgent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    cwd,
    env: { ...(process.env as Record<string, string>), FLEET_HOME: home, FLEET_PORT: '0', ...env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: 'fleet-test', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const reply = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: Loose };
    const text = reply.content.map((c) => c.text).join('\n');
    return { isError: reply.isError === true, text, result: reply.structuredContent ?? {}, forwarded: forwardedToModel(reply.structuredContent, text) };
  };
  return {
    call,
    async ok(name, args) {
      const outcome = await call(name, args);
      assert.equal(outcome.isError, false, `${name} failed: ${outcome.text}\nbridge log:\n${log}`);
      return outcome.result;
    },
    close: () => client.close(),
  };
}

/**
 * What Claude Code and Codex put before the model for a tool result: the JSON of `structuredContent`
 * when there is one, the content's text only when there is none (Codex: codex-rs/protocol/src/models.rs,
 * `From<&CallToolResult> for FunctionCallOutputPayload`; Claude Code: anthropics/claude-code#55677, #79944).
 */
function forwardedToModel(structuredContent: Loose | undefined, text: string): string {
  return structuredContent !== undefined && structuredContent !== null ? JSON.stringify(structuredContent) : text;
}
