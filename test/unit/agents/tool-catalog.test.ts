import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { methodList } from '../../../contracts/index.js';
import { heartbeatInterval } from '../../../server/mcp/mcp-server.js';
import { buildToolCatalog } from '../../../server/mcp/tool-catalog.js';
import { controlNotice } from '../../../server/mcp/tool-guidance.js';
import { toolError } from '../../../server/mcp/tool-result.js';

describe('the MCP tool catalog is generated from the method table', () => {
  const catalog = buildToolCatalog();

  test('one tool per MCP method, none for the others', () => {
    assert.deepEqual([...catalog.keys()].sort(), methodList.filter((m) => m.mcpTool).map((m) => m.name).sort());
    for (const method of methodList.filter((m) => !m.mcpTool)) assert.ok(!catalog.has(method.name), `${method.name} is not a tool`);
  });

  test('every input schema is a JSON Schema object whose properties are the params of the contract', () => {
    for (const [name, tool] of catalog) {
      assert.equal(tool.definition.inputSchema.type, 'object', name);
      assert.ok(!('$schema' in tool.definition.inputSchema), `${name}: no $schema noise in the tool list`);
      const shape = (tool.spec.params as unknown as { shape?: Record<string, unknown> }).shape;
      if (shape) assert.deepEqual(Object.keys((tool.definition.inputSchema.properties as object) ?? {}).sort(), Object.keys(shape).sort(), name);
    }
  });

  test('descriptions start with the summary and tell the model about the fleet switch', () => {
    for (const [name, tool] of catalog) {
      assert.ok(tool.definition.description.startsWith(tool.spec.summary), name);
      assert.match(tool.definition.description, /when state is not "run", stop starting new work/, name);
    }
  });

  test('root is defaulted exactly for the methods that take it', () => {
    const rooted = [...catalog.values()].filter((t) => t.takesRoot).map((t) => t.spec.name).sort();
    assert.deepEqual(rooted, ['fleet_build_verify', 'fleet_check_path', 'fleet_claim_path', 'fleet_release_path', 'fleet_work_add']);
  });

  test('read-only methods are annotated as such', () => {
    assert.equal(catalog.get('fleet_check_path')!.definition.annotations.readOnlyHint, true);
    assert.equal(catalog.get('fleet_claim_path')!.definition.annotations.readOnlyHint, false);
  });
});

describe('what the bridge tells a model', () => {
  test('a notice for every state but run', () => {
    assert.equal(controlNotice({ state: 'run' }), undefined);
    assert.match(controlNotice({ state: 'drain' })!, /^FLEET IS DRAINING: finish the work you already hold/);
    assert.match(controlNotice({ state: 'pause', reason: 'deploy' })!, /^FLEET IS PAUSED \(deploy\): start nothing new/);
    assert.match(controlNotice({ state: 'stop' })!, /fleet_agent_leave/);
  });

  test('tool errors carry the code name, the message and what to do from the error table', () => {
    const error = toolError('STALE_FENCE', 'fence 3 is stale', { state: 'pause' });
    assert.equal(error.isError, true);
    assert.match(error.content[0]!.text, /^STALE_FENCE: fence 3 is stale\nWhat to do: The fencing token you presented is no longer current/);
    assert.match(error.content[0]!.text, /FLEET IS PAUSED/);
  });

  test('the heartbeat runs at a quarter of the agent TTL in real time', () => {
    assert.equal(heartbeatInterval({}), 30_000);
    assert.equal(heartbeatInterval({ FLEET_AGENT_TTL: '4' }), 1000);
    assert.equal(heartbeatInterval({ FLEET_AGENT_TTL: '120', FLEET_TIME_SCALE: '60' }), 500);
    assert.equal(heartbeatInterval({ FLEET_AGENT_TTL: '0.1' }), 200);
  });
});
