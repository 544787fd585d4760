import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decisionSchema, methods } from '../../../contracts/index.js';

test('a decision without a reason code is refused by the contract', () => {
  const missing = decisionSchema.safeParse({ disposition: 'accept', refs: [] });
  assert.equal(missing.success, false);
  assert.deepEqual(missing.error!.issues.map((i) => i.path.join('.')), ['reasonCode']);
  const empty = decisionSchema.safeParse({ disposition: 'accept', reasonCode: '', refs: [] });
  assert.equal(empty.success, false);
  assert.match(empty.error!.issues[0]!.message, /reasonCode/);
  const ok = decisionSchema.parse({ disposition: 'rollback', reasonCode: 'broke-main' });
  assert.deepEqual(ok, { disposition: 'rollback', reasonCode: 'broke-main', refs: [] }, 'refs default to []');
});

test('every disposition needs a reason code, and only the four dispositions exist', () => {
  for (const disposition of ['accept', 'rework', 'rollback', 'escalate']) {
    assert.equal(decisionSchema.safeParse({ disposition }).success, false, `${disposition} without reasonCode`);
    assert.equal(decisionSchema.safeParse({ disposition, reasonCode: 'why' }).success, true);
  }
  assert.equal(decisionSchema.safeParse({ disposition: 'done', reasonCode: 'why' }).success, false);
});

test('fleet_work_update refuses a decide without a reason code at the params level, naming decision.reasonCode', () => {
  const params = methods.fleet_work_update.params;
  const bad = params.safeParse({ id: 'wk-1', action: 'decide', decision: { disposition: 'accept', refs: [] } });
  assert.equal(bad.success, false);
  assert.ok(bad.error!.issues.some((i) => i.path.join('.') === 'decision.reasonCode'), JSON.stringify(bad.error!.issues));
  assert.equal(params.safeParse({ id: 'wk-1', action: 'decide', decision: { disposition: 'accept', reasonCode: '', refs: [] } }).success, false);
  assert.equal(params.safeParse({ id: 'wk-1', action: 'decide', decision: { disposition: 'accept', reasonCode: 'ok' } }).success, true);
  // A verify needs at least one verdict with evidence; a complete needs its artifact.
  assert.equal(params.safeParse({ id: 'wk-1', action: 'verify', report: { verdicts: [] } }).success, false);
  assert.equal(params.safeParse({ id: 'wk-1', action: 'verify', report: { verdicts: [{ criterion: 'c', verdict: 'pass', evidence: '' }] } }).success, false);
  assert.equal(params.safeParse({ id: 'wk-1', action: 'complete' }).success, false);
});
