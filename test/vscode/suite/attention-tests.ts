// What waits for the operator, at a glance and actionable (issue 26 item 7, issue 25's editor part):
// the Needs You view's entries (its badge and the status bar count them) and its commands, run as
// the view's row menus run them, against the real plane: an escalated question answered with one of
// its options returns the item to the status it waited in; accept cites the verification report;
// send back cites it with the operator's reason; a runtime waiting for a person is listed until its
// next tool call.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkItem } from '../../../contracts/index.js';
import { connectToPlane } from '../../../server/client/connect.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import type { AttentionEntry } from '../../../extension/src/attention/attention-entries.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { when } from './waits.js';

const CRITERIA = ['the parser tests pass', 'empty input is an error'];

export function attentionTests(fx: () => Fixture): void {
  let operator: PlaneClient;
  let builder: PlaneClient;
  let verifier: PlaneClient;

  const entry = (itemOrAgent: string, kind: AttentionEntry['kind']) =>
    when(fx().api.onDidChangeAttention, () => fx().api.attention().find((e) => (e.itemId === itemOrAgent || e.agentId === itemOrAgent) && e.kind === kind), `a ${kind} entry for ${itemOrAgent} in Needs You`);
  const gone = (key: string) => when(fx().api.onDidChangeAttention, () => !fx().api.attention().some((e) => e.key === key), `${key} to leave Needs You`);
  const item = async (id: string): Promise<WorkItem> => (await operator.call('fleet_work_list', { id })).items[0]!;
  /** The menu passes the row's element: what the commands get when a person clicks the action on it. */
  const row = (picked: AttentionEntry) => ({ kind: 'entry', entry: picked });

  /** An item built by BOREAS and verified by VESTA, every criterion passing: it waits for a decision. */
  async function verifiedItem(title: string): Promise<string> {
    const { item: added } = await operator.call('fleet_work_add', { title, root: fx().workspace, paths: ['src/**'], criteria: CRITERIA });
    const pulled = await builder.call('fleet_work_pull', {});
    assert.equal(pulled.item?.id, added.id);
    await builder.call('fleet_work_update', { id: added.id, action: 'complete', artifact: { touchedFiles: ['src/a.ts'], commands: [{ command: 'npm test', exitCode: 0 }], criteria: CRITERIA } });
    assert.equal((await verifier.call('fleet_work_pull', {})).item?.id, added.id);
    await verifier.call('fleet_work_update', { id: added.id, action: 'verify', report: { verdicts: CRITERIA.map((criterion) => ({ criterion, verdict: 'pass', evidence: 'npm test: 14 passing' })) } });
    return added.id;
  }

  test('the plane and two agents for the attention tests', async () => {
    const home = fx().home;
    await fx().state((s) => s.connection.status === 'connected', 'the extension to reach (start) the plane');
    operator = await connectToPlane({ home, client: 'vscode-test-operator', autoStart: false, credential: 'operator' });
    builder = await connectToPlane({ home, client: 'vscode-test-builder', autoStart: false });
    await builder.call('fleet_agent_join', { callsign: 'BOREAS', runtime: 'claude-code', role: 'builder' });
    verifier = await connectToPlane({ home, client: 'vscode-test-verifier', autoStart: false });
    await verifier.call('fleet_agent_join', { callsign: 'VESTA', runtime: 'codex', role: 'verifier' });
    await fx().state((s) => s.agents.length === 2, 'BOREAS and VESTA on the roster');
    assert.deepEqual(fx().api.attention(), [], 'nothing waits for the operator yet');
  });

  test('an escalated question is counted in Needs You and answered there with one of its options; the item returns to the status it waited in', async () => {
    const { item: added } = await operator.call('fleet_work_add', { title: 'Pick the parser', root: fx().workspace, paths: ['src/**'], criteria: CRITERIA, budgets: { reworkRounds: 3, clarificationRounds: 0 } });
    assert.equal((await builder.call('fleet_work_pull', {})).item?.id, added.id);
    const options = ['keep the hand-written parser', 'rewrite it with a PEG grammar'];
    const asked = await builder.call('fleet_work_update', { id: added.id, action: 'clarify', question: 'Which parser do we keep?', context: 'the grammar grows every release', confidence: 'low', options });
    assert.equal(asked.item.status, 'escalated', 'past its budget of 0 rounds the question goes to the operator');

    const question = await entry(added.id, 'question');
    assert.equal(fx().api.attention().length, 1, 'the count the badge and the status bar show');
    assert.equal(question.description, 'BOREAS asks: Which parser do we keep?');
    assert.deepEqual(question.details.filter((d) => d.label.startsWith('Option')).map((d) => d.description), options);
    assert.ok(question.details.some((d) => d.label === 'Context' && d.description === 'the grammar grows every release'));

    await vscode.commands.executeCommand('fleet.attention.answer', { itemId: added.id, option: 2, rationale: 'a grammar file is easier to review' });
    await gone(question.key);
    const answered = await item(added.id);
    assert.equal(answered.status, 'in_progress', 'back to the status it waited in');
    assert.equal(answered.escalation, undefined);
    const inbox = await builder.call('fleet_inbox', {});
    assert.ok(inbox.messages.some((m) => m.type === 'RESOLUTION' && m.body.startsWith('rewrite it with a PEG grammar\na grammar file is easier to review')), JSON.stringify(inbox.messages));
    // BOREAS finishes it later; out of the way of the next tests.
    await builder.call('fleet_work_update', { id: added.id, action: 'complete', artifact: { touchedFiles: [], commands: [{ command: 'npm test', exitCode: 0 }], criteria: CRITERIA } });
    await verifier.call('fleet_work_pull', {});
    await verifier.call('fleet_work_update', { id: added.id, action: 'verify', report: { verdicts: CRITERIA.map((criterion) => ({ criterion, verdict: 'pass', evidence: 'ok' })) } });
    await vscode.commands.executeCommand('fleet.attention.accept', { itemId: added.id });
    await gone(`work:${added.id}`);
  });

  test('Accept on a verified row decides it as the operator, citing its verification report', async () => {
    const id = await verifiedItem('Parse empty input');
    const waiting = await entry(id, 'decision');
    assert.match(waiting.description, /^verified by VESTA: 2 of 2 criteria pass; built by BOREAS$/);
    const report = (await item(id)).report!.artifactId!;
    assert.ok(waiting.details.some((d) => d.label === 'Verification report' && d.description === report));

    await vscode.commands.executeCommand('fleet.attention.accept', row(waiting));
    await gone(waiting.key);
    const decided = await item(id);
    assert.equal(decided.status, 'done');
    assert.equal(decided.decision?.disposition, 'accept');
    assert.deepEqual(decided.decision?.refs, [report], 'invariant 8: the accept rests on the report');
    const record = await operator.call('fleet_work_artifact', { id: decided.decision!.artifactId! });
    assert.ok(record.artifact.sourceRefs.includes(report), `the decision's record rests on ${report}: ${JSON.stringify(record.artifact.sourceRefs)}`);
  });

  test('Send Back on a verified row reworks it with the operator\'s reason, citing the report', async () => {
    const id = await verifiedItem('Parse nested lists');
    const waiting = await entry(id, 'decision');
    await vscode.commands.executeCommand('fleet.attention.sendBack', { ...row(waiting), note: 'add a test for three levels of nesting' });
    await gone(waiting.key);
    const decided = await item(id);
    assert.equal(decided.status, 'rework');
    assert.equal(decided.decision?.disposition, 'rework');
    assert.deepEqual(decided.decision?.refs, [decided.report!.artifactId]);
    assert.equal(decided.decision?.note, 'add a test for three levels of nesting');
  });

  test('an agent whose runtime waits for a person is in Needs You until its next tool call', async () => {
    // As BOREAS's Notification hook tells the plane (test/integration/agents/person-wait-hooks.test.ts runs the hook itself).
    await builder.call('fleet_hook_waiting', { callsign: 'BOREAS', hook: 'claude-notification', reason: 'permission', message: 'Claude needs your permission to use Bash', tool: 'Bash' });
    const waiting = await entry(fx().api.state()!.agents.find((a) => a.callsign === 'BOREAS')!.agentId, 'waiting');
    assert.equal(waiting.label, 'BOREAS asks permission');
    assert.equal(waiting.description, 'Claude needs your permission to use Bash');
    await builder.call('fleet_hook_check', { paths: [`${fx().workspace}/src/a.ts`], root: fx().workspace, callsign: 'BOREAS', hook: 'claude-pre-tool-use' });
    await gone(waiting.key);
    for (const client of [operator, builder, verifier]) client.close();
  });
}
