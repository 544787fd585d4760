// Needs You's list from the state and its changes: which items and agents wait for the operator, in
// what order, and that a change touches only the entries it names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClarificationRequest, WorkItem } from '../../../contracts/index.js';
import type { FleetChanges, FleetViewState, ViewAgent } from '../../../contracts/lsp.js';
import { AttentionEntries } from '../../../extension/src/attention/attention-entries.js';

const at = (minute: number) => `2026-11-28T07:${String(minute).padStart(2, '0')}:00.000Z`;

function item(id: string, status: WorkItem['status'], extra: Partial<WorkItem> = {}): WorkItem {
  return { id, title: `item ${id}`, kind: 'task', dependsOn: [], paths: [], criteria: ['it works'], status, blockedBy: [], clarifications: [], reworkRounds: 0, createdAt: at(0), updatedAt: at(1), ...extra };
}

function question(id: string, to?: string): ClarificationRequest {
  return { id, question: 'Which parser?', options: ['old', 'PEG'], askedBy: 'BOREAS', round: 1, ...(to !== undefined && { to }) } as ClarificationRequest;
}

function agent(agentId: string, callsign: string, waiting?: ViewAgent['waitingForPerson']): ViewAgent {
  return { agentId, callsign, runtime: 'claude-code', role: 'builder', tier: 'local', status: 'active', joinedAt: at(0), lastSeenAt: at(0), claimCount: 0, mark: callsign.slice(0, 2), ...(waiting && { waitingForPerson: waiting }) };
}

function state(work: WorkItem[], agents: ViewAgent[]): FleetViewState {
  return { connection: { status: 'connected', home: '/h' }, control: null, agents, claims: [], work, operator: { callsign: 'DANA', agentId: 'a-op' } };
}

const changes = (partial: Partial<FleetChanges>): FleetChanges => ({ agents: [], removedAgents: [], claims: [], releasedClaims: [], work: [], removedWork: [], ...partial });

test('what waits for the operator, in the order to deal with it; the rest of the queue is not listed', () => {
  const entries = new AttentionEntries();
  entries.replace(
    state(
      [
        item('w-1', 'ready'),
        item('w-2', 'verified', { updatedAt: at(5), verifier: 'VESTA', report: { verdicts: [{ criterion: 'it works', verdict: 'pass', evidence: 'ok' }], artifactId: 'ar-report' } as WorkItem['report'] }),
        item('w-3', 'escalated', { updatedAt: at(9), escalation: { budget: 'clarification', spent: 1, limit: 0, by: 'BOREAS', waitedIn: 'in_progress', question: question('q-1') } }),
        item('w-4', 'escalated', { updatedAt: at(2), escalation: { budget: 'rework', spent: 3, limit: 3, by: 'VESTA' } }),
        item('w-5', 'in_progress', { clarifications: [{ request: question('q-2', 'DANA') }] }),
        item('w-6', 'in_progress', { clarifications: [{ request: question('q-3') }] }),
      ],
      [agent('a-1', 'NOVA', { hook: 'claude-notification', reason: 'permission', message: 'Claude needs your permission to use Bash', tool: 'Bash', since: at(3) }), agent('a-2', 'ATLAS')],
    ),
  );
  assert.deepEqual(
    entries.list.map((e) => [e.key, e.kind]),
    [
      ['work:w-3', 'question'],
      ['work:w-4', 'escalated'],
      ['work:w-2', 'decision'],
      ['work:w-5', 'clarification'],
      ['agent:a-1', 'waiting'],
    ],
  );
  const [asked, , decision, , waiting] = entries.list;
  assert.equal(asked!.description, 'BOREAS asks: Which parser?');
  assert.deepEqual(asked!.details.filter((d) => d.label.startsWith('Option')).map((d) => d.description), ['old', 'PEG']);
  assert.equal(decision!.description, 'verified by VESTA: 1 of 1 criteria pass');
  assert.ok(decision!.details.some((d) => d.label === 'Verification report' && d.description === 'ar-report'));
  assert.equal(waiting!.label, 'NOVA asks permission');
});

test('a change touches the entries it names: an answered question leaves, a wait that ends leaves, an unrelated change changes nothing', () => {
  const entries = new AttentionEntries();
  entries.replace(state([item('w-3', 'escalated', { escalation: { budget: 'clarification', spent: 1, limit: 0, by: 'BOREAS', question: question('q-1') } }), item('w-1', 'ready')], [agent('a-1', 'NOVA', { hook: 'codex-permission-request', reason: 'permission', message: 'Codex asks to run Bash: ls', since: at(3) })]));
  assert.equal(entries.count, 2);
  assert.equal(entries.apply(changes({ work: [item('w-1', 'in_progress')] })), false, 'the queue moving is not news here');
  assert.equal(entries.apply(changes({ work: [item('w-3', 'in_progress')] })), true);
  assert.equal(entries.apply(changes({ agents: [agent('a-1', 'NOVA')] })), true);
  assert.equal(entries.count, 0);
  assert.equal(entries.apply(changes({ agents: [agent('a-2', 'ECHO', { hook: 'claude-notification', reason: 'input', message: 'Claude is waiting for your input', since: at(4) })] })), true);
  assert.equal(entries.apply(changes({ removedAgents: ['a-2'] })), true, 'an agent that left waits for nobody');
  assert.equal(entries.count, 0);
  assert.equal(entries.apply(changes({ work: [item('w-9', 'escalated', { escalation: { budget: 'rework', spent: 3, limit: 3, by: 'VESTA' } })] })), true);
  assert.equal(entries.apply(changes({ removedWork: ['w-9'] })), true, 'a removed item waits for nobody');
  assert.equal(entries.count, 0);
});

test('work the train could not land, and a rollback whose revert could not land, are listed with the reason; landed work and other escalations are not', () => {
  const integration = { branch: 'bolt-work', commit: 'c'.repeat(40), target: 'main', repository: '/r/.git' };
  const rollback = { disposition: 'rollback', reasonCode: 'broke-the-build', refs: [] } as unknown as WorkItem['decision'];
  const entries = new AttentionEntries();
  entries.replace(
    state(
      [
        item('w-1', 'land_failed', { statusReason: 'the target main is checked out in the worktree /x', integration }),
        item('w-2', 'escalated', { statusReason: 'the revert conflicts in src/a.ts with later landings', decision: rollback, landedCommit: 'd'.repeat(40), integration }),
        item('w-3', 'landed', { landedCommit: 'e'.repeat(40), integration }),
        item('w-4', 'escalated', { updatedAt: at(2), escalation: { budget: 'rework', spent: 3, limit: 3, by: 'VESTA' } }),
      ],
      [],
    ),
  );
  assert.deepEqual(entries.list.map((e) => [e.itemId, e.kind]), [['w-4', 'escalated'], ['w-1', 'landing'], ['w-2', 'landing']]);
  const [, failed, revert] = entries.list;
  assert.equal(failed!.description, 'could not land: the target main is checked out in the worktree /x');
  assert.equal(failed!.reason, 'the target main is checked out in the worktree /x');
  assert.equal(revert!.description, 'its revert could not land: the revert conflicts in src/a.ts with later landings');
  assert.ok(revert!.details.some((d) => d.label === 'Landed as' && d.description === 'd'.repeat(40)));
});

test('a rollback whose revert could not land, of a rebase of several commits, names the range it landed as (what to revert by hand)', () => {
  const integration = { branch: 'bolt-work', commit: 'c'.repeat(40), target: 'main', repository: '/r/.git' };
  const rollback = { disposition: 'rollback', reasonCode: 'regression', refs: [] } as unknown as WorkItem['decision'];
  const entries = new AttentionEntries();
  entries.replace(state([item('w-1', 'escalated', { statusReason: 'the revert conflicts in src/c.ts with later landings', decision: rollback, landedOnto: 'a'.repeat(40), landedCommit: 'b'.repeat(40), integration })], []));
  assert.deepEqual(entries.list[0]?.details.find((d) => d.label === 'Landed as')?.description, `${'a'.repeat(40)}..${'b'.repeat(40)}`);
});
