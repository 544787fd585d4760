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
