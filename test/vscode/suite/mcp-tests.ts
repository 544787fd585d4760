// The fleet MCP server offered to VS Code's agent mode: on an engine with the API, the definition
// VS Code gets starts a bridge that speaks MCP and lists the fleet tools; without it, the extension
// says why and carries on.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';

export function mcpTests(fx: () => Fixture): void {
  test('MCP: VS Code agent mode gets the fleet MCP server where the API exists (1.101+)', async () => {
    const status = fx().api.mcp();
    const [major, minor] = vscode.version.split('.').map(Number) as [number, number];
    if (major === 1 && minor < 101) {
      assert.equal(status.available, false, `VS Code ${vscode.version} has no final MCP API`);
      assert.match(status.reason ?? '', /MCP/);
      return;
    }
    assert.equal(status.available, true, status.reason);
    const definition = status.definitions[0]!;
    assert.deepEqual(definition.args.slice(1), ['mcp', '--home', fx().home]);
    const bridge = spawn(definition.command, definition.args, { env: { ...process.env, ...definition.env }, cwd: definition.cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const replies = createInterface({ input: bridge.stdout! })[Symbol.asyncIterator]();
      const send = (message: object) => bridge.stdin!.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fleet-vscode-test', version: '0' } } });
      const init = JSON.parse((await replies.next()).value as string) as { result: { serverInfo: { name: string } } };
      assert.equal(init.result.serverInfo.name, 'fleet');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const tools = JSON.parse((await replies.next()).value as string) as { result: { tools: { name: string }[] } };
      assert.ok(tools.result.tools.some((tool) => tool.name === 'fleet_claim_path'), 'the fleet tools are listed');
    } finally {
      bridge.kill();
    }
  });
}
