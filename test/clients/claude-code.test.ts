// The real Claude Code CLI (2.1.328, installed by .ci/install-agent-clients.sh) in a repository set up
// by `fleet init`, its model the scripted server: what the model received is what is asserted.
// Pre-written for the headless run (nothing else is added to what `fleet init` wrote):
//   - `claude -p PROMPT --output-format json --allowedTools Write Edit Bash mcp__fleet`: the allow-list a
//     person grants at the permission prompts (-p has none); fleet's PreToolUse hook decides first.
//   - env: HOME and the user's PATH with FLEET_HOME/bin first (as `fleet init` asks), ANTHROPIC_BASE_URL
//     (the scripted server), ANTHROPIC_API_KEY (dummy), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1,
//     DISABLE_AUTOUPDATER=1, DISABLE_TELEMETRY=1, DISABLE_ERROR_REPORTING=1, HTTPS_PROXY/HTTP_PROXY at
//     the scripted server with NO_PROXY=127.0.0.1,localhost (anything past loopback is recorded and refused).
//   - Not needed: project MCP approval (-p starts .mcp.json's servers), IS_SANDBOX (no --dangerously-skip-permissions).
// Another agent, THEIRS, works in a linked worktree of the same repository (joined with `fleet join
// --runtime script`, claims by `fleet claim --as THEIRS`): the session never shares its worktree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventsOf } from '../integration/agents/support.js';
import { runClaude } from './harness/claude-code.js';
import { describeRun, type ClientRun } from './harness/client-run.js';
import { toolCallWaits } from './harness/hook-timing.js';
import { checkoutBesideTheirs, THEIRS_TEXT } from './harness/beside-theirs.js';
import type { FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { FLEET_TOOLS, lastAgentRequest, readAfterResult, resultOf, resultOfCallNaming, scriptOf } from './harness/model-turn.js';

const { client, skip } = clientOrSkip('claude-code');

describe('Claude Code in a repository set up by fleet init', { skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;

  before(async () => {
    server = await startModelServer();
    checkout = await checkoutBesideTheirs();
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  describe('a session that only says hello', () => {
    let run: ClientRun;
    before(async () => {
      server.play(scriptOf([{ text: 'hello' }]));
      run = await runClaude(client!, checkout, server, 'say hello');
    });

    test('accepts the configuration: the model is asked, over the Messages stream, and nothing leaves loopback', () => {
      const request = lastAgentRequest(server.requests);
      assert.equal(request.path, '/v1/messages', describeRun(run));
      assert.equal((request.body as { stream?: boolean }).stream, true);
      assert.match(run.stdout, /"result":"hello"/, describeRun(run));
      assert.deepEqual(server.escapes, [], 'no request past loopback');
    });

    test('offers every fleet tool, deferred behind ToolSearch: named to the model, schemas loaded on request', () => {
      const request = lastAgentRequest(server.requests);
      assert.ok(request.toolNames.includes('ToolSearch'), `tools: ${request.toolNames.join(', ')}`);
      assert.ok(!request.toolNames.some((name) => name.startsWith('mcp__fleet__')), 'the fleet tools are deferred, not in `tools`');
      for (const tool of FLEET_TOOLS) assert.ok(request.text.includes(`mcp__fleet__${tool}`), `the deferred-tools list names mcp__fleet__${tool}`);
    });

    test('SessionStart\'s additionalContext reaches the model: no identity here, so how to join', () => {
      const request = lastAgentRequest(server.requests);
      assert.match(request.text, /SessionStart hook additional context: You are not on the fleet roster yet/);
      assert.ok(request.text.includes(`fleet_agent_join with the callsign the operator gave you, runtime \\"claude-code\\" and worktree \\"${checkout.repo}\\"`), 'it names the worktree to join');
    });
  });

  describe('a session that joins as MINE through the fleet MCP tool, then writes', () => {
    let run: ClientRun;
    before(async () => {
      const repo = checkout.repo;
      server.play(
        scriptOf([
          { calls: [{ name: 'ToolSearch', input: { query: 'select:mcp__fleet__fleet_agent_join,mcp__fleet__fleet_claim_path', max_results: 5 } }] },
          { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign: 'MINE', runtime: 'claude-code' } }] },
          { calls: [{ name: 'mcp__fleet__fleet_claim_path', input: { patterns: ['src/mine.ts'] } }] },
          { calls: [{ name: 'Write', input: { file_path: join(repo, 'src/theirs.ts'), content: 'overwritten by MINE\n' } }] },
          { calls: [{ name: 'Read', input: { file_path: join(repo, 'src/theirs.ts') } }] },
          { calls: [{ name: 'Edit', input: { file_path: join(repo, 'src/theirs.ts'), old_string: 'theirs = 1', new_string: 'theirs = 2' } }] },
          { calls: [{ name: 'Bash', input: { command: 'echo overwritten > src/theirs.ts', description: 'overwrite theirs' } }] },
          { calls: [{ name: 'Write', input: { file_path: join(repo, 'src/mine.ts'), content: 'export const mine = 1;\n' } }] },
          { calls: [{ name: 'Bash', input: { command: 'node scripts/regenerate.mjs', description: 'regenerate' } }] },
          { text: 'done' },
        ]),
      );
      run = await runClaude(client!, checkout, server, 'join the fleet as MINE and work on src/mine.ts');
    });

    test('ToolSearch loads the fleet tools, and fleet_agent_join through the real bridge joins MINE', () => {
      const request = lastAgentRequest(server.requests);
      assert.match(resultOf(request, 'ToolSearch')?.text ?? '', /"tool_name":"mcp__fleet__fleet_agent_join"/, describeRun(run));
      assert.ok(request.toolNames.includes('mcp__fleet__fleet_agent_join'), 'the loaded schema is offered from then on');
      const joined = resultOf(request, 'mcp__fleet__fleet_agent_join');
      assert.equal(joined?.isError, false, joined?.text);
      assert.match(joined!.text, /"callsign":"MINE"/);
      assert.match(resultOf(request, 'mcp__fleet__fleet_claim_path')?.text ?? '', /"granted":true/);
    });

    test('PreToolUse refuses a Write into THEIRS\'s claim: the model reads why, the file is unchanged', () => {
      const write = resultOfCallNaming(lastAgentRequest(server.requests), 'Write', 'src/theirs.ts');
      assert.ok(write, 'the Write on src/theirs.ts came back');
      assert.equal(write.isError, true, write.text);
      assert.match(write.text, /src\/theirs\.ts: held exclusively by THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
    });

    test('PreToolUse refuses an Edit of THEIRS\'s file (after a Read, which passes): the model reads why, the file is unchanged', () => {
      const request = lastAgentRequest(server.requests);
      assert.equal(resultOfCallNaming(request, 'Read', 'src/theirs.ts')?.isError, false);
      const edit = resultOfCallNaming(request, 'Edit', 'src/theirs.ts');
      assert.equal(edit?.isError, true, edit?.text);
      assert.match(edit!.text, /src\/theirs\.ts: held exclusively by THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
    });

    test('PreToolUse refuses a Bash write into THEIRS\'s claim: the model reads why, the file is unchanged', () => {
      const bash = resultOfCallNaming(lastAgentRequest(server.requests), 'Bash', 'src/theirs.ts');
      assert.equal(bash?.isError, true, bash?.text);
      assert.match(bash!.text, /src\/theirs\.ts/);
      assert.match(bash!.text, /THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
    });

    test('a Write inside MINE\'s own claim happens', () => {
      const write = resultOfCallNaming(lastAgentRequest(server.requests), 'Write', 'src/mine.ts');
      assert.equal(write?.isError, false, write?.text);
      assert.equal(readFileSync(join(checkout.repo, 'src/mine.ts'), 'utf8'), 'export const mine = 1;\n');
    });

    test('PostToolUse: a script that wrote into THEIRS\'s claim by a computed path is reported to the model after the result, nothing reverted', () => {
      const request = lastAgentRequest(server.requests);
      const bash = resultOfCallNaming(request, 'Bash', 'regenerate.mjs');
      assert.ok(bash, 'the script\'s Bash call came back');
      const read = readAfterResult(request, bash);
      assert.match(read, /PostToolUse:Bash hook blocking error/, read);
      assert.match(read, /src\/theirs-too\.ts: held by THEIRS/);
      assert.equal(readFileSync(join(checkout.repo, 'src/theirs-too.ts'), 'utf8'), 'changed by a script\n');
    });

    test('the hook-timing building block sees each call\'s round trip through the client', (t) => {
      const waits = toolCallWaits(server.requests).filter((wait) => wait.name !== 'tool_search');
      assert.deepEqual(waits.slice(-9).map((wait) => wait.name), ['ToolSearch', 'mcp__fleet__fleet_agent_join', 'mcp__fleet__fleet_claim_path', 'Write', 'Read', 'Edit', 'Bash', 'Write', 'Bash']);
      for (const wait of waits) assert.ok(wait.ms >= 0 && wait.ms < 90_000, `${wait.name}: ${wait.ms} ms`);
      t.diagnostic(waits.map((wait) => `${wait.name} ${wait.ms} ms`).join(', '));
    });

    test('SessionEnd escrows MINE\'s claims for its next session, and only MINE\'s', async () => {
      const escrowed = (await eventsOf(checkout.fleetHome)).filter((event) => event.type === 'claim.escrowed');
      assert.ok(escrowed.length > 0, `no claim.escrowed event after the session ended:\n${describeRun(run)}`);
      assert.deepEqual([...new Set(escrowed.map((event) => event.by))], ['MINE']);
      const inbox = await checkout.fleet('inbox', '--as', 'MINE', '--json');
      assert.match(inbox.stdout, /claims held in escrow for MINE's next session/, `fleet inbox exited ${inbox.code}: ${inbox.stderr}`);
    });
  });
});
