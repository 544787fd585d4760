// The real Codex CLI (0.169.0, installed by .ci/install-agent-clients.sh) in a repository set up by
// `fleet init`, its model the scripted server (OpenAI Responses, streamed): what the model received is
// what is asserted.
// Pre-written for the headless run (nothing else is added to what `fleet init` wrote):
//   - hook trust as a person grants it in /hooks: `codex app-server` hooks/list, then config/batchWrite
//     of `hooks.state."<key>".trusted_hash` = Codex's currentHash, for fleet's four hooks (trustCodexHooks).
//   - `codex exec --sandbox danger-full-access -c model_provider="scripted" -c model_providers.scripted={
//     name, base_url = <server>/v1, wire_api = "responses" } -c check_for_update_on_startup=false
//     -c analytics.enabled=false -m gpt-5.5 PROMPT` (gpt-5.5: a model Codex knows, so it offers
//     apply_patch and tool_search as in a real session; no bubblewrap sandbox here, the hooks are the gate).
//   - env: HOME and CODEX_HOME in a temp folder, the user's PATH with FLEET_HOME/bin first,
//     HTTPS_PROXY/HTTP_PROXY at the scripted server with NO_PROXY=127.0.0.1,localhost.
// Another agent, THEIRS, works in a linked worktree of the same repository (harness/beside-theirs.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { describeRun, type ClientRun } from './harness/client-run.js';
import { toolCallWaits } from './harness/hook-timing.js';
import { codexEnv, runCodex, searchFleetTools } from './harness/codex.js';
import { isFleetHook, trustCodexHooks, type ListedHook } from './harness/codex-hook-trust.js';
import { checkoutBesideTheirs, THEIRS_TEXT } from './harness/beside-theirs.js';
import type { FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { FLEET_TOOLS, lastAgentRequest, resultOf, resultOfCallNaming, scriptOf } from './harness/model-turn.js';

const { client, skip } = clientOrSkip('codex');

function patch(body: string): string {
  return `*** Begin Patch\n${body}*** End Patch\n`;
}

describe('Codex in a repository set up by fleet init', { skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  let trusted: ListedHook[];

  before(async () => {
    server = await startModelServer();
    checkout = await checkoutBesideTheirs();
    trusted = await trustCodexHooks(client!.bin, checkout.repo, codexEnv(checkout, server));
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('Codex lists fleet init\'s four hooks, and trusts them once trusted as /hooks does', () => {
    const fleets = trusted.filter(isFleetHook);
    assert.deepEqual(fleets.map((hook) => [hook.eventName, hook.matcher, hook.trustStatus]), [
      ['preToolUse', 'Bash|apply_patch|mcp__.*', 'trusted'],
      ['permissionRequest', null, 'trusted'],
      ['postToolUse', 'Bash|mcp__.*', 'trusted'],
      ['sessionStart', null, 'trusted'],
    ]);
  });

  describe('a session that only says hello', () => {
    let run: ClientRun;
    before(async () => {
      server.play(scriptOf([searchFleetTools, { text: 'hello' }]));
      run = await runCodex(client!, checkout, server, 'say hello');
    });

    test('accepts the configuration: the model is asked over the Responses stream', () => {
      const request = lastAgentRequest(server.requests);
      assert.equal(request.path, '/v1/responses', describeRun(run));
      assert.equal((request.body as { stream?: boolean }).stream, true);
      assert.match(run.stdout, /hello/, describeRun(run));
    });

    test('lists every fleet tool, deferred behind tool_search in the mcp__fleet namespace', () => {
      const request = lastAgentRequest(server.requests);
      assert.ok(request.toolNames.includes('tool_search'), `tools: ${request.toolNames.join(', ')}`);
      assert.ok(!request.toolNames.some((name) => name.startsWith('fleet_') || name.startsWith('mcp__fleet')), 'not in `tools` up front');
      const found = resultOf(request, 'tool_search');
      assert.ok(found?.text.includes('"name":"mcp__fleet"'), describeRun(run));
      for (const tool of FLEET_TOOLS) assert.ok(found!.text.includes(`"name":"${tool}"`), `tool_search finds ${tool}`);
    });

    test('SessionStart\'s additionalContext reaches the model: no identity here, so how to join', () => {
      const request = lastAgentRequest(server.requests);
      assert.match(request.text, /You are not on the fleet roster yet/, describeRun(run));
      assert.ok(request.text.includes(`runtime \\"codex\\" and worktree \\"${checkout.repo}\\"`), 'it names the runtime and the worktree');
    });
  });

  describe('a session that joins as MINE through the fleet MCP tool, then writes', () => {
    let run: ClientRun;
    before(async () => {
      server.play(
        scriptOf([
          searchFleetTools,
          { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign: 'MINE', runtime: 'codex' } }] },
          { calls: [{ name: 'mcp__fleet__fleet_claim_path', input: { patterns: ['src/mine.ts'] } }] },
          { calls: [{ name: 'apply_patch', input: patch('*** Update File: src/theirs.ts\n@@\n-export const theirs = 1;\n+export const theirs = 2;\n') }] },
          { calls: [{ name: 'exec_command', input: { cmd: 'echo overwritten > src/theirs.ts' } }] },
          { calls: [{ name: 'apply_patch', input: patch('*** Update File: src/mine.ts\n@@\n-export const mine = 0;\n+export const mine = 1;\n') }] },
          { calls: [{ name: 'exec_command', input: { cmd: 'node scripts/regenerate.mjs' } }] },
          { text: 'done' },
        ]),
      );
      run = await runCodex(client!, checkout, server, 'join the fleet as MINE and work on src/mine.ts');
    });

    test('fleet_agent_join through the real bridge joins MINE; its claim is granted', () => {
      const request = lastAgentRequest(server.requests);
      const joined = resultOf(request, 'mcp__fleet__fleet_agent_join');
      assert.match(joined?.text ?? '', /"callsign":"MINE"/, describeRun(run));
      assert.match(resultOf(request, 'mcp__fleet__fleet_claim_path')?.text ?? '', /"granted":true/);
    });

    test('PreToolUse refuses an apply_patch into THEIRS\'s claim: the model reads why, the file is unchanged', () => {
      const refused = resultOfCallNaming(lastAgentRequest(server.requests), 'apply_patch', 'src/theirs.ts');
      assert.match(refused?.text ?? '', /blocked by PreToolUse hook/, describeRun(run));
      assert.match(refused!.text, /src\/theirs\.ts: held exclusively by THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
    });

    test('PreToolUse refuses a shell write into THEIRS\'s claim: the model reads why, the file is unchanged', () => {
      const refused = resultOfCallNaming(lastAgentRequest(server.requests), 'exec_command', 'src/theirs.ts');
      assert.match(refused?.text ?? '', /blocked by PreToolUse hook/, describeRun(run));
      assert.match(refused!.text, /src\/theirs\.ts/);
      assert.match(refused!.text, /THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
    });

    test('PostToolUse: a script that wrote into THEIRS\'s claim by a computed path is reported to the model, nothing reverted', () => {
      const shell = resultOfCallNaming(lastAgentRequest(server.requests), 'exec_command', 'regenerate.mjs');
      assert.match(shell?.text ?? '', /src\/theirs-too\.ts/, shell?.text);
      assert.match(shell!.text, /THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs-too.ts'), 'utf8'), 'changed by a script\n');
    });

    test('the hook-timing building block sees each call\'s round trip through the client', (t) => {
      const waits = toolCallWaits(server.requests).filter((wait) => wait.name !== 'tool_search');
      assert.deepEqual(waits.slice(-6).map((wait) => wait.name), ['mcp__fleet__fleet_agent_join', 'mcp__fleet__fleet_claim_path', 'apply_patch', 'exec_command', 'apply_patch', 'exec_command']);
      for (const wait of waits) assert.ok(wait.ms >= 0 && wait.ms < 90_000, `${wait.name}: ${wait.ms} ms`);
      t.diagnostic(waits.map((wait) => `${wait.name} ${wait.ms} ms`).join(', '));
    });

    test('an apply_patch inside MINE\'s own claim happens', () => {
      const applied = resultOfCallNaming(lastAgentRequest(server.requests), 'apply_patch', 'src/mine.ts');
      assert.doesNotMatch(applied?.text ?? '', /blocked/, applied?.text);
      assert.equal(readFileSync(join(checkout.repo, 'src/mine.ts'), 'utf8'), 'export const mine = 1;\n');
    });
  });
});
