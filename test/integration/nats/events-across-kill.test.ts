// Readers of the event log across the death of the NATS node their plane is connected to, on a
// real 3-node cluster: `fleet events` still answers, `fleet events --follow` keeps following what
// the other plane decides, and so does a subscription made over the protocol (the editor's path).
// Without a quorum, reading the log is refused as retryable (STORE_UNAVAILABLE), not as an internal error.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { EVENT_NOTIFICATION, eventNotificationSchema } from '../../../contracts/index.js';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { CLI } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** How long a reader may take to show an event the other plane acknowledged, across the failover. */
const SEEN_BOUND_MS = 15_000;

/** Resolves once `text()` matches `pattern`, within `boundMs`; rejects naming what it saw. */
async function until(what: string, text: () => string, pattern: RegExp, boundMs = SEEN_BOUND_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!pattern.test(text())) {
    if (Date.now() > deadline) throw new Error(`${what}: ${pattern} not seen within ${boundMs} ms; saw:\n${text().slice(-2_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // polling a child's output
  }
}

test('the node a plane is connected to is killed: fetching, following and subscribing to its events go on elsewhere', async () => {
  const root = makeRepo();
  const reading = await startNatsPlane(cluster.urlsFrom('n1'), 'follow');
  const [doomed] = await cluster.nodesServing('fleet plane ');
  const survivor = cluster.nodes.find((n) => n.name !== doomed)!;
  const deciding = await startNatsPlane(cluster.urlsFrom(survivor.name), 'follow');
  const follower = spawn(process.execPath, [CLI, 'events', '--follow', '--json', '--home', reading.home], { env: { ...process.env, FLEET_HOME: reading.home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let followed = '';
  let followerExit: number | null | undefined;
  follower.stdout.setEncoding('utf8').on('data', (chunk: string) => (followed += chunk));
  follower.stderr.setEncoding('utf8').on('data', (chunk: string) => (followed += chunk));
  follower.once('exit', (code) => (followerExit = code));
  try {
    const editor = await reading.connectAsOperator('vscode');
    let subscribed = '';
    editor.onNotification((method, params) => {
      if (method === EVENT_NOTIFICATION) subscribed += `${JSON.stringify(eventNotificationSchema.parse(params).event)}\n`;
    });
    await editor.call('fleet_events_subscribe', {});
    const bravo = await deciding.connect();
    await bravo.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    await until('the follower, before the kill', () => followed, /"callsign":"BRAVO"/);

    await cluster.kill(doomed!);
    // The other plane decides on: a join and a claim the reading plane has to learn from the stream.
    const charlie = await deciding.connect();
    await callWhenServed(charlie, 'fleet_agent_join', { callsign: 'CHARLIE', runtime: 'script' });
    assert.equal((await callWhenServed(bravo, 'fleet_claim_path', { patterns: ['src/after-kill.ts'], root })).granted, true);

    await until('fleet events --follow', () => followed, /"pattern":"src\/after-kill\.ts"/);
    assert.equal(followerExit, undefined, `the follower is still running:\n${followed}`);
    await until('the editor\'s subscription', () => subscribed, /"pattern":"src\/after-kill\.ts"/);
    const listed = await runCli(['events', '--json'], { home: reading.home, cwd: root });
    assert.equal(listed.code, 0, `fleet events after the kill: ${listed.stderr}`);
    assert.match(listed.stdout, /"callsign":"CHARLIE"/, 'the log read after the kill has what the other plane decided');

    // A second node gone: no quorum answers, and reading the log is refused as retryable, saying why.
    await cluster.kill(cluster.nodes.find((n) => n.child !== undefined)!.name);
    const refused = await runCli(['events'], { home: reading.home, cwd: root });
    assert.deepEqual([refused.code, /store is out of reach/.test(refused.stderr), /internal error/.test(refused.stderr)], [1, true, false], `fleet events without a quorum: ${refused.stderr}`);
    editor.close();
    bravo.close();
    charlie.close();
  } finally {
    follower.kill('SIGINT');
    await stopPlanes([reading, deciding]);
  }
});
