// Issue 22 item 4: `fleet init` keeps what it did not write. Codex keeps the trust a person gives
// fleet's hooks (/hooks) as `[hooks.state."…"] trusted_hash` tables in $CODEX_HOME/config.toml — and
// appends them where fleet's marked block ends. Running `fleet init` again must leave them: Codex skips
// an untrusted hook without a word, so a dropped trust turns the Codex gate off.
// Failed on main as of 0aec80a: the second `fleet init` rewrote its block and the trust with it.
// Pre-written for the headless run: as in codex.test.ts (see its header).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { describeRun } from './harness/client-run.js';
import { codexEnv, runCodex } from './harness/codex.js';
import { isFleetHook, listCodexHooks, trustCodexHooks } from './harness/codex-hook-trust.js';
import { fleetCheckout, type FleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { lastAgentRequest, scriptOf } from './harness/model-turn.js';

const { client, skip } = clientOrSkip('codex');
const A_TEXT = 'export const a = 1;\n';

describe('fleet init run again after the person trusted fleet\'s Codex hooks', { skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  let fleetReportedTrust: [string, string];
  let codexListedTrust: [string, string];
  /** Each fleet hook's key and trust, as `fleet status --json` reports them (fleet computes Codex's hash itself). */
  const fleetTrust = async () => {
    const status = await checkout.fleet('status', '--json');
    const report = (JSON.parse(status.stdout) as { codexHooks: { hooks: { key: string; trust: string }[] } }).codexHooks;
    return report.hooks.map((hook) => `${hook.key}=${hook.trust}`).sort().join('\n');
  };
  /** The same, as Codex itself lists them. */
  const codexTrust = async () =>
    (await listCodexHooks(client!.bin, checkout.repo, codexEnv(checkout, server))).filter(isFleetHook).map((hook) => `${hook.key}=${hook.trustStatus}`).sort().join('\n');
  before(async () => {
    server = await startModelServer();
    checkout = await fleetCheckout({ 'src/a.ts': A_TEXT });
    // An unjoined session writes as a person (DESIGN §11): the file it edits is another agent's.
    await checkout.scriptAgentClaims('THEIRS', checkout.linkedWorktree('theirs'), ['src/a.ts']);
    fleetReportedTrust = [await fleetTrust(), ''];
    codexListedTrust = [await codexTrust(), ''];
    const trusted = await trustCodexHooks(client!.bin, checkout.repo, codexEnv(checkout, server));
    fleetReportedTrust[1] = await fleetTrust();
    codexListedTrust[1] = await codexTrust();
    assert.deepEqual(trusted.filter(isFleetHook).map((hook) => hook.trustStatus), ['trusted', 'trusted', 'trusted', 'trusted']);
    const again = await checkout.fleet('init');
    assert.equal(again.code, 0, again.stderr);
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('fleet status says what Codex says of its hooks: untrusted after init, trusted once trusted in Codex (the same keys, the same hash)', () => {
    assert.deepEqual(fleetReportedTrust, codexListedTrust);
    assert.match(codexListedTrust[0], /=untrusted/);
    assert.doesNotMatch(codexListedTrust[1], /=(untrusted|modified)/);
  });

  test('Codex still lists the four hooks as trusted', async () => {
    const hooks = (await listCodexHooks(client!.bin, checkout.repo, codexEnv(checkout, server))).filter(isFleetHook);
    assert.deepEqual(hooks.map((hook) => [hook.eventName, hook.trustStatus]), [
      ['preToolUse', 'trusted'],
      ['permissionRequest', 'trusted'],
      ['postToolUse', 'trusted'],
      ['sessionStart', 'trusted'],
    ], readFileSync(join(checkout.codexHome, 'config.toml'), 'utf8'));
  });

  test('the gate still runs: an unjoined session\'s apply_patch is refused, the file unchanged', async () => {
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch\n';
    server.play(scriptOf([{ calls: [{ name: 'apply_patch', input: patch }] }, { text: 'done' }]));
    const run = await runCodex(client!, checkout, server, 'edit src/a.ts');
    const applied = lastAgentRequest(server.requests).results.find((result) => result.name === 'apply_patch');
    assert.match(applied?.text ?? '', /blocked by PreToolUse hook/, `the model was told: ${applied?.text}\n${describeRun(run)}`);
    assert.equal(readFileSync(join(checkout.repo, 'src/a.ts'), 'utf8'), A_TEXT);
  });
});
