// Several sessions in one checkout (docs/runtimes.md, "Session identity"): ALPHA and BRAVO both
// joined from the checkout itself (`fleet join --runtime script`), each holding a file. A session
// started with FLEET_AS=<its callsign> is re-attached by SessionStart (its claims in the context the
// model reads, zero tool calls), writes its own file and is refused the other's.
// Pre-written for the headless runs: as in claude-code.test.ts and codex.test.ts (see their headers),
// plus FLEET_AS in the client's environment, as the docs tell the person to start each session.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventsOf } from '../integration/agents/support.js';
import { runClaude } from './harness/claude-code.js';
import { describeRun, type ClientRun } from './harness/client-run.js';
import { codexEnv, runCodex } from './harness/codex.js';
import { trustCodexHooks } from './harness/codex-hook-trust.js';
import { fleetCheckout, type FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { lastAgentRequest, resultOfCallNaming, scriptOf, type ModelRequest } from './harness/model-turn.js';

const claude = clientOrSkip('claude-code');
const codex = clientOrSkip('codex');
const ALPHA_TEXT = 'export const alpha = 0;\n';
const BRAVO_TEXT = 'export const bravo = 0;\n';

describe('two agents in one checkout, each session started with FLEET_AS', { skip: claude.skip && codex.skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  before(async () => {
    server = await startModelServer();
    checkout = await fleetCheckout({ 'src/alpha.ts': ALPHA_TEXT, 'src/bravo.ts': BRAVO_TEXT });
    await checkout.scriptAgentClaims('ALPHA', checkout.repo, ['src/alpha.ts']);
    await checkout.scriptAgentClaims('BRAVO', checkout.repo, ['src/bravo.ts']);
    if (!codex.skip) await trustCodexHooks(codex.client!.bin, checkout.repo, codexEnv(checkout, server));
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  describe('Claude Code as ALPHA', { skip: claude.skip }, () => {
    let run: ClientRun;
    let request: ModelRequest;
    before(async () => {
      server.play(
        scriptOf([
          { calls: [{ name: 'Write', input: { file_path: join(checkout.repo, 'src/bravo.ts'), content: 'by ALPHA\n' } }] },
          { calls: [{ name: 'Write', input: { file_path: join(checkout.repo, 'src/alpha.ts'), content: 'export const alpha = 1;\n' } }] },
          { text: 'done' },
        ]),
      );
      run = await runClaude(claude.client!, checkout, server, 'continue', { env: { FLEET_AS: 'ALPHA' } });
      request = lastAgentRequest(server.requests);
    });

    test('SessionStart re-attaches ALPHA: the model reads its claim without a tool call', () => {
      assert.match(request.text, /SessionStart hook additional context: You are ALPHA in the fleet \(re-attached by the SessionStart hook[^"]*Claims you hold:\\n- src\/alpha\.ts \(exclusive/, describeRun(run));
    });

    test('its Write into BRAVO\'s file is refused, naming BRAVO; the file is unchanged', () => {
      const refused = resultOfCallNaming(request, 'Write', 'src/bravo.ts');
      assert.equal(refused?.isError, true, refused?.text);
      assert.match(refused!.text, /held exclusively by BRAVO/);
      assert.equal(readFileSync(join(checkout.repo, 'src/bravo.ts'), 'utf8'), BRAVO_TEXT);
    });

    test('its Write into ALPHA\'s own file happens', () => {
      assert.equal(resultOfCallNaming(request, 'Write', 'src/alpha.ts')?.isError, false);
      assert.equal(readFileSync(join(checkout.repo, 'src/alpha.ts'), 'utf8'), 'export const alpha = 1;\n');
    });

    test('SessionEnd escrows ALPHA\'s claims, never BRAVO\'s', async () => {
      const escrowed = (await eventsOf(checkout.fleetHome)).filter((event) => event.type === 'claim.escrowed');
      assert.deepEqual([...new Set(escrowed.map((event) => event.by))], ['ALPHA'], describeRun(run));
    });
  });

  describe('Codex as BRAVO', { skip: codex.skip }, () => {
    let run: ClientRun;
    let request: ModelRequest;
    before(async () => {
      const patch = (file: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-${from}+${to}*** End Patch\n`;
      server.play(
        scriptOf([
          { calls: [{ name: 'apply_patch', input: patch('src/alpha.ts', readFileSync(join(checkout.repo, 'src/alpha.ts'), 'utf8'), 'by BRAVO\n') }] },
          { calls: [{ name: 'apply_patch', input: patch('src/bravo.ts', BRAVO_TEXT, 'export const bravo = 1;\n') }] },
          { text: 'done' },
        ]),
      );
      run = await runCodex(codex.client!, checkout, server, 'continue', { env: { FLEET_AS: 'BRAVO' } });
      request = lastAgentRequest(server.requests);
    });

    test('SessionStart re-attaches BRAVO: the model reads its claim without a tool call', () => {
      assert.match(request.text, /"role":"developer","content":\[\{"type":"input_text","text":"You are BRAVO in the fleet \(re-attached by the SessionStart hook[^"]*Claims you hold:\\n- src\/bravo\.ts \(exclusive/, describeRun(run));
    });

    test('its apply_patch into ALPHA\'s file is refused, naming ALPHA; the file is unchanged', () => {
      const refused = resultOfCallNaming(request, 'apply_patch', 'src/alpha.ts');
      assert.match(refused?.text ?? '', /blocked by PreToolUse hook/, refused?.text);
      assert.match(refused!.text, /held exclusively by ALPHA/);
      assert.doesNotMatch(readFileSync(join(checkout.repo, 'src/alpha.ts'), 'utf8'), /by BRAVO/);
    });

    test('its apply_patch into BRAVO\'s own file happens', () => {
      assert.doesNotMatch(resultOfCallNaming(request, 'apply_patch', 'src/bravo.ts')?.text ?? 'missing', /blocked/);
      assert.equal(readFileSync(join(checkout.repo, 'src/bravo.ts'), 'utf8'), 'export const bravo = 1;\n');
    });
  });
});
