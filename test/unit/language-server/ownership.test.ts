import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Claim } from '../../../contracts/index.js';
import { territoryDiagnostics, territoryHover, territoryLenses } from '../../../server/language-server/editor-features.js';
import { ownershipFrom } from '../../../server/language-server/ownership.js';

let next = 0;
function claim(holder: string, mode: Claim['mode'], pattern = 'src/**'): Claim {
  next++;
  return { id: `c${next}`, scope: 's', pattern, mode, holder, agentId: `id-${holder}`, fence: next, grantedAt: new Date(next * 1000).toISOString(), expiresAt: new Date(1e12).toISOString(), expiresWith: 'heartbeats' };
}
const marks: Record<string, string> = { 'id-BOREAS': 'BO', 'id-BOLT': 'BL' };
const markOf = (agentId: string) => marks[agentId];

test('two shared holders share the file: not contested, not blocked', () => {
  const ownership = ownershipFrom([claim('BOREAS', 'shared'), claim('BOLT', 'shared')], 'src/a.ts', undefined, markOf)!;
  assert.equal(ownership.kind, 'shared');
  assert.equal(ownership.blocked, false);
  assert.equal(ownership.mark, '∥2');
});

test('one shared holder shows its own mark, in the shared kind', () => {
  const ownership = ownershipFrom([claim('BOLT', 'shared')], 'src/a.ts', undefined, markOf)!;
  assert.equal(ownership.kind, 'shared');
  assert.equal(ownership.mark, 'BL');
});

test('an exclusive claim beside another agent is contested; alone it is "other" with its mark', () => {
  assert.equal(ownershipFrom([claim('BOREAS', 'exclusive'), claim('BOLT', 'shared')], 'src/a.ts', undefined, markOf)!.kind, 'contested');
  const alone = ownershipFrom([claim('BOREAS', 'exclusive')], 'src/a.ts', undefined, markOf)!;
  assert.equal(alone.kind, 'other');
  assert.equal(alone.mark, 'BO');
  assert.equal(alone.blocked, true);
  assert.equal(alone.holders[0]!.mark, 'BO');
});

test("the operator's own claims are mine, even beside its own shared one", () => {
  const ownership = ownershipFrom([claim('BOREAS', 'exclusive'), claim('BOREAS', 'shared', 'src/a.ts')], 'src/a.ts', 'id-BOREAS', markOf)!;
  assert.equal(ownership.kind, 'mine');
});

test("one agent's two exclusive claims on a file: its CodeLens says it holds the file, not that anyone shares it", () => {
  const ownership = ownershipFrom([claim('ZED', 'exclusive', 'src/**'), claim('ZED', 'exclusive', 'src/a.ts')], 'src/a.ts', undefined, markOf)!;
  const [lens] = territoryLenses(ownership);
  assert.match(lens!.command!.title, /^\$\(lock\) ZED holds this file · src\/\*\*, src\/a\.ts · exclusive/);
  assert.doesNotMatch(lens!.command!.title, /Shared/);
});

test("a claim's reason reads without the plane's ids in the hover and the diagnostic", () => {
  const held = { ...claim('ZED', 'exclusive', 'src/a.ts'), reason: 'work wk_Ab3dEf_hIj-L: fix the parser' };
  const ownership = ownershipFrom([held], 'src/a.ts', undefined, markOf)!;
  const hover = territoryHover(ownership, 0)!.contents as { value: string };
  assert.match(hover.value, /“work: fix the parser”/);
  const message = territoryDiagnostics(ownership)[0]!.message as string;
  assert.match(message, /“work: fix the parser”/);
  assert.doesNotMatch(`${hover.value}\n${message}`, /wk_/);
});
