// The Digest webview (media/digest.js) in a real Chromium: the conflict forecast and the write-sets
// the integrator could not compare (issue 23) are shown as `fleet digest`'s Markdown shows them, and a
// window with nothing else in it but an open forecast conflict is not called quiet. The page is the
// webview's own script and markup; only the webview host's `acquireVsCodeApi` is provided by the test
// (the extension's side is covered in the in-host suite).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { digestSchema, type Digest } from '../../contracts/digest.js';
import { launchChromium, type LaunchedBrowser } from './harness/browser.js';
import { REPO_ROOT } from './support/fleet-fixtures.js';

let browser: LaunchedBrowser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser.close());

const now = new Date().toISOString();

function digestWith(fields: Partial<Digest>): Digest {
  return digestSchema.parse({
    fromSeq: 1,
    toSeq: 40,
    generatedAt: now,
    control: { state: 'run', setBy: 'operator' },
    agents: [],
    staleAgents: [],
    builds: [],
    blockers: [],
    claims: { acquired: [], released: [] },
    handoffs: [],
    workCompleted: [],
    workCounts: {},
    eventCount: 0,
    ...fields,
  });
}

/** The text the webview shows once the extension posted `digest`. */
async function rendered(digest: Digest): Promise<string> {
  const { page } = browser;
  await page.setContent('<main id="digest"></main>');
  await page.evaluate(() => {
    (globalThis as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({ postMessage: () => undefined });
  });
  await page.addScriptTag({ content: readFileSync(join(REPO_ROOT, 'media', 'digest.js'), 'utf8') });
  const model = { connection: { status: 'connected', message: null, home: '/tmp/fleet' }, digest, error: null, shown: { kind: 'live' }, catchUpFrom: null, history: [] };
  await page.evaluate((posted) => (globalThis as unknown as { postMessage: (message: unknown, origin: string) => void }).postMessage({ type: 'digest', model: posted }, '*'), model);
  await page.locator('#digest h2').first().waitFor();
  return page.locator('#digest').innerText();
}

test('the Digest webview lists the forecast conflicts (found and cleared), how many are open, and the write-sets not compared', async () => {
  const text = await rendered(
    digestWith({
      eventCount: 3,
      forecasts: [
        { status: 'conflict', agent: 'ATLAS', other: 'BOLT', paths: ['src/parser.ts', 'src/lexer.ts'], at: now },
        { status: 'cleared', agent: 'CASTOR', other: 'main', paths: [], at: now },
      ],
      openForecastConflicts: 1,
      notCompared: [{ callsign: 'DELTA', branch: 'delta/tokens', reason: 'its commits are on a machine this plane cannot fetch from' }],
      notComparedCount: 3,
    }),
  );
  assert.match(text, /ATLAS and BOLT would conflict in src\/parser\.ts, src\/lexer\.ts/);
  assert.match(text, /CASTOR and main no longer conflict/);
  assert.match(text, /1 forecast merge conflict\(s\) open now/);
  assert.match(text, /DELTA \(delta\/tokens\): its commits are on a machine this plane cannot fetch from/);
  assert.match(text, /and 2 more not compared/);
  assert.doesNotMatch(text, /NaN|undefined/);
});

test('a window whose only news is an open forecast conflict is not "Nothing happened"', async () => {
  const text = await rendered(digestWith({ openForecastConflicts: 2 }));
  assert.doesNotMatch(text, /Nothing happened/);
  assert.match(text, /2 forecast merge conflict\(s\) open now/);
});
