import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LEAN_TOOLS } from '../../../server/mcp/tool-profile.js';
import { makeRepo } from '../../support/git-repo.js';
import { listBridgeTools, toolListTokens } from '../../support/mcp-tool-list.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';
import { shutdownPlane } from './support.js';

/** Issue 17: every tool definition sits in every agent's context; these are the budgets (Claude tokens). */
const DEFAULT_BUDGET = 4000;
const LEAN_BUDGET = 2500;

describe('the MCP tool list, as the official client receives it', () => {
  const home = tempHome();
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });

  after(async () => {
    await shutdownPlane(home);
    removeHome(home);
    removeHome(repo);
  });

  test(`the default profile: the 24 pinned tools in under ${DEFAULT_BUDGET} tokens`, async () => {
    const { tools } = await listBridgeTools({ home, cwd: repo });
    assert.equal(tools.length, 24);
    const tokens = toolListTokens(tools);
    assert.ok(tokens < DEFAULT_BUDGET, `the 24 tools cost ${tokens} tokens`);
  });

  test(`FLEET_MCP_TOOLS=lean: eleven tools in under ${LEAN_BUDGET} tokens, whose texts name no hidden tool`, async () => {
    const { tools, instructions } = await listBridgeTools({ home, cwd: repo, profile: 'lean' });
    assert.deepEqual(tools.map((t) => t.name).sort(), [...LEAN_TOOLS].sort());
    const tokens = toolListTokens(tools);
    assert.ok(tokens < LEAN_BUDGET, `the lean tools cost ${tokens} tokens`);
    const named = new Set(`${JSON.stringify(tools)}\n${instructions}`.match(/\bfleet_[a-z_]+/g));
    for (const name of named) assert.ok(LEAN_TOOLS.has(name as never), `${name} is named but hidden`);
  });

  test('an action without its field is refused by the plane, naming the field (the advertised schema is flattened)', async () => {
    const client = new Client({ name: 'profiles-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo, env: { ...(process.env as Record<string, string>), FLEET_HOME: home, FLEET_PORT: '0', FLEET_MCP_TOOLS: 'lean' }, stderr: 'ignore' }));
    try {
      const joined = (await client.callTool({ name: 'fleet_agent_join', arguments: { callsign: 'LEAN', runtime: 'test' } })) as { isError?: boolean };
      assert.notEqual(joined.isError, true);
      const reply = (await client.callTool({ name: 'fleet_work_update', arguments: { id: 'w-1', action: 'complete' } })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(reply.isError, true);
      assert.match(reply.content[0]!.text, /^INVALID_PARAMS: .*artifact/);
    } finally {
      await client.close();
    }
  });

  test('an unknown profile stops `fleet mcp` at start-up with exit 2, naming the choices', () => {
    const run = spawnSync(process.execPath, [CLI, 'mcp'], { cwd: repo, env: { ...process.env, FLEET_HOME: home, FLEET_MCP_TOOLS: 'tiny' }, encoding: 'utf8', input: '' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /FLEET_MCP_TOOLS="tiny" is not a tool profile: use "default"/);
  });
});
