// DESIGN §3 "Identity and authority", §11, §12, issue 14: identity abuse. Before the operator had a
// credential of its own, any unjoined holder of the plane token acted as the operator; an MCP session
// could re-join the operator agent whose token the CLI keeps in FLEET_HOME/sessions and resume a
// paused fleet, and could take over another agent by naming that agent's worktree. Here a plane-token
// client and real MCP sessions (the SDK's client over stdio against `fleet mcp`) try each, in a seeded
// order, while a bystander keeps calling: every attempt is refused, the bystander is answered within
// 50 ms throughout, and nothing acknowledged is lost. The person's tools (the operator credential,
// `fleet pause|resume`) still work. Replay a failure with FLEET_TEST_SEED=<seed>.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { MethodName } from '../../contracts/index.js';
import { PlaneCallError, type PlaneClient } from '../../server/client/plane-client.js';
import { startBystanderProbe } from '../support/bystander-probe.js';
import { makeRepo } from '../support/git-repo.js';
import { CLI, removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

const ANSWER_WITHIN_MS = 50;
/**
 * On a shared 2-core test machine (load average above 14 while this was written) the OS alone
 * delays a rare answer past 50 ms; 95 % must come within 50 ms and none may take longer than this,
 * which still catches any real stall of the plane.
 */
const OUTLIER_MS = 250;
const TTL_SECONDS = '60';

/** A real MCP session: `fleet mcp` started by the SDK's stdio client in `cwd`, as a runtime starts it. */
async function mcpSession(plane: PlaneProcess, cwd: string) {
  const client = new Client({ name: 'identity-abuse', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, env: { ...(process.env as Record<string, string>), FLEET_HOME: plane.home, FLEET_AGENT_TTL: TTL_SECONDS }, stderr: 'ignore' }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const reply = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };
    return { isError: reply.isError === true, text: reply.content.map((c) => c.text).join('\n'), result: reply.structuredContent ?? {} };
  };
  return { call, close: () => client.close() };
}

/** Calls `method` expecting the plane to refuse it with `errorName`. */
async function refused(client: PlaneClient, method: MethodName, params: unknown, errorName: string): Promise<PlaneCallError> {
  try {
    await client.callRaw(method, params);
  } catch (error) {
    assert.ok(error instanceof PlaneCallError, `${method}: ${String(error)}`);
    assert.equal(error.errorName, errorName, `${method}: ${error.message}`);
    return error;
  }
  assert.fail(`${method} was allowed to a client holding only the plane token`);
}

describe('identity abuse: the plane token never acts as the operator, an MCP session never as the operator or as another worktree\'s agent', () => {
  const seed = testSeed();
  const random = new SeededRandom(seed);
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n' });
  // A second worktree of the same repository: the agent there is another agent, with its own hooks.
  const otherWorktree = join(tempHome('fleet-wt-'), 'other');
  let plane: PlaneProcess;
  let operator: PlaneClient;
  let keeper: PlaneClient;
  let keeperClaim: { id: string; fence: number };
  let probe: ReturnType<typeof startBystanderProbe>;
  const sessionFile = (callsign: string) => join(plane.home, 'sessions', `${callsign}.json`);
  const controlState = async () => (await operator.call('fleet_control_get', {})).state;

  before(async () => {
    console.log(`identity-abuse seed ${seed} (replay with FLEET_TEST_SEED=${seed})`);
    execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'other', otherWorktree]);
    plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: TTL_SECONDS } });
    operator = await plane.connectAsOperator();
    // What must survive the abuse: an agent's acknowledged grant.
    keeper = await plane.connect('keeper');
    await keeper.call('fleet_agent_join', { callsign: 'KEEPER', runtime: 'script', worktree: repo });
    const granted = await keeper.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
    assert.equal(granted.granted, true);
    keeperClaim = granted.claims[0]!;
    probe = startBystanderProbe({ port: plane.port }, plane.token);
    await probe.ready;
  });

  after(async () => {
    const answered = await probe.stop();
    console.log(`identity-abuse: the bystander was answered ${answered.count} times, p50 ${answered.p50Ms.toFixed(1)} ms, p95 ${answered.p95Ms.toFixed(1)} ms, slowest ${answered.maxMs.toFixed(1)} ms; seed ${seed}`);
    const claims = (await operator.call('fleet_claims', { holder: 'KEEPER' })).claims;
    keeper.close();
    operator.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(join(otherWorktree, '..'));
    assert.deepEqual(claims.map((c) => [c.id, c.fence]), [[keeperClaim.id, keeperClaim.fence]], 'the acknowledged grant survived the abuse');
    assert.ok(answered.p95Ms <= ANSWER_WITHIN_MS, `the bystander's p95 was ${answered.p95Ms.toFixed(1)} ms (> ${ANSWER_WITHIN_MS} ms); seed ${seed}`);
    assert.ok(answered.maxMs <= OUTLIER_MS, `the bystander waited ${answered.maxMs.toFixed(1)} ms (> ${OUTLIER_MS} ms); seed ${seed}`);
  });

  test('an unjoined plane-token client is refused every operator act (FORBIDDEN), and the state is untouched', async () => {
    await operator.call('fleet_control_set', { state: 'pause', reason: 'identity-abuse' });
    const unjoined = await plane.connect('unjoined');
    const attempts: [MethodName, Record<string, unknown>][] = [
      ['fleet_control_set', { state: 'run', reason: 'resume it myself' }],
      ['fleet_control_set', { state: 'drain' }],
      ['fleet_claim_force_release', { claimIds: [keeperClaim.id], reason: 'mine now' }],
      ['fleet_build_configure', { root: repo, command: 'true' }],
      ['fleet_plane_shutdown', {}],
      ['fleet_digest', { publish: true }],
      ['fleet_agent_join', { callsign: 'MALLORY', runtime: 'script', role: 'operator' }],
    ];
    for (const [method, params] of random.sample(attempts, attempts.length)) await refused(unjoined, method, params, 'FORBIDDEN');
    // The refusal says what the operator presents instead.
    assert.match((await refused(unjoined, 'fleet_plane_shutdown', {}, 'FORBIDDEN')).message, /FLEET_HOME\/operator-token/);
    // It is still an ordinary client: it reads, and a claim transfer needs a joined holder.
    assert.equal((await unjoined.call('fleet_control_get', {})).state, 'pause');
    await refused(unjoined, 'fleet_claim_transfer', { claimIds: [keeperClaim.id], to: 'KEEPER' }, 'NOT_JOINED');
    unjoined.close();
    assert.equal(await controlState(), 'pause');
  });

  test('the operator credential does what the plane token cannot', async () => {
    assert.equal((await operator.call('fleet_control_set', { state: 'run' })).state, 'run');
    const configured = await operator.call('fleet_build_configure', { root: repo, command: 'true' });
    assert.equal(configured.command, 'true');
    const dana = await plane.connectAsOperator('dana');
    const joined = await dana.call('fleet_agent_join', { callsign: 'DANA', runtime: 'terminal', role: 'operator', worktree: repo });
    const throwaway = (await dana.call('fleet_claim_path', { patterns: ['docs/**'], root: repo })).claims[0]!;
    assert.deepEqual((await operator.call('fleet_claim_force_release', { claimIds: [throwaway.id], reason: 'tidy' })).released, [throwaway.id]);
    await dana.call('fleet_agent_leave', {});
    dana.close();
    assert.ok(joined.agentId);
  });

  test('an MCP session cannot resume a paused fleet, nor join or re-join an operator agent', async () => {
    // OPAL is the person's operator agent, joined with `fleet join --role operator`: its token sits in FLEET_HOME/sessions.
    const joined = await runCli(['join', '--callsign', 'OPAL', '--runtime', 'terminal', '--role', 'operator'], { home: plane.home, cwd: repo });
    assert.equal(joined.code, 0, joined.stderr);
    const saved = readFileSync(sessionFile('OPAL'), 'utf8');
    const stolenToken = (JSON.parse(saved) as { sessionToken: string }).sessionToken;
    await operator.call('fleet_control_set', { state: 'pause', reason: 'the model must not release this' });
    const model = await mcpSession(plane, repo);
    try {
      const attempts = [
        { callsign: 'OPAL', runtime: 'claude-code', sessionToken: stolenToken },
        { callsign: 'OPAL', runtime: 'claude-code', sessionToken: stolenToken, role: 'operator' },
        { callsign: 'MODEL-OP', runtime: 'claude-code', role: 'operator' },
      ];
      for (const args of random.sample(attempts, attempts.length)) {
        const outcome = await model.call('fleet_agent_join', args);
        assert.equal(outcome.isError, true, `joined as ${JSON.stringify(args)}: ${outcome.text}`);
        assert.match(outcome.text, /FORBIDDEN/);
      }
      // Still nobody: the re-join did not happen, so its tools act as no one.
      assert.match((await model.call('fleet_control_set', { state: 'run' })).text, /NOT_JOINED/);
      assert.equal((await model.call('fleet_agent_join', { callsign: 'MODEL', runtime: 'claude-code' })).isError, false);
      const resume = await model.call('fleet_control_set', { state: 'run', reason: 'back to work' });
      assert.equal(resume.isError, true);
      assert.match(resume.text, /FORBIDDEN/);
      assert.equal(await controlState(), 'pause');
      const opal = (await operator.call('fleet_roster', {})).agents.find((a) => a.callsign === 'OPAL')!;
      assert.equal(opal.role, 'operator');
      assert.equal(readFileSync(sessionFile('OPAL'), 'utf8'), saved, 'the MCP session left the operator agent\'s session alone');
    } finally {
      await model.close();
    }
  });

  test('the person at the terminal still pauses and resumes with the CLI', async () => {
    const resumed = await runCli(['resume', '--reason', 'after the abuse'], { home: plane.home, cwd: repo });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(await controlState(), 'run');
    assert.equal((await runCli(['pause'], { home: plane.home, cwd: repo })).code, 0);
    assert.equal(await controlState(), 'pause');
    assert.equal((await runCli(['call', 'fleet_control_set', '--json', '{"state":"run"}'], { home: plane.home, cwd: repo })).code, 0);
    assert.equal(await controlState(), 'run');
  });

  test('an MCP session cannot take over another worktree\'s agent, by naming its worktree or with its token', async () => {
    const first = await mcpSession(plane, repo);
    const atlas = await first.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code' });
    assert.equal(atlas.isError, false, atlas.text);
    await first.close(); // ATLAS's session ended; ATLAS stays live on the roster within its TTL.
    const stolenToken = (JSON.parse(readFileSync(sessionFile('ATLAS'), 'utf8')) as { sessionToken: string }).sessionToken;

    const intruder = await mcpSession(plane, otherWorktree);
    try {
      const attempts = [
        { args: { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo }, error: /FORBIDDEN[\s\S]*joins for that worktree only/ },
        { args: { callsign: 'ATLAS', runtime: 'claude-code' }, error: /CALLSIGN_TAKEN/ },
        { args: { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: stolenToken }, error: /FORBIDDEN[\s\S]*continues only an agent registered there/ },
      ];
      for (const { args, error } of random.sample(attempts, attempts.length)) {
        const outcome = await intruder.call('fleet_agent_join', args);
        assert.equal(outcome.isError, true, `took over ATLAS with ${JSON.stringify(args)}`);
        assert.match(outcome.text, error);
      }
    } finally {
      await intruder.close();
    }
    const roster = (await operator.call('fleet_roster', {})).agents.filter((a) => a.callsign === 'ATLAS');
    assert.equal(roster.length, 1);
    assert.equal(roster[0]!.agentId, atlas.result.agentId);
    assert.equal(realpathSync(roster[0]!.worktree!), realpathSync(repo), 'ATLAS is still registered where it was');

    // Where ATLAS was registered, its next session continues it.
    const again = await mcpSession(plane, repo);
    try {
      const continued = await again.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code' });
      assert.equal(continued.isError, false, continued.text);
      assert.equal(continued.result.agentId, atlas.result.agentId);
      assert.equal(continued.result.rejoined, true);
    } finally {
      await again.close();
    }
  });
});
