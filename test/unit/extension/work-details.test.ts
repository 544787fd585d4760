import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkItem } from '../../../contracts/index.js';
import { waitsFor, workDetails } from '../../../extension/src/views/work-details.js';

const base: WorkItem = {
  id: 'wk_1',
  title: 'parser',
  kind: 'task',
  dependsOn: [],
  paths: [],
  criteria: ['parses'],
  status: 'in_progress',
  assignee: 'BOLT',
  blockedBy: [],
  clarifications: [],
  reworkRounds: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

test('the Work view says what an item waits for: an open question, the operator, a verifier, a decision', () => {
  const asked = { request: { id: 'msg_1', question: 'OAuth or keys?', options: [], askedBy: 'BOLT', round: 1 } };
  assert.equal(waitsFor({ ...base, blockedBy: ['msg_1'], clarifications: [asked] }), 'an answer to "OAuth or keys?"');
  assert.equal(waitsFor({ ...base, status: 'escalated', escalation: { budget: 'rework', spent: 3, limit: 3, by: 'VERA' } }), 'the operator: rework budget spent (3 of 3 rounds)');
  assert.equal(waitsFor({ ...base, status: 'review', verifier: 'VERA' }), "VERA's verdicts");
  assert.equal(waitsFor({ ...base, status: 'verified' }), 'a decision by an RTE or the operator');
  assert.equal(waitsFor({ ...base, status: 'done' }), undefined);
});

test('an item expands to its plan, its rounds (with each question and answer) and its verification request', () => {
  const item: WorkItem = {
    ...base,
    status: 'review',
    reworkRounds: 1,
    budgets: { reworkRounds: 2 },
    plan: { intendedFiles: ['src/parser.ts'], validationPlan: ['npm test'], coverage: { parses: 'parser.test.ts' } },
    clarifications: [
      { request: { id: 'msg_1', question: 'OAuth?', options: ['yes', 'no'], askedBy: 'BOLT', round: 1 }, response: { requestId: 'msg_1', chosen: 'yes', rationale: 'SSO', updatedConstraints: [], answeredBy: 'RTE1' } },
    ],
    verificationRequest: { round: 2, criteria: ['parses'], expectedEvidence: [{ criterion: 'parses', evidence: 'parser.test.ts' }] },
  };
  const details = workDetails(item);
  assert.deepEqual(details.map((d) => d.label), ['Waits for', 'Plan', 'Rounds', 'Verification']);
  assert.deepEqual(details[1]!.children!.map((c) => [c.label, c.description]), [
    ['Files', 'src/parser.ts'],
    ['Validation', 'npm test'],
    ['parses', 'parser.test.ts'],
  ]);
  assert.equal(details[2]!.description, 'rework 1/2, clarification 1');
  assert.deepEqual(details[2]!.children, [{ label: 'Q1: OAuth?', description: '→ yes (RTE1: SSO)' }]);
  assert.equal(details[3]!.description, 'round 2');
});

test('an item expands to what git says its build changed, and a rolled-back item to how to apply the rollback', () => {
  const diffSummary = { since: 'abc123def4567890', files: [{ path: 'src/parser.ts', added: 3, removed: 1 }, { path: 'logo.png' }, { path: 'src/grammar.ts', untracked: true }], more: 2 };
  const built = workDetails({ ...base, status: 'review', artifact: { touchedFiles: ['src/parser.ts'], commands: [], criteria: ['parses'], diffSummary } });
  const changes = built.find((d) => d.label === 'Changes')!;
  assert.equal(changes.description, '5 file(s) since abc123def456');
  assert.deepEqual(changes.children!.map((c) => [c.label, c.description]), [
    ['src/parser.ts', '+3 −1'],
    ['logo.png', 'binary'],
    ['src/grammar.ts', 'new, untracked'],
    ['2 more', 'fleet work artifact lists the build'],
  ]);
  const remediation = 'not applied by the plane, which does not undo a shared checkout: in the builder\'s worktree run git checkout abc123 -- src/parser.ts, then commit';
  const rolledBack = workDetails({ ...base, status: 'rolled_back', decision: { disposition: 'rollback', reasonCode: 'regression', refs: ['vr_1'], rollbackRef: 'abc123', remediation } });
  assert.deepEqual(rolledBack.find((d) => d.label === 'Rollback'), { label: 'Rollback', description: remediation });
});
