// A path's history and an agent's inbox grown past what one reply should carry (DESIGN §12 "Outputs
// are complete"): both come in pages, no page nears the payload limit, `fleet history --json` and
// `fleet inbox --json` gather every item in order, and another client is answered within 50 ms.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { limits, MAX_FRAME_BYTES, type Result } from '../../contracts/index.js';
import { gatherPages, type PageReply } from '../../server/client/gather-pages.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { loadSession } from '../../server/home/sessions.js';
import { startBystanderProbe, type ProbeReport } from '../support/bystander-probe.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
const random = new SeededRandom(seed);
/** Each list is grown past this: one unpaged reply would be larger than a frame the plane accepts. */
const GROWN_PAST_BYTES = 1.5 * MAX_FRAME_BYTES;
/** Far from the payload limit: what any one page may weigh. */
const PAGE_AT_MOST_BYTES = MAX_FRAME_BYTES / 2;
const ANSWER_WITHIN_MS = 50;
const OUTLIER_MS = 250;
const PATH = 'src/a.ts';
/** Cheap patterns that all cover PATH: each directory form with each file form. */
const COVERING = ['src', 's*', 'sr*', '*', 's?c', '[s]rc', '?rc', 'sr?', '*c', '*rc'].flatMap((dir) =>
  ['a.ts', '*.ts', 'a.*', '*', 'a*', '?.ts', 'a.t?', '[a].ts', '*s', 'a.?s'].map((file) => `${dir}/${file}`),
);

const repo = makeRepo();
let plane: PlaneProcess;
let atlas: PlaneClient;
const heldIds: string[] = [];
const sentIds: string[] = [];

const text = (length: number) => Array.from({ length }, () => random.pick(['a', 'b', 'c', ' ', 'd', 'e'])).join('');

before(async () => {
  console.log(`long-history-inbox: ${replay}`);
  plane = await startPlaneProcess();
  atlas = await plane.connect('atlas');
  await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
  // A long history of one path: claims of long patterns that all cover it, with long reasons, each released.
  for (let bytes = 0; bytes <= GROWN_PAST_BYTES; ) {
    const patterns = random.sample(COVERING, limits.patterns.max);
    const reason = text(random.int(limits.reason.max / 2, limits.reason.max));
    const granted = await atlas.call('fleet_claim_path', { patterns, root: repo, reason });
    assert.equal(granted.granted, true);
    heldIds.push(...granted.claims.map((claim) => claim.id));
    await atlas.call('fleet_release_path', { claimIds: granted.claims.map((claim) => claim.id) });
    bytes += Buffer.byteLength(JSON.stringify(granted.claims)) + granted.claims.length * reason.length;
  }
  // A long inbox: BOREAS joins through the CLI (which keeps its session), ATLAS writes to it.
  const joined = await runCli(['join', '--callsign', 'BOREAS', '--runtime', 'script'], { home: plane.home, cwd: repo });
  assert.equal(joined.code, 0, joined.stderr);
  for (let bytes = 0; bytes <= GROWN_PAST_BYTES; ) {
    const body = text(random.int(limits.body.max / 2, limits.body.max));
    sentIds.push((await atlas.call('fleet_message_send', { to: { callsign: 'BOREAS' }, type: 'INFO', body })).message.id);
    bytes += body.length;
  }
  console.log(`${heldIds.length} holds of ${PATH}, ${sentIds.length} messages`);
});

after(async () => {
  atlas?.close();
  await plane?.stop();
  removeHome(plane.home);
  removeHome(repo);
});

/** Gathers `method` page by page over a raw connection, checking each page's size. */
async function gatherChecked(client: PlaneClient, method: string, params: object): Promise<{ pages: number; largest: number }> {
  let pages = 0;
  let largest = 0;
  await gatherPages(async (page) => {
    const reply = (await client.callRaw(method, { ...params, ...page })) as PageReply;
    pages++;
    largest = Math.max(largest, Buffer.byteLength(JSON.stringify(reply)));
    return reply;
  });
  assert.ok(largest <= PAGE_AT_MOST_BYTES, `${method}: a page of ${largest} bytes (limit ${PAGE_AT_MOST_BYTES}; ${replay})`);
  return { pages, largest };
}

test('a long path history and a long inbox come in bounded pages, gathered whole by the CLI, while another client is answered within 50 ms', async () => {
  const probe = startBystanderProbe({ port: plane.port }, plane.token);
  let answered!: ProbeReport;
  await probe.ready;
  try {
    const historyPages = await gatherChecked(atlas, 'fleet_path_history', { path: PATH, root: repo });
    const history = await runCli(['history', PATH, '--json'], { home: plane.home, cwd: repo });
    assert.equal(history.code, 0, history.stderr);
    const { entries, totals } = JSON.parse(history.stdout) as Result<'fleet_path_history'>;
    assert.deepEqual(entries.map((entry) => entry.claimId), heldIds, `every hold, oldest first (${replay})`);
    assert.ok(entries.every((entry) => entry.ended === 'released'));
    assert.equal(totals.entries, heldIds.length);

    // The same inbox over a connection re-attached as BOREAS, page by page.
    const boreas = await plane.connect('boreas-reader');
    try {
      await boreas.call('fleet_agent_join', { callsign: 'BOREAS', runtime: 'script', sessionToken: loadSession(plane.home, 'BOREAS')!.sessionToken });
      const inboxPages = await gatherChecked(boreas, 'fleet_inbox', {});
      const inbox = await runCli(['inbox', '--as', 'BOREAS', '--json'], { home: plane.home, cwd: repo });
      assert.equal(inbox.code, 0, inbox.stderr);
      const gathered = JSON.parse(inbox.stdout) as Result<'fleet_inbox'>;
      assert.deepEqual(gathered.messages.map((message) => message.id), [...sentIds].reverse(), `every message, newest first (${replay})`);
      assert.equal(gathered.unread, sentIds.length);
      const limited = await runCli(['inbox', '--as', 'BOREAS', '--limit', '3'], { home: plane.home, cwd: repo });
      assert.match(limited.stdout, new RegExp(`and ${sentIds.length - 3} more messages`));
      console.log(`history: ${historyPages.pages} pages, largest ${historyPages.largest} B; inbox: ${inboxPages.pages} pages, largest ${inboxPages.largest} B`);
    } finally {
      boreas.close();
    }
  } finally {
    answered = await probe.stop();
    console.log(`long-history-inbox: the bystander was answered ${answered.count} times, p50 ${answered.p50Ms.toFixed(1)} ms, p95 ${answered.p95Ms.toFixed(1)} ms, slowest ${answered.maxMs.toFixed(1)} ms; ${replay}`);
  }
  assert.ok(answered.p95Ms <= ANSWER_WITHIN_MS, `the bystander's p95 was ${answered.p95Ms.toFixed(1)} ms (${replay})`);
  assert.ok(answered.maxMs <= OUTLIER_MS, `the bystander waited ${answered.maxMs.toFixed(1)} ms (${replay})`);
});
