// Artifacts stored by a plane from before they were records (DESIGN §16: they get deterministic ids
// on migration). The same history is written twice as that plane left it, once all in the log and
// once compacted into a snapshot; a real plane loads each, and every stored artifact has the same
// id both ways, again after a restart, reads back by it, and can be cited by a decision.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkItem } from '../../../contracts/index.js';
import { toPersisted } from '../../../server/core/state.js';
import { writePreArtifactStore } from '../../support/legacy-state.js';
import { add, complete, orchestrationFleet, pull, report, toVerified, update, verify } from '../../support/orchestration-harness.js';
import { removeHome, startPlaneProcess, tempHome } from '../../support/plane-process.js';

/** Every artifact an item holds, as [where, kind, id]. */
function artifactIds(items: WorkItem[]): string[][] {
  return items.flatMap((item) => [
    ...(['plan', 'artifact', 'verificationRequest', 'report', 'decision'] as const).flatMap((field) => (item[field] ? [[`${item.id}.${field}`, item[field].kind ?? '', item[field].artifactId ?? '']] : [])),
    ...item.clarifications.flatMap((c, n) => [[`${item.id}.request${n}`, c.request.kind ?? '', c.request.artifactId ?? ''], ...(c.response ? [[`${item.id}.response${n}`, c.response.kind ?? '', c.response.artifactId ?? '']] : [])]),
  ]);
}

test('artifacts stored before they were records get deterministic ids when the state loads, from the log or a snapshot alike', async (t) => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  add(h, { title: 'lexer', criteria: ['c1'] });
  const verified = toVerified(h, atlas, vera);
  const reworked = add(h, { title: 'parser', criteria: ['c1'] }).id;
  pull(h, atlas);
  update(h, atlas.caller, reworked, { action: 'plan', plan: { intendedFiles: ['src/p.ts'], validationPlan: ['npm test'], coverage: { c1: 'p.test.ts' } } });
  const asked = update(h, atlas.caller, reworked, { action: 'clarify', question: 'strict?', options: ['yes', 'no'] }).clarificationId!;
  update(h, rte.caller, reworked, { action: 'answer', requestId: asked, chosen: 'yes', rationale: 'spec', updatedConstraints: [] });
  complete(h, atlas.caller, reworked, ['c1']);
  pull(h, vera);
  verify(h, vera.caller, reworked, report({ c1: 'fail' }));

  const fromLog = tempHome();
  const fromSnapshot = tempHome();
  t.after(() => [fromLog, fromSnapshot].forEach(removeHome));
  await writePreArtifactStore(fromLog, undefined, h.events);
  await writePreArtifactStore(fromSnapshot, toPersisted(h.core.state), h.events);

  const loaded = async (home: string) => {
    const plane = await startPlaneProcess({ home });
    try {
      const operator = await plane.connectAsOperator();
      const { items } = await operator.call('fleet_work_list', {});
      operator.close();
      return items;
    } finally {
      await plane.stop();
    }
  };
  const logIds = artifactIds(await loaded(fromLog));
  assert.equal(logIds.length, 10, 'plan, question, answer, build, request, report and the rework decision of one item; build, request and report of the other');
  for (const [where, kind, id] of logIds) {
    if (where === `${reworked}.request0`) assert.equal(id, asked, 'a clarification request keeps the id it had: its message');
    else assert.match(id!, new RegExp(`^[a-z]{2}_${where!.split('.')[0]}_[0-9a-f]{12}$`), `${where} (${kind}) has an id derived from its item and content`);
  }
  assert.deepEqual(artifactIds(await loaded(fromSnapshot)), logIds, 'the snapshot names them as the log does');
  assert.deepEqual(artifactIds(await loaded(fromLog)), logIds, 'and so does the next start');

  // They read back by id, and a decision can rest on them.
  const plane = await startPlaneProcess({ home: fromSnapshot });
  t.after(() => plane.stop());
  const operator = await plane.connectAsOperator();
  t.after(() => operator.close());
  const reportId = logIds.find(([where]) => where === `${verified}.report`)![2]!;
  const { artifact } = await operator.call('fleet_work_artifact', { id: reportId });
  assert.equal(artifact.kind, 'VerificationReport');
  assert.equal(artifact.workItem, verified);
  assert.equal(artifact.producedByRole, 'verifier');
  assert.match(artifact.fingerprint ?? '', /^sha256:[0-9a-f]{64}$/);
  const rita = await plane.connect('RITA');
  t.after(() => rita.close());
  await rita.call('fleet_agent_join', { callsign: 'RITA', runtime: 'test', role: 'rte' });
  const done = await rita.call('fleet_work_update', { id: verified, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met', refs: [reportId] } });
  assert.equal(done.item.status, 'done');
});
