import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorktreeFacts } from '../../../server/core/work-guidance.js';
import { eventsOfType } from '../../support/core-harness.js';
import { add, configure, control, orchestrationFleet, pull } from '../../support/orchestration-harness.js';

const at = (agents: string, claude?: string): WorktreeFacts => ({
  worktree: '/repo',
  head: 'c0ffee',
  covenant: [{ path: 'AGENTS.md', blob: agents }, ...(claude ? [{ path: 'CLAUDE.md', blob: claude }] : [])],
});

test('every pull carries the guidance; its version grows only when the committed covenant changes', () => {
  const { h, atlas } = orchestrationFleet();
  add(h, { title: 'a' });
  const first = pull(h, atlas, at('blob1')).guidance!;
  assert.equal(first.version, 1);
  assert.match(first.policyHash, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual(first.covenant, [{ path: 'AGENTS.md', blob: 'blob1' }]);
  assert.equal(first.head, 'c0ffee');
  assert.equal(pull(h, atlas, at('blob1')).guidance!.version, 1, 'nothing changed: same version');
  assert.equal(eventsOfType(h.events, 'work.guidance').length, 1);

  const changed = pull(h, atlas, at('blob2')).guidance!;
  assert.equal(changed.version, 2, 'AGENTS.md was committed anew: the next pull shows a new version');
  assert.notEqual(changed.policyHash, first.policyHash);
  assert.equal(pull(h, atlas, at('blob2', 'blob9')).guidance!.version, 3, 'a CLAUDE.md added counts too');
});

test('changing the fleet\'s budgets or plan rule changes the stop conditions, so the version grows', () => {
  const { h, atlas } = orchestrationFleet();
  const before = pull(h, atlas, at('blob1')).guidance!;
  assert.ok(before.stopConditions.some((s) => s.includes('after 3 rework rounds')));
  configure(h, { reworkRounds: 5, planRequired: true });
  const after = pull(h, atlas, at('blob1')).guidance!;
  assert.equal(after.version, 2);
  assert.ok(after.stopConditions.some((s) => s.includes('after 5 rework rounds')));
  assert.ok(after.stopConditions.some((s) => s.includes('plan')));
});

test('role constraints are the puller\'s role; versions are kept per worktree; a refused pull still carries guidance', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const builder = pull(h, atlas, at('blob1')).guidance!;
  const verifier = pull(h, vera, at('blob1')).guidance!;
  assert.equal(verifier.version, builder.version, 'one policy for every role of a worktree');
  assert.ok(builder.roleConstraints.some((c) => c.includes('Claim paths before writing')));
  assert.ok(verifier.roleConstraints.some((c) => c.includes('Name every criterion')));
  assert.equal(pull(h, atlas, { ...at('other'), worktree: '/elsewhere' }).guidance!.version, 1);
  assert.equal(pull(h, atlas, at('blob1')).guidance!.version, 1, 'another worktree\'s rules leave this one\'s version alone');
  control(h, 'pause');
  const paused = pull(h, atlas, at('blob1'));
  assert.equal(paused.refusedBy, 'control');
  assert.equal(paused.guidance?.version, 1);
});
