import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { methodList } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { isAlive } from '../../../server/plane/processes/process-identity.js';
import { makeRepo } from '../../support/git-repo.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';
import { connectAsOperatorTo, connectTo, keepAlive, planePid, shutdownPlane, until } from './support.js';

/** DESIGN §3: the agent-facing methods every runtime reaches through MCP. */
const PINNED_TOOLS = [
  'fleet_agent_join', 'fleet_agent_heartbeat', 'fleet_agent_leave', 'fleet_agent_resume', 'fleet_roster', 'fleet_claim_path',
  'fleet_claim_renew', 'fleet_release_path', 'fleet_check_path', 'fleet_agent_handoff', 'fleet_handoff_respond', 'fleet_inbox',
  'fleet_message_send', 'fleet_message_ack', 'fleet_agent_memo_write', 'fleet_memo_read', 'fleet_work_add', 'fleet_work_pull',
  'fleet_work_update', 'fleet_control_get', 'fleet_control_set', 'fleet_digest', 'fleet_build_verify', 'fleet_rte_lease',
];

/** Tool results are read field by field and each field asserted, so they are typed loosely here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

interface ToolOutcome {
  isError: boolean;
  text: string;
  result: Loose;
}

describe('fleet mcp under a real MCP client (stdio)', () => {
  const home = tempHome();
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'docs/guide.md': '# guide\n', 'README.md': '# repo\n' });
  const client = new Client({ name: 'fleet-test', version: '1.0.0' });
  const ttlSeconds = 3;
  let bridgeLog = '';
  let operator: PlaneClient;
  let bolt: PlaneClient;
  let stopBolt = () => {};

  const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> => {
    const reply = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
    return { isError: reply.isError === true, text: reply.content.map((c) => c.text).join('\n'), result: (reply.structuredContent ?? {}) as Loose };
  };
  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<Loose> => {
    const outcome = await call(name, args);
    assert.equal(outcome.isError, false, `${name} failed: ${outcome.text}\nbridge log:\n${bridgeLog}`);
    return outcome.result;
  };

  before(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: repo,
      env: { ...(process.env as Record<string, string>), FLEET_HOME: home, FLEET_PORT: '0', FLEET_AGENT_TTL: String(ttlSeconds) },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (bridgeLog += chunk.toString()));
    await client.connect(transport);
  });

  after(async () => {
    stopBolt();
    bolt?.close();
    operator?.close();
    await client.close();
    await shutdownPlane(home);
    removeHome(home);
    removeHome(repo);
  });

  test('lists one tool per MCP method of the table, with schemas and descriptions from the contracts', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, methodList.filter((m) => m.mcpTool).map((m) => m.name).sort());
    assert.deepEqual(names, [...PINNED_TOOLS].sort());
    const claim = tools.find((t) => t.name === 'fleet_claim_path')!;
    const claimSpec = methodList.find((m) => m.name === 'fleet_claim_path')!;
    assert.ok(claim.description?.startsWith(claimSpec.summary), 'the description starts with the method summary');
    assert.equal(claim.inputSchema.type, 'object');
    assert.equal((claim.inputSchema.properties as Record<string, { type: string }>).patterns!.type, 'array');
    assert.deepEqual(claim.inputSchema.required, ['patterns']);
    const update = tools.find((t) => t.name === 'fleet_work_update')!;
    assert.deepEqual((update.inputSchema.properties as Record<string, { enum?: string[] }>).action!.enum, ['complete', 'verify', 'decide', 'plan', 'clarify', 'answer'], 'the update union is advertised as one object with an action enum');
    const join = tools.find((t) => t.name === 'fleet_agent_join')!;
    assert.ok(!(join.inputSchema.properties as Record<string, { enum: string[] }>).role!.enum.includes('operator'), 'operator is not offered to a model');
  });

  test('a call before joining is a tool error that says to call fleet_agent_join first', async () => {
    const outcome = await call('fleet_claim_path', { patterns: ['src/**'] });
    assert.equal(outcome.isError, true);
    assert.match(outcome.text, /NOT_JOINED/);
    assert.match(outcome.text, /fleet_agent_join/);
  });

  test('role operator is refused to a model', async () => {
    const outcome = await call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', role: 'operator' });
    assert.equal(outcome.isError, true);
    assert.match(outcome.text, /FORBIDDEN/);
    assert.match(outcome.text, /never takes role operator/);
  });

  test('join returns the identity and the control state, and keeps the token for the CLI and hooks', async () => {
    const joined = await ok('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', role: 'builder' });
    assert.equal(joined.callsign, 'ATLAS');
    assert.ok(joined.sessionToken);
    assert.equal(joined.control.state, 'run');
    assert.ok(existsSync(join(home, 'sessions', 'ATLAS.json')));
    operator = await connectAsOperatorTo(home);
    bolt = await connectTo(home, 'test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'codex', role: 'builder' });
    stopBolt = keepAlive(bolt);
    const roster = await operator.call('fleet_roster', {});
    const atlas = roster.agents.find((a) => a.callsign === 'ATLAS')!;
    assert.equal(atlas.role, 'builder');
    assert.equal(realpathSync(atlas.worktree!), realpathSync(repo), 'the worktree registered is the repository of the working directory');
  });

  test('claim: granted in the repository of the working directory; another agent meets the conflict', async () => {
    const granted = await ok('fleet_claim_path', { patterns: ['src/**'], reason: 'refactor' });
    assert.equal(granted.granted, true);
    assert.equal(granted.claims[0].pattern, 'src/**');
    const refused = await bolt.call('fleet_claim_path', { patterns: ['src/a.ts'], root: repo });
    assert.equal(refused.granted, false);
    assert.equal(refused.conflicts[0]!.holder, 'ATLAS');
  });

  test('the bridge agent meets a conflict as a normal result naming the holder', async () => {
    await bolt.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
    const outcome = await call('fleet_claim_path', { patterns: ['docs/guide.md'] });
    assert.equal(outcome.isError, false);
    assert.equal(outcome.result.granted, false);
    assert.equal(outcome.result.refusedBy, 'conflict');
    assert.equal(outcome.result.conflicts[0].holder, 'BOLT');
    assert.equal(outcome.result.conflicts[0].heldPattern, 'docs/**');
  });

  test('a pause arrives in the next result; a model can pull the brake but never release it', async () => {
    await operator.call('fleet_control_set', { state: 'pause', reason: 'lunch' });
    const checked = await call('fleet_check_path', { paths: ['src/a.ts'] });
    assert.equal(checked.isError, false);
    assert.deepEqual(checked.result.control, { state: 'pause', reason: 'lunch' });
    assert.match(checked.text, /^FLEET IS PAUSED \(lunch\): start nothing new/);
    const claim = await ok('fleet_claim_path', { patterns: ['README.md'] });
    assert.equal(claim.granted, false);
    assert.equal(claim.refusedBy, 'control');
    const release = await call('fleet_control_set', { state: 'run' });
    assert.equal(release.isError, true);
    assert.match(release.text, /FORBIDDEN \(|FORBIDDEN:/);
    assert.match(release.text, /only the operator/);
    assert.match(release.text, /PAUSED/, 'the error still tells the model the fleet is paused');
    const brake = await ok('fleet_control_set', { state: 'stop', reason: 'smoke' });
    assert.equal(brake.state, 'stop');
    await operator.call('fleet_control_set', { state: 'run' });
    assert.equal((await ok('fleet_control_get')).state, 'run');
  });

  test('errors come back as tool errors naming the code and the parameter', async () => {
    const outcome = await call('fleet_claim_path', { patterns: [] });
    assert.equal(outcome.isError, true);
    assert.match(outcome.text, /INVALID_PARAMS/);
    assert.match(outcome.text, /patterns/);
    const theirs = (await operator.call('fleet_claims', { holder: 'BOLT' })).claims[0]!;
    const notMine = await call('fleet_release_path', { claimIds: [theirs.id] });
    assert.equal(notMine.isError, true);
    assert.match(notMine.text, /^NOT_HOLDER: claim .* is held by BOLT/);
    assert.match(notMine.text, /What to do: /);
    assert.equal((await ok('fleet_control_get')).state, 'run', 'the session still works after errors');
  });

  test('hand off: the claim travels to the recipient once it accepts', async () => {
    const mine = await operator.call('fleet_claims', { holder: 'ATLAS' });
    const src = mine.claims.find((c) => c.pattern === 'src/**')!;
    const sent = await ok('fleet_agent_handoff', { to: { callsign: 'BOLT' }, summary: 'parser half done', nextSteps: ['finish b.ts'], claims: [src.id] });
    assert.equal(sent.handoff.status, 'pending');
    const inbox = await bolt.call('fleet_inbox', {});
    assert.equal(inbox.handoffs[0]!.id, sent.handoff.id);
    const accepted = await bolt.call('fleet_handoff_respond', { handoffId: sent.handoff.id, accept: true });
    assert.equal(accepted.claims[0]!.pattern, 'src/**');
    const check = await ok('fleet_check_path', { paths: ['src/b.ts'] });
    assert.equal(check.allowed, false);
    assert.equal(check.results[0].holders[0].callsign, 'BOLT');
  });

  test('pull work: the item comes with its paths claimed; completing moves it to review', async () => {
    const added = await operator.call('fleet_work_add', { title: 'add the lexer', paths: ['lib/lexer.ts'], criteria: ['lexes'], root: repo });
    const pulled = await ok('fleet_work_pull');
    assert.equal(pulled.item.id, added.item.id);
    assert.equal(pulled.claims[0].pattern, 'lib/lexer.ts');
    const done = await ok('fleet_work_update', { id: added.item.id, action: 'complete', artifact: { touchedFiles: ['lib/lexer.ts'], commands: [{ command: 'npm test', exitCode: 0 }], criteria: ['lexes'] } });
    assert.equal(done.item.status, 'review');
  });

  test('the bridge heartbeats: silent for longer than the agent TTL, the agent stays active', async () => {
    await ok('fleet_claim_path', { patterns: ['notes/**'] });
    await new Promise((resolve) => setTimeout(resolve, (ttlSeconds + 1) * 1000));
    const roster = await operator.call('fleet_roster', {});
    assert.equal(roster.agents.find((a) => a.callsign === 'ATLAS')!.status, 'active');
  });

  test('after the plane restarts, the next call reconnects and continues as the same agent with its claims', async () => {
    const before = await ok('fleet_agent_resume');
    const pid = planePid(home);
    stopBolt();
    await operator.call('fleet_plane_shutdown', {});
    await until(() => !isAlive(pid), 10_000, 'the plane did not shut down');
    const after = await ok('fleet_agent_resume');
    assert.equal(after.agent.agentId, before.agent.agentId);
    assert.ok(after.claims.some((c: { pattern: string }) => c.pattern === 'notes/**'), 'the claim survived');
    assert.notEqual(planePid(home), pid, 'a new plane was started');
    assert.match(bridgeLog, /re-joined as ATLAS/);
    operator = await connectAsOperatorTo(home);
  });

  test('after leaving, calls are refused until the agent joins again', async () => {
    const left = await ok('fleet_agent_leave');
    assert.equal(left.left, true);
    const outcome = await call('fleet_roster');
    assert.equal(outcome.isError, true);
    assert.match(outcome.text, /fleet_agent_join/);
  });
});
