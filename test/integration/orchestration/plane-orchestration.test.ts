import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { digestSchema, errorTable } from '../../../contracts/index.js';
import { readEventLog } from '../../support/event-log-reader.js';
import { buildArtifact, expectCallError, joinPlane, passingReport } from '../../support/orchestration-plane.js';
import { planeWithRepo } from '../../support/plane-with-repo.js';

test('build gate: the plane runs the configured command at HEAD and records GREEN, then RED with the exit code and log tail', async (t) => {
  const { plane, repo } = await planeWithRepo(t);
  const head = execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const operator = await plane.connectAsOperator();
  const builder = await joinPlane(plane, 'ATLAS', { role: 'builder' });

  // Configuring is for the operator or an RTE; a builder may only ask for runs.
  await expectCallError(builder.client.call('fleet_build_configure', { root: repo, command: 'exit 0' }), 'FORBIDDEN');
  await expectCallError(builder.client.call('fleet_build_verify', { root: repo, wait: true }), 'INVALID_STATE');

  const configured = await operator.call('fleet_build_configure', { root: repo, command: "sh -c 'echo compiling; exit 0'" });
  assert.equal(configured.worktree, repo, 'the default worktree is the main one');
  assert.equal(configured.timeoutSeconds, 1800);
  const green = await builder.client.call('fleet_build_verify', { root: repo, wait: true });
  assert.equal(green.run.status, 'green');
  assert.equal(green.run.exitCode, 0);
  assert.equal(green.run.commit, head);
  assert.equal(green.run.requestedBy, 'ATLAS');
  assert.match(green.run.logTail ?? '', /compiling/);
  assert.equal(typeof green.run.durationMs, 'number');

  await operator.call('fleet_build_configure', { root: repo, command: "sh -c 'echo tests failed >&2; exit 3'" });
  const red = await builder.client.call('fleet_build_verify', { root: repo, wait: true });
  assert.equal(red.run.status, 'red');
  assert.equal(red.run.exitCode, 3);
  assert.equal(red.run.commit, head);
  assert.match(red.run.logTail ?? '', /tests failed/);

  // Without wait the run is answered queued (or running) and finishes on its own.
  const queued = await operator.call('fleet_build_verify', { root: repo });
  assert.ok(['queued', 'running'].includes(queued.run.status), queued.run.status);

  // Nobody can record a result: extra fields are refused as invalid params.
  await expectCallError(builder.client.callRaw('fleet_build_verify', { root: repo, status: 'green' }), 'INVALID_PARAMS');
  await expectCallError(operator.callRaw('fleet_build_configure', { root: repo, command: 'true', status: 'green' }), 'INVALID_PARAMS');

  const wait = Date.now() + 10_000;
  while (readEventLog(plane.home, { tolerateTornTail: true }).filter((e) => e.type === 'build.finished').length < 3 && Date.now() < wait) await new Promise((r) => setTimeout(r, 50));
  const log = readEventLog(plane.home, { tolerateTornTail: true });
  const finished = log.filter((e) => e.type === 'build.finished');
  assert.deepEqual(finished.map((e) => [e.status, e.exitCode, e.by]), [['green', 0, 'plane'], ['red', 3, 'plane'], ['red', 3, 'plane']]);
  // Every GREEN in the log is the end of a run the plane started (build.started, by the plane).
  for (const event of finished) {
    const started = log.find((e) => e.type === 'build.started' && e.runId === event.runId);
    assert.ok(started && started.by === 'plane' && started.seq < event.seq, `run ${event.runId} was started by the plane`);
  }
  operator.close();
  builder.client.close();
});

test('build gate: runs are serialized, one at a time, and a run past its timeout is RED', async (t) => {
  const { plane, repo } = await planeWithRepo(t);
  const operator = await plane.connectAsOperator();
  await operator.call('fleet_build_configure', { root: repo, command: 'sleep 0.3; echo done' });
  const runs = await Promise.all([1, 2, 3].map(() => operator.call('fleet_build_verify', { root: repo, wait: true })));
  assert.deepEqual(runs.map((r) => r.run.status), ['green', 'green', 'green']);
  const log = readEventLog(plane.home);
  const phases = log.filter((e) => e.type === 'build.started' || e.type === 'build.finished').map((e) => e.type);
  assert.deepEqual(phases, ['build.started', 'build.finished', 'build.started', 'build.finished', 'build.started', 'build.finished'], 'never two builds at once');

  await operator.call('fleet_build_configure', { root: repo, command: 'sleep 5', timeoutSeconds: 0.5 });
  const slow = await operator.call('fleet_build_verify', { root: repo, wait: true });
  assert.equal(slow.run.status, 'red');
  assert.equal(slow.run.timedOut, true);
  operator.close();
});

test('digest: publish writes FLEET_HOME/digest.md and a history entry, and moves the baseline', async (t) => {
  const { plane, repo } = await planeWithRepo(t);
  const operator = await plane.connectAsOperator();
  const atlas = await joinPlane(plane, 'ATLAS', { role: 'builder' });
  await operator.call('fleet_work_add', { title: 'parser', paths: ['src/parser/**'], root: repo });
  await atlas.client.call('fleet_work_pull', {});

  await expectCallError(atlas.client.call('fleet_digest', { publish: true }), 'FORBIDDEN');
  const peek = await atlas.client.call('fleet_digest', {});
  assert.equal(peek.digest.claims.acquired.length, 1, 'agents may read the digest');

  const first = await operator.call('fleet_digest', { publish: true });
  digestSchema.parse(first.digest);
  assert.equal(readFileSync(join(plane.home, 'digest.md'), 'utf8'), first.markdown);
  assert.match(first.markdown, /ATLAS: src\/parser\/\*\* — work wk.*: parser/);
  const stem = String(first.digest.toSeq).padStart(12, '0');
  assert.ok(existsSync(join(plane.home, 'digests', `${stem}.json`)));
  assert.deepEqual(JSON.parse(readFileSync(join(plane.home, 'digests', `${stem}.json`), 'utf8')), first.digest);
  assert.equal(readFileSync(join(plane.home, 'digests', `${stem}.md`), 'utf8'), first.markdown);

  await atlas.client.call('fleet_message_send', { to: { role: 'rte' }, type: 'BLOCKER', body: 'staging is down' });
  const second = await operator.call('fleet_digest', { publish: true });
  assert.equal(second.digest.fromSeq, first.digest.toSeq + 1, 'the next digest starts where the last ended');
  assert.equal(second.digest.claims.acquired.length, 0, 'a claim is reported once');
  assert.ok(second.digest.blockers.some((b) => b.text.includes('staging is down')));
  assert.equal(readFileSync(join(plane.home, 'digest.md'), 'utf8'), second.markdown);
  assert.equal(readdirSync(join(plane.home, 'digests')).filter((f) => f.endsWith('.md')).length, 2);
  const published = readEventLog(plane.home).filter((e) => e.type === 'digest.published');
  assert.deepEqual(published.map((e) => e.type === 'digest.published' && [e.fromSeq, e.toSeq]), [
    [first.digest.fromSeq, first.digest.toSeq],
    [second.digest.fromSeq, second.digest.toSeq],
  ]);
  operator.close();
  atlas.client.close();
});

test('digest: published on its own every FLEET_DIGEST_INTERVAL', async (t) => {
  const { plane } = await planeWithRepo(t, { FLEET_DIGEST_INTERVAL: '1' });
  const deadline = Date.now() + 5000;
  while (!existsSync(join(plane.home, 'digest.md')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(join(plane.home, 'digest.md')), 'no digest.md within 5 s at a 1 s interval');
  assert.match(readFileSync(join(plane.home, 'digest.md'), 'utf8'), /^# Fleet digest/);
});

test('refusals over the wire: a decision without a reason is INVALID_PARAMS, naming decision.reasonCode', async (t) => {
  const { plane } = await planeWithRepo(t);
  const operator = await plane.connectAsOperator();
  const { item } = await operator.call('fleet_work_add', { title: 't', criteria: ['c1'] });
  const missing = await expectCallError(operator.callRaw('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', refs: [] } }), 'INVALID_PARAMS');
  assert.equal(missing.code, errorTable.INVALID_PARAMS.code);
  assert.equal(missing.code, -32602);
  assert.match(missing.message, /decision\.reasonCode/);
  const empty = await expectCallError(operator.callRaw('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: '', refs: [] } }), 'INVALID_PARAMS');
  assert.match(empty.message, /reasonCode/);
  // The plane still answers on the same connection.
  assert.equal((await operator.call('fleet_work_list', {})).items.length, 1);
  operator.close();
});

test('refusals over the wire: completing without verification, pulling in pause, accepting a handoff twice, a verifier writing', async (t) => {
  const { plane, repo } = await planeWithRepo(t);
  const operator = await plane.connectAsOperator();
  const atlas = await joinPlane(plane, 'ATLAS', { role: 'builder' });
  const boreas = await joinPlane(plane, 'BOREAS', { role: 'builder' });
  const vera = await joinPlane(plane, 'VERA', { role: 'verifier' });
  const rte = await joinPlane(plane, 'RTE1', { role: 'rte' });
  const { item } = await operator.call('fleet_work_add', { title: 'parser', criteria: ['parses'], paths: ['src/parser/**'], root: repo });
  await operator.call('fleet_work_add', { title: 'lexer', paths: ['src/lexer/**'], root: repo });

  // Completing without verification: review, and accepting it is refused.
  const pulled = await atlas.client.call('fleet_work_pull', {});
  assert.equal(pulled.item?.id, item.id);
  const completed = await atlas.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: buildArtifact(['parses'], ['src/parser/index.ts']) });
  assert.equal(completed.item.status, 'review');
  await expectCallError(rte.client.call('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'looks-fine' } }), 'INVALID_STATE');
  await expectCallError(atlas.client.call('fleet_work_update', { id: item.id, action: 'verify', report: passingReport(['parses']) }), 'FORBIDDEN');

  // A verifier writing: claim and complete are FORBIDDEN; the check says no.
  await expectCallError(vera.client.call('fleet_claim_path', { patterns: ['src/**'], root: repo }), 'FORBIDDEN');
  assert.equal((await vera.client.call('fleet_work_pull', {})).item?.id, item.id);
  await expectCallError(vera.client.call('fleet_work_update', { id: item.id, action: 'complete', artifact: buildArtifact(['parses']) }), 'FORBIDDEN');
  assert.equal((await vera.client.call('fleet_check_path', { paths: ['src/parser/index.ts'], root: repo })).allowed, false);
  await vera.client.call('fleet_work_update', { id: item.id, action: 'verify', report: passingReport(['parses']) });
  const [verified] = (await rte.client.call('fleet_work_list', { status: 'verified' })).items;
  const done = await rte.client.call('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met', refs: [verified!.report!.artifactId!] } });
  assert.equal(done.item.status, 'done');

  // Pulling in pause: refused by control, and every reply carries the switch.
  await operator.call('fleet_control_set', { state: 'pause', reason: 'investigating' });
  const paused = await boreas.client.call('fleet_work_pull', {});
  assert.equal(paused.item, null);
  assert.equal(paused.refusedBy, 'control');
  assert.deepEqual(paused.control, { state: 'pause', reason: 'investigating' });

  // Accepting a handoff twice (handoffs still work in pause).
  const claim = await atlas.client.call('fleet_claims', { holder: 'ATLAS' });
  assert.equal(claim.claims.length, 0, 'completing released the item claims');
  await operator.call('fleet_control_set', { state: 'run' });
  const lexer = await boreas.client.call('fleet_work_pull', {});
  await operator.call('fleet_control_set', { state: 'pause' });
  const sent = await boreas.client.call('fleet_agent_handoff', {
    to: { callsign: 'ATLAS' },
    summary: 'lexer half done',
    claims: lexer.claims.map((c) => c.id),
    workItem: lexer.item!.id,
    nextSteps: ['unicode escapes'],
  });
  assert.equal((await boreas.client.call('fleet_check_path', { paths: ['src/lexer/a.ts'], root: repo })).allowed, false, 'escrow: the sender no longer writes');
  const inbox = await atlas.client.call('fleet_inbox', {});
  assert.deepEqual(inbox.handoffs.map((h) => h.id), [sent.handoff.id]);
  const accepted = await atlas.client.call('fleet_handoff_respond', { handoffId: sent.handoff.id, accept: true });
  assert.equal(accepted.handoff.status, 'accepted');
  assert.ok(accepted.claims[0]!.fence > lexer.claims[0]!.fence);
  await expectCallError(atlas.client.call('fleet_handoff_respond', { handoffId: sent.handoff.id, accept: true }), 'INVALID_STATE');
  assert.equal((await atlas.client.call('fleet_check_path', { paths: ['src/lexer/a.ts'], root: repo })).allowed, true);

  // Resume: one call gives the anchor, with the control state.
  const resume = await atlas.client.call('fleet_agent_resume', {});
  assert.deepEqual(resume.work.map((w) => w.id), [lexer.item!.id]);
  assert.deepEqual(resume.claims.map((c) => c.pattern), ['src/lexer/**']);
  assert.equal(resume.control.state, 'pause');
  for (const c of [operator, atlas.client, boreas.client, vera.client, rte.client]) c.close();
});

test('messages over the wire: mentions reach the inbox, unread counts, forward-only status, clarification blocks the pull', async (t) => {
  const { plane } = await planeWithRepo(t);
  const operator = await plane.connectAsOperator();
  const atlas = await joinPlane(plane, 'ATLAS', { role: 'builder' });
  const boreas = await joinPlane(plane, 'BOREAS', { role: 'builder' });
  const rte = await joinPlane(plane, 'RTE1', { role: 'rte' });
  const { item } = await operator.call('fleet_work_add', { title: 'auth' });

  const question = await atlas.client.call('fleet_message_send', { to: { role: 'rte' }, type: 'REQUEST', body: 'OAuth or keys? cc @BOREAS', workItem: item.id, priority: 'high' });
  assert.deepEqual(question.message.mentions, ['BOREAS']);
  assert.equal(question.message.status, 'PENDING');
  for (const who of [rte, boreas]) {
    const box = await who.client.call('fleet_inbox', {});
    assert.equal(box.unread, 1, who.callsign);
    assert.deepEqual(box.messages.map((m) => m.id), [question.message.id]);
  }
  assert.equal((await atlas.client.call('fleet_inbox', {})).unread, 0);
  assert.equal((await boreas.client.call('fleet_work_pull', {})).item, null, 'the open request holds the item');

  await rte.client.call('fleet_message_ack', { messageIds: [question.message.id], status: 'ACKNOWLEDGED' });
  await rte.client.call('fleet_message_ack', { messageIds: [question.message.id], status: 'ACKNOWLEDGED' }); // a retry is harmless
  const backwards = await expectCallError(rte.client.callRaw('fleet_message_ack', { messageIds: [question.message.id], status: 'PENDING' }), 'INVALID_PARAMS');
  assert.match(backwards.message, /status/);
  await rte.client.call('fleet_message_send', { to: { callsign: 'ATLAS' }, type: 'RESOLUTION', body: 'OAuth', refs: [question.message.id] });
  const regress = await expectCallError(rte.client.call('fleet_message_ack', { messageIds: [question.message.id], status: 'ACKNOWLEDGED' }), 'INVALID_STATE');
  assert.equal(regress.code, errorTable.INVALID_STATE.code);
  assert.equal((await boreas.client.call('fleet_work_pull', {})).item?.id, item.id, 'resolved: pullable again');
  for (const c of [operator, atlas.client, boreas.client, rte.client]) c.close();
});
