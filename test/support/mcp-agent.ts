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
  /** A tool call that may fail: whether it did and its text. */
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; result: Loose }>;
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
    return { isError: reply.isError === true, text: reply.content.map((c) => c.text).join('\n'), result: reply.structuredContent ?? {} };
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
