// The operator's morning report: `fleet digest --since DURATION|SEQ` over any window of the event
// log (the published baseline stays), and FLEET_DIGEST_WEBHOOK pushing each published digest as
// JSON to a local HTTP server, with retries that never hold the plane up.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { digestSchema, type Digest } from '../../../contracts/index.js';
import { expectCallError, joinPlane } from '../../support/orchestration-plane.js';
import { removeHome, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { planeWithRepo } from '../../support/plane-with-repo.js';
import { runCli } from '../../support/run-cli.js';

test('fleet digest --since SEQ|DURATION: any window of the log, the published baseline untouched', { timeout: 60_000 }, async (t) => {
  const { plane, repo } = await planeWithRepo(t);
  const operator = await plane.connectAsOperator();
  const atlas = await joinPlane(plane, 'ATLAS', { role: 'builder' });
  await atlas.client.call('fleet_claim_path', { patterns: ['src/parser/**'], root: repo, reason: 'night work' });
  const published = await operator.call('fleet_digest', { publish: true });
  await atlas.client.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });

  const cli = (...args: string[]) => runCli(['digest', ...args], { home: plane.home, cwd: repo });
  const sinceLast = await cli('--json');
  assert.equal(sinceLast.code, 0, sinceLast.stderr);
  assert.deepEqual((JSON.parse(sinceLast.stdout) as Digest).claims.acquired.map((c) => c.pattern), ['docs/**'], 'without --since: since the last published digest');

  const bySeq = await cli('--since', '1', '--json');
  assert.equal(bySeq.code, 0, bySeq.stderr);
  const whole = digestSchema.parse(JSON.parse(bySeq.stdout));
  assert.equal(whole.fromSeq, 1);
  assert.deepEqual(whole.claims.acquired.map((c) => c.pattern), ['src/parser/**', 'docs/**'], 'the published window is included again');

  const byDuration = await cli('--since', '8h', '--json');
  assert.equal(byDuration.code, 0, byDuration.stderr);
  const night = digestSchema.parse(JSON.parse(byDuration.stdout));
  assert.equal(night.fromSeq, 1, 'every event of this plane is within the last 8 hours');
  assert.deepEqual(night.claims.acquired.map((c) => c.pattern), ['src/parser/**', 'docs/**']);

  const after = await cli('--json');
  assert.deepEqual((JSON.parse(after.stdout) as Digest).fromSeq, published.digest.toSeq + 1, '--since did not move the baseline');

  const quiet = await cli('--since', String(whole.toSeq + 1000));
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stdout.trimEnd().split('\n').length, 1, `an empty window is one line:\n${quiet.stdout}`);
  assert.match(quiet.stdout, /nothing happened/);

  const bad = await cli('--since', '8 hours');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--since 8 hours is neither an event number .* nor a duration/);
  const both = await cli('--since', '1', '--publish');
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--publish .* takes no --since/);
  await expectCallError(operator.call('fleet_digest', { sinceSeq: 1, sinceSeconds: 60 }), 'INVALID_PARAMS');
  await expectCallError(operator.call('fleet_digest', { publish: true, sinceSeq: 1 }), 'INVALID_PARAMS');
  operator.close();
  atlas.client.close();
});

/** A local receiver: answers each POST with the next status of `statuses` (the last one repeats). */
async function receiver(t: { after(fn: () => unknown): void }, statuses: number[]) {
  const received: { body: string; contentType: string | undefined; url: string | undefined }[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let hold: Promise<void> = Promise.resolve();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ body, contentType: request.headers['content-type'], url: request.url });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      void hold.then(() => response.writeHead(status).end());
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fleet-hook?token=s3cret`,
    received,
    /** Answers wait until `release` resolves. */
    holdAnswersUntil: (release: Promise<void>): void => {
      hold = release;
    },
    requests: (count: number) => new Promise<void>((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
  };
}

function logged(plane: PlaneProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    if (pattern.test(plane.output())) return resolve();
    const onData = () => {
      if (!pattern.test(plane.output())) return;
      plane.child.stderr!.off('data', onData);
      resolve();
    };
    plane.child.stderr!.on('data', onData);
  });
}

test('FLEET_DIGEST_WEBHOOK: each published digest is POSTed as JSON; a 500 is retried; the publish never waits for it', { timeout: 60_000 }, async (t) => {
  const hook = await receiver(t, [500, 200]);
  let release!: () => void;
  hook.holdAnswersUntil(new Promise<void>((resolve) => (release = resolve)));
  const { plane } = await planeWithRepo(t, { FLEET_DIGEST_WEBHOOK: hook.url });
  const operator = await plane.connectAsOperator();
  const atlas = await joinPlane(plane, 'ATLAS', { role: 'builder' });
  await atlas.client.call('fleet_message_send', { to: { role: 'rte' }, type: 'BLOCKER', body: 'staging is down' });
  // ATLAS's runtime waits for a person (its Notification hook said so): the webhook carries it too.
  await atlas.client.call('fleet_hook_waiting', { callsign: 'ATLAS', hook: 'claude-notification', reason: 'permission', message: 'Claude needs your permission to use Bash' });

  const published = await operator.call('fleet_digest', { publish: true });
  await hook.requests(1);
  assert.equal(hook.received.length, 1, 'the publish returned while the first delivery was still unanswered');
  release();
  await hook.requests(2);
  for (const delivery of hook.received) {
    assert.equal(delivery.contentType, 'application/json');
    assert.equal(delivery.url, '/fleet-hook?token=s3cret');
    const body = JSON.parse(delivery.body) as { kind?: unknown };
    assert.equal(body.kind, 'digest', 'the payload says what it is: other kinds of notice follow');
    const digest = digestSchema.parse(body);
    assert.equal(digest.toSeq, published.digest.toSeq);
    assert.deepEqual(digest.waitingForPerson.map((w) => [w.callsign, w.reason, w.message]), [['ATLAS', 'permission', 'Claude needs your permission to use Bash']]);
    assert.ok(digest.blockers.some((b) => b.text.includes('staging is down')), 'the blockers reach the operator');
  }
  assert.doesNotMatch(plane.output(), /not delivered/, 'the retry succeeded, nothing to log');
  operator.close();
  atlas.client.close();
});

test('FLEET_DIGEST_WEBHOOK: a receiver that refuses is given up after one try and logged without its secret; a bad URL stops fleet serve', { timeout: 60_000 }, async (t) => {
  const hook = await receiver(t, [404]);
  const { plane } = await planeWithRepo(t, { FLEET_DIGEST_WEBHOOK: hook.url });
  const operator = await plane.connectAsOperator();
  const failure = logged(plane, /not delivered to FLEET_DIGEST_WEBHOOK/);
  await operator.call('fleet_digest', { publish: true });
  await failure;
  assert.equal(hook.received.length, 1, 'a 4xx is not retried');
  assert.match(plane.output(), /not delivered to FLEET_DIGEST_WEBHOOK \(http:\/\/127\.0\.0\.1:\d+\): HTTP 404/);
  assert.doesNotMatch(plane.output(), /s3cret/, 'the URL\'s secret stays out of the log');
  assert.ok((await operator.call('fleet_control_get', {})).state, 'the plane still answers');
  operator.close();

  const home = tempHome();
  t.after(() => removeHome(home));
  const refused = await runCli(['serve'], { home, cwd: home, env: { FLEET_DIGEST_WEBHOOK: 'ftp://example.com/x' } });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /FLEET_DIGEST_WEBHOOK must be an http:\/\/ or https:\/\/ URL/);
});
