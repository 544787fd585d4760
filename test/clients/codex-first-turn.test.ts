// Issue 22 item 5: `fleet mcp` answers tools/list fast enough that Codex's first turn sees the fleet's
// tools. Codex sends its first model request without waiting for MCP servers; a server's tools join
// the deferred set (announced as "Added deferred tool namespaces: - mcp__fleet") from the request
// after its tools/list answer. The first request must already have them.
// EXPECTED TO FAIL on main as of 0aec80a: the first request has no mcp__fleet; they arrive later.
// Pre-written for the headless run: as in codex.test.ts (see its header).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { describeRun, type ClientRun } from './harness/client-run.js';
import { codexEnv, runCodex, searchFleetTools } from './harness/codex.js';
import { trustCodexHooks } from './harness/codex-hook-trust.js';
import { fleetCheckout, type FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { scriptOf } from './harness/model-turn.js';

const { client, skip } = clientOrSkip('codex');

describe('Codex\'s first model request', { skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  let run: ClientRun;
  before(async () => {
    server = await startModelServer();
    checkout = await fleetCheckout({ 'src/a.ts': 'export const a = 1;\n' });
    await trustCodexHooks(client!.bin, checkout.repo, codexEnv(checkout, server));
    server.play(scriptOf([searchFleetTools, { text: 'hello' }]));
    run = await runCodex(client!, checkout, server, 'say hello');
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('already offers the fleet tools (the mcp__fleet namespace)', (t) => {
    const agent = server.requests.filter((request) => request.main);
    const first = agent[0];
    assert.ok(first, describeRun(run));
    const announced = agent.find((request) => request.text.includes('mcp__fleet'));
    t.diagnostic(`spawn → first model request ${first.receivedAt - run.startedAt} ms; spawn → first request naming mcp__fleet ${announced ? `${announced.receivedAt - run.startedAt} ms (request ${agent.indexOf(announced) + 1})` : 'never'}`);
    assert.ok(first.text.includes('mcp__fleet'), `the first request (${first.receivedAt - run.startedAt} ms after spawn) names no mcp__fleet tool; they came with request ${announced ? agent.indexOf(announced) + 1 : 'none'}`);
  });
});
