// What the model reads after `fleet pause`, `fleet drain` and `fleet stop` (seed 000, decision D3): the
// fleet tools' results say "FLEET IS PAUSED|DRAINING|STOPPING …" in plain words — inside what the
// clients forward. Both clients forward only a result's structuredContent when it has one (DESIGN §15),
// so the notice must be inside it.
// EXPECTED TO FAIL on main as of 0aec80a (issue 22): the sentence is in `content` only; the model sees
// {"control":{"state":"pause",…}} and no words.
// Pre-written for the headless runs: as in claude-code.test.ts and codex.test.ts (see their headers).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runClaude } from './harness/claude-code.js';
import { describeRun } from './harness/client-run.js';
import { codexEnv, runCodex, searchFleetTools } from './harness/codex.js';
import { trustCodexHooks } from './harness/codex-hook-trust.js';
import { fleetCheckout, type FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { lastAgentRequest, resultOf, scriptOf } from './harness/model-turn.js';

const claude = clientOrSkip('claude-code');
const codex = clientOrSkip('codex');
const SWITCHES = [
  { verb: 'pause', state: 'pause', words: 'FLEET IS PAUSED' },
  { verb: 'drain', state: 'drain', words: 'FLEET IS DRAINING' },
  { verb: 'stop', state: 'stop', words: 'FLEET IS STOPPING' },
];

describe('after the operator flips the fleet switch, a fleet tool\'s result as the model receives it', { skip: claude.skip && codex.skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  before(async () => {
    server = await startModelServer();
    checkout = await fleetCheckout({ 'src/a.ts': 'export const a = 1;\n' });
    if (!codex.skip) await trustCodexHooks(codex.client!.bin, checkout.repo, codexEnv(checkout, server));
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  /** Sets the switch (from run) and returns fleet_agent_join's result as the model got it. */
  async function flipAndJoin(verb: string, join: () => Promise<string>): Promise<string> {
    for (const args of [['resume'], [verb, '--reason', 'release freeze']]) {
      const done = await checkout.fleet(...args);
      assert.equal(done.code, 0, `fleet ${args.join(' ')}: ${done.stderr}`);
    }
    return join();
  }

  for (const { verb, state, words } of SWITCHES) {
    test(`fleet ${verb}, through Claude Code: fleet_agent_join's result says ${words}`, { skip: claude.skip }, async () => {
      const callsign = `CC${verb.toUpperCase()}`;
      const text = await flipAndJoin(verb, async () => {
        server.play(scriptOf([{ calls: [{ name: 'ToolSearch', input: { query: 'select:mcp__fleet__fleet_agent_join', max_results: 1 } }] }, { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign, runtime: 'claude-code' } }] }, { text: 'done' }]));
        const run = await runClaude(claude.client!, checkout, server, `join the fleet as ${callsign}`);
        return resultOf(lastAgentRequest(server.requests), 'mcp__fleet__fleet_agent_join')?.text ?? `no join result:\n${describeRun(run)}`;
      });
      assert.match(text, new RegExp(`"state":"${state}"`), text);
      assert.ok(text.includes(words), `the model read: ${text}`);
    });

    test(`fleet ${verb}, through Codex: fleet_agent_join's result says ${words}`, { skip: codex.skip }, async () => {
      const callsign = `CX${verb.toUpperCase()}`;
      const text = await flipAndJoin(verb, async () => {
        server.play(scriptOf([searchFleetTools, { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign, runtime: 'codex' } }] }, { text: 'done' }]));
        const run = await runCodex(codex.client!, checkout, server, `join the fleet as ${callsign}`);
        return resultOf(lastAgentRequest(server.requests), 'mcp__fleet__fleet_agent_join')?.text ?? `no join result:\n${describeRun(run)}`;
      });
      assert.match(text, new RegExp(`"state":"${state}"`), text);
      assert.ok(text.includes(words), `the model read: ${text}`);
    });
  }
});
