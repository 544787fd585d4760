import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { ledgerSchema } from '../../../contracts/index.js';
import { LedgerWriter } from '../../../server/plane/persistence/ledger-writer.js';
import { claimNow, joinAgent, makeHarness, OTHER_SCOPE, SCOPE, type Harness } from '../../support/core-harness.js';
import { withTempDir } from '../../support/store-fixtures.js';

/** Writes ledger.json for the harness's state and reads it back through the ledger schema. */
async function ledgerOf(h: Harness, dir: string) {
  const path = join(dir, 'ledger.json');
  const errors: Error[] = [];
  await new LedgerWriter(h.core, path, (error) => errors.push(error)).write();
  assert.deepEqual(errors, []);
  assert.deepEqual(await readdir(dir), ['ledger.json'], 'no temp file is left behind');
  return ledgerSchema.parse(JSON.parse(await readFile(path, 'utf8')));
}

/** ownership as scope → pattern → "HOLDER mode" strings, order-free. */
const holders = (ownership: Record<string, Record<string, { holder: string; mode: string }[]>>) =>
  Object.fromEntries(Object.entries(ownership).map(([scope, patterns]) => [scope, Object.fromEntries(Object.entries(patterns).map(([pattern, owners]) => [pattern, owners.map((o) => `${o.holder} ${o.mode}`).sort()]))]));

test('ledger.json with no claims is the roster and an empty ownership map', () =>
  withTempDir(async (dir) => {
    const h = makeHarness();
    joinAgent(h, 'ATLAS');
    const ledger = await ledgerOf(h, dir);
    assert.deepEqual(ledger.ownership, {});
    assert.deepEqual(ledger.agents.map((a) => a.callsign), ['ATLAS']);
    assert.equal(ledger.seq, h.core.state.seq);
  }));

test('ledger.json groups every claim by scope and pattern, shared holders together', () =>
  withTempDir(async (dir) => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS');
    const bolt = joinAgent(h, 'BOLT');
    claimNow(h, atlas.caller, { patterns: ['src/b.ts', 'src/a.ts'] });
    claimNow(h, atlas.caller, { patterns: ['docs/**'], mode: 'shared' });
    claimNow(h, bolt.caller, { patterns: ['docs/**'], mode: 'shared' });
    claimNow(h, bolt.caller, { patterns: ['lib/"quoted".ts'], scope: OTHER_SCOPE });
    const ledger = await ledgerOf(h, dir);
    assert.deepEqual(holders(ledger.ownership), {
      [SCOPE]: { 'src/a.ts': ['ATLAS exclusive'], 'src/b.ts': ['ATLAS exclusive'], 'docs/**': ['ATLAS shared', 'BOLT shared'] },
      [OTHER_SCOPE]: { 'lib/"quoted".ts': ['BOLT exclusive'] },
    });
    const claims = Object.values(ledger.ownership).flatMap((patterns) => Object.values(patterns).flat());
    assert.deepEqual(claims.map((c) => c.claimId).sort(), [...h.core.state.claims.keys()].sort(), 'every live claim, once');
  }));

test("ledger.json shows no expiry for a claim its holder's registered process keeps, however long the holder is silent", () =>
  withTempDir(async (dir) => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS', { pid: 4242, pidStart: '777' });
    claimNow(h, atlas.caller, { patterns: ['src/**'] });
    h.clock.advance(10 * h.config.agentTtlMs);
    h.core.sweep();
    const [owner] = (await ledgerOf(h, dir)).ownership[SCOPE]!['src/**']!;
    assert.deepEqual([owner!.expiresAt, owner!.expiresWith], [null, 'process']);
  }));
