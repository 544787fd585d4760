// DESIGN §11 (identity) through the real clients: a session is never bound to a live agent it did not
// join as. THEIRS (`fleet join --runtime script`, run in the checkout itself) holds src/theirs.ts; a
// fresh Claude Code or Codex session in the same checkout never joins. Its writes into THEIRS's file
// must be refused, and a Claude Code session that only says hello must not escrow THEIRS's claims.
// EXPECTED TO FAIL on main as of 0aec80a (issue 22): SessionStart binds the session to the worktree's
// agent, THEIRS, so the writes go through and SessionEnd escrows THEIRS's claims.
// Pre-written for the headless runs: as in claude-code.test.ts and codex.test.ts (see their headers).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventsOf } from '../integration/agents/support.js';
import { runClaude } from './harness/claude-code.js';
import { describeRun } from './harness/client-run.js';
import { codexEnv, runCodex } from './harness/codex.js';
import { trustCodexHooks } from './harness/codex-hook-trust.js';
import { fleetCheckout, type FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { lastAgentRequest, scriptOf } from './harness/model-turn.js';

const THEIRS_TEXT = 'export const theirs = 1;\n';
const claude = clientOrSkip('claude-code');
const codex = clientOrSkip('codex');

/** A checkout where THEIRS joined from the checkout itself and claimed src/theirs.ts. */
async function checkoutWithTheirs(): Promise<FleetCheckout> {
  const checkout = await fleetCheckout({ 'src/theirs.ts': THEIRS_TEXT, 'README.md': '# repo\n' });
  await checkout.scriptAgentClaims('THEIRS', checkout.repo, ['src/theirs.ts']);
  return checkout;
}

describe('a Claude Code session that never joins, beside THEIRS in the same checkout', { skip: claude.skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  before(async () => {
    server = await startModelServer();
    checkout = await checkoutWithTheirs();
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('saying hello and ending escrows none of THEIRS\'s claims', async () => {
    server.play(scriptOf([{ text: 'hello' }]));
    const run = await runClaude(claude.client!, checkout, server, 'say hello');
    assert.ok(server.requests.some((request) => request.main), describeRun(run));
    const escrowed = (await eventsOf(checkout.fleetHome)).filter((event) => event.type === 'claim.escrowed');
    assert.deepEqual(escrowed, [], 'a session that was never THEIRS took THEIRS\'s claims out of use');
  });

  test('its Write into THEIRS\'s file is refused, and the file is unchanged', async () => {
    server.play(scriptOf([{ calls: [{ name: 'Write', input: { file_path: join(checkout.repo, 'src/theirs.ts'), content: 'not yours\n' } }] }, { text: 'done' }]));
    const run = await runClaude(claude.client!, checkout, server, 'edit src/theirs.ts');
    const write = lastAgentRequest(server.requests).results.find((result) => result.name === 'Write');
    assert.equal(write?.isError, true, `the model was told: ${write?.text}\n${describeRun(run)}`);
    assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
  });
});

describe('a Codex session that never joins, beside THEIRS in the same checkout', { skip: codex.skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  before(async () => {
    server = await startModelServer();
    checkout = await checkoutWithTheirs();
    await trustCodexHooks(codex.client!.bin, checkout.repo, codexEnv(checkout, server));
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('its apply_patch into THEIRS\'s file is refused, and the file is unchanged', async () => {
    const patch = '*** Begin Patch\n*** Update File: src/theirs.ts\n@@\n-export const theirs = 1;\n+export const theirs = 2;\n*** End Patch\n';
    server.play(scriptOf([{ calls: [{ name: 'apply_patch', input: patch }] }, { text: 'done' }]));
    const run = await runCodex(codex.client!, checkout, server, 'edit src/theirs.ts');
    const applied = lastAgentRequest(server.requests).results.find((result) => result.name === 'apply_patch');
    assert.match(applied?.text ?? '', /blocked by PreToolUse hook/, `the model was told: ${applied?.text}\n${describeRun(run)}`);
    assert.equal(readFileSync(join(checkout.repo, 'src/theirs.ts'), 'utf8'), THEIRS_TEXT);
  });
});
