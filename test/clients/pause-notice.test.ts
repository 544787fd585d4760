// What the model reads after `fleet pause` (seed 000, decision D3): the fleet tools' results say
// "FLEET IS PAUSED …" in plain words — inside what the clients forward. Both clients forward only a
// result's structuredContent when it has one (DESIGN §15), so the notice must be inside it.
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

describe('after fleet pause, a fleet tool\'s result as the model receives it', { skip: claude.skip && codex.skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  before(async () => {
    server = await startModelServer();
    checkout = await fleetCheckout({ 'src/a.ts': 'export const a = 1;\n' });
    const paused = await checkout.fleet('pause', '--reason', 'release freeze');
    assert.equal(paused.code, 0, paused.stderr);
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('through Claude Code: fleet_agent_join\'s result says FLEET IS PAUSED', { skip: claude.skip }, async () => {
    server.play(
      scriptOf([
        { calls: [{ name: 'ToolSearch', input: { query: 'select:mcp__fleet__fleet_agent_join', max_results: 1 } }] },
        { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign: 'PAWS', runtime: 'claude-code' } }] },
        { text: 'done' },
      ]),
    );
    const run = await runClaude(claude.client!, checkout, server, 'join the fleet as PAWS');
    const joined = resultOf(lastAgentRequest(server.requests), 'mcp__fleet__fleet_agent_join');
    assert.match(joined?.text ?? '', /"state":"pause"/, `the join came back: ${joined?.text}\n${describeRun(run)}`);
    assert.match(joined!.text, /FLEET IS PAUSED/);
  });

  test('through Codex: fleet_agent_join\'s result says FLEET IS PAUSED', { skip: codex.skip }, async () => {
    await trustCodexHooks(codex.client!.bin, checkout.repo, codexEnv(checkout, server));
    server.play(scriptOf([searchFleetTools, { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign: 'CLAWS', runtime: 'codex' } }] }, { text: 'done' }]));
    const run = await runCodex(codex.client!, checkout, server, 'join the fleet as CLAWS');
    const joined = resultOf(lastAgentRequest(server.requests), 'mcp__fleet__fleet_agent_join');
    assert.match(joined?.text ?? '', /"state":"pause"/, `the join came back: ${joined?.text}\n${describeRun(run)}`);
    assert.match(joined!.text, /FLEET IS PAUSED/);
  });
});
