import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { methodList } from '../../../contracts/index.js';
import { heartbeatInterval } from '../../../server/mcp/mcp-server.js';
import { advertisedSchema } from '../../../server/mcp/advertised-schema.js';
import { buildToolCatalog } from '../../../server/mcp/tool-catalog.js';
import { controlNotice, serverInstructions, toolsNamedIn } from '../../../server/mcp/tool-guidance.js';
import { LEAN_TOOLS, toolProfileFrom } from '../../../server/mcp/tool-profile.js';
import { toolError } from '../../../server/mcp/tool-result.js';

describe('the MCP tool catalog is generated from the method table', () => {
  const catalog = buildToolCatalog();

  test('one tool per MCP method, none for the others', () => {
    assert.deepEqual([...catalog.keys()].sort(), methodList.filter((m) => m.mcpTool).map((m) => m.name).sort());
    for (const method of methodList.filter((m) => !m.mcpTool)) assert.ok(!catalog.has(method.name), `${method.name} is not a tool`);
  });

  test('every input schema is a JSON Schema object whose properties are the params of the contract, less what the bridge fills', () => {
    const bridgeFills: Record<string, string[]> = { fleet_agent_join: ['pid', 'worktree'] };
    const bridgeRoots = ['scope'];
    for (const [name, tool] of catalog) {
      assert.equal(tool.definition.inputSchema.type, 'object', name);
      assert.ok(!('$schema' in tool.definition.inputSchema), `${name}: no $schema noise in the tool list`);
      const shape = (tool.spec.params as unknown as { shape?: Record<string, unknown> }).shape;
      const expected = Object.keys(shape ?? {}).filter((key) => !bridgeFills[name]?.includes(key) && !(tool.takesRoot && bridgeRoots.includes(key)));
      if (shape) assert.deepEqual(Object.keys((tool.definition.inputSchema.properties as object) ?? {}).sort(), expected.sort(), name);
    }
  });

  test('descriptions start with the summary; the fleet switch is explained once, in the server instructions', () => {
    for (const [name, tool] of catalog) assert.ok(tool.definition.description.startsWith(tool.spec.summary), name);
    assert.match(serverInstructions(() => true), /drain = finish what you hold, pull nothing new; pause = start nothing new/);
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

describe('the lean profile (FLEET_MCP_TOOLS=lean)', () => {
  const lean = buildToolCatalog('lean');

  test('offers exactly the eleven tools of one work loop', () => {
    assert.deepEqual([...lean.keys()].sort(), [...LEAN_TOOLS].sort());
    assert.equal(lean.size, 11);
  });

  test('no description, field text or instruction points at a tool the profile hides', () => {
    const texts = [...lean.values()].map((tool) => JSON.stringify(tool.definition));
    texts.push(serverInstructions((name) => lean.has(name)));
    for (const text of texts) for (const named of toolsNamedIn(text)) assert.ok(lean.has(named), `"${named}" is hidden in the lean profile but named in: ${text.slice(0, 120)}…`);
    assert.match(serverInstructions((name) => lean.has(name)), /fleet_agent_join/);
    assert.doesNotMatch(serverInstructions((name) => lean.has(name)), /fleet_agent_resume|fleet_agent_heartbeat/);
  });

  test('an unknown profile is refused, naming the choices', () => {
    assert.equal(toolProfileFrom({}), 'default');
    assert.equal(toolProfileFrom({ FLEET_MCP_TOOLS: ' lean ' }), 'lean');
    assert.throws(() => toolProfileFrom({ FLEET_MCP_TOOLS: 'tiny' }), /FLEET_MCP_TOOLS="tiny" is not a tool profile: use "default".*or "lean" \(fleet_agent_join/);
  });
});

describe('the advertised schemas carry what a model needs to form a call', () => {
  test('limits the plane enforces, closed objects and empty defaults are left out', () => {
    const schema = advertisedSchema({
      type: 'object',
      properties: { paths: { type: 'array', maxItems: 64, minItems: 1, default: [], items: { type: 'string', maxLength: 4096, minLength: 1 } }, n: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: 9 } },
      additionalProperties: false,
    });
    assert.deepEqual(schema, { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' } } });
  });

  test('an envelope keeps its content but not the reserved fields the plane fills', () => {
    const schema = advertisedSchema({ type: 'object', properties: { id: { type: 'string' }, artifact: { type: 'object', properties: { id: {}, fingerprint: {}, trust: {}, summary: { type: 'string' } } } } });
    assert.deepEqual(Object.keys((schema.properties as Record<string, { properties: object }>).artifact.properties), ['summary']);
    assert.ok('id' in (schema.properties as object), 'a top-level id is a parameter, not envelope metadata');
  });

  test("a record's string keys are not spelled out (JSON object keys are strings)", () => {
    const schema = advertisedSchema({ type: 'object', properties: { coverage: { type: 'object', propertyNames: { type: 'string', minLength: 1 }, additionalProperties: { type: 'string' } } } });
    assert.deepEqual((schema.properties as Record<string, object>).coverage, { type: 'object', additionalProperties: { type: 'string' } });
  });

  test("fleet_work_update is one object whose action is an enum; each action's field stays optional in the advertisement", () => {
    const update = catalogSchema('fleet_work_update');
    const properties = update.properties as Record<string, { enum?: string[] }>;
    assert.equal(update.oneOf, undefined);
    assert.deepEqual(properties.action!.enum, ['complete', 'verify', 'decide', 'plan', 'clarify', 'answer']);
    assert.deepEqual(update.required, ['action', 'id']);
    for (const field of ['artifact', 'report', 'decision', 'plan', 'question', 'options', 'requestId', 'chosen', 'rationale']) assert.ok(field in properties, field);
  });
});

function catalogSchema(name: string): Record<string, unknown> {
  return buildToolCatalog().get(name)!.definition.inputSchema;
}

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
