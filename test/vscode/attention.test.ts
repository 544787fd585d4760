// What waits for the operator, at a glance and actionable (issue 26 item 7; issue 25, the editor):
// in the extension host ("attention" phase, test/vscode/suite/attention-tests.ts) the Needs You
// view's entries and its commands against a real plane; on screen (Playwright) the view, its badge
// and the status bar count with a busy fleet (fleet demo) and one of each kind of entry, in light,
// dark and high-contrast themes, and the digest in an editor tab leading with its summary. The
// screenshots go to test-results/screenshots/<vscode version>/ (docs/screenshots/ keeps a set).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { connectToPlane } from '../../server/client/connect.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { ENGINE_VERSIONS, loadEngine, openWorkbench, selectedEngineIds, type Workbench } from './harness/index.js';
import { runFromPalette, setColorTheme } from './support/command-palette.js';
import { startDemoFleet } from './support/demo-fleet.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';
import { clickInWebview, webviewText } from './support/webview-frame.js';

const EXPECTED_TESTS = 5;
const CRITERIA = ['the parser tests pass', 'empty input is an error'];

/** Light, dark and high contrast, with the class VS Code puts on the workbench for each. */
const THEMES: [string, string][] = [
  ['Light Modern', 'vs'],
  ['Dark Modern', 'vs-dark'],
  ['Dark High Contrast', 'hc-black'],
];

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`What needs the operator, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 600_000 }, () => {
    const home = makeHome();
    const screenHome = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-attention-results.json`);
    const shots = join(REPO_ROOT, 'test-results', 'screenshots', ENGINE_VERSIONS[id].vscode);
    let workbench: Workbench | undefined;
    let demo: ChildProcess | undefined;
    const clients: PlaneClient[] = [];
    after(async () => {
      demo?.kill('SIGCONT');
      demo?.kill();
      for (const client of clients) client.close();
      await workbench?.close();
      await stopPlane(home);
      await stopPlane(screenHome);
      removeDir(home);
      removeDir(screenHome);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test('Needs You: an escalated question answered, accept and send back citing the report, a runtime waiting for a person, inside the extension host', async () => {
      await runInHostPhase({ engine: id, phase: 'attention', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS });
    });

    test('on screen with a busy fleet: the count in the status bar, Needs You with one of each kind, in light, dark and high contrast; the digest in an editor tab, summary first', async (t) => {
      mkdirSync(shots, { recursive: true });
      t.after(async () => {
        // What the page showed when a step failed, to look at.
        if (!passed) await workbench?.page.screenshot({ path: join(shots, 'attention-failed.png') }).catch(() => undefined);
      });
      let passed = false;
      workbench = await openWorkbench({ engine: loadEngine(id), workspacePath: workspace, extensionPath: REPO_ROOT, env: { FLEET_HOME: screenHome, FLEET_PORT: '0' } });
      const { page } = workbench;
      await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 90_000 });

      // A busy fleet: the demo's agents at work on the same plane.
      demo = await startDemoFleet(screenHome);
      await busyFleet(screenHome);
      // Frozen for the shots (SIGSTOP; SIGCONT before it is ended): its agents keep their places on
      // the roster and their claims, and its RTE, which accepts every verified item, leaves the
      // operator's items alone.
      demo.kill('SIGSTOP');
      await busyOperatorQueue(screenHome, workspace, clients);

      // Two decisions to take, a question to answer, an agent waiting (and whatever the demo escalated).
      const count = page.locator('.statusbar-item', { hasText: /\b([4-9]|\d{2,}) need you/ }).first();
      await count.waitFor({ timeout: 30_000 });
      await count.click(); // the count opens Needs You
      const sidebar = page.locator('.part.sidebar');
      // Needs You with the roster under it: Territory and the Digest folded for the shot (the list is virtual: rows out of sight are not drawn).
      for (const title of ['Territory', 'Digest']) {
        const header = sidebar.locator('.pane-header', { hasText: new RegExp(`^${title}`, 'i') }).first();
        if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
      }
      // A wider sidebar (its right edge dragged), so the rows' descriptions read in the shots.
      const side = await sidebar.boundingBox();
      if (side) await drag(page, side.x + side.width + 1, side.y + side.height / 2, 260, 0);
      // Needs You taller: its lower edge dragged down (the sash between it and the Roster).
      const sash = sidebar.locator('.monaco-sash.horizontal').first();
      const edge = await sash.boundingBox();
      if (edge) await drag(page, edge.x + edge.width / 2, edge.y + edge.height / 2, 0, 220);
      const question = sidebar.locator('.monaco-list-row', { hasText: 'Pick the parser' }).first();
      await question.waitFor({ timeout: 20_000 });
      if ((await question.getAttribute('aria-expanded')) !== 'true') await question.click();
      await sidebar.getByText('rewrite it with a PEG grammar').first().waitFor({ timeout: 20_000 });
      await sidebar.getByText('NOVA asks permission').first().waitFor({ timeout: 20_000 });
      await sidebar.getByText('Parse empty input').first().waitFor({ timeout: 20_000 });

      for (const [theme, bodyClass] of THEMES) {
        await setColorTheme(page, theme);
        await page.locator(`.monaco-workbench.${bodyClass}`).first().waitFor({ timeout: 20_000 });
        await page.mouse.move(640, 700); // no tooltip over the view
        await question.hover(); // the row's actions show on hover: Answer, Send Back, Decide, Release
        await sidebar.locator('.monaco-list-row.focused .actions, .monaco-list-row:hover .actions').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
        await page.screenshot({ path: join(shots, `attention-${bodyClass}.png`) });
      }

      // The digest in an editor tab: what needs you first, then the counts, then the lists.
      await setColorTheme(page, 'Light Modern');
      assert.equal(await runFromPalette(page, 'Fleet: Open Digest in Editor'), 'Fleet: Open Digest in Editor');
      const text = await editorDigestText(page);
      const order = ['WHAT NEEDS YOU', 'escalated question(s) to answer', 'verified item(s) to accept or send back', 'agent(s) waiting for a person', 'event(s)', 'ESCALATIONS WAITING FOR THE OPERATOR'].map((part) => text.toUpperCase().indexOf(part.toUpperCase()));
      assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), `the summary leads, in order:\n${text.slice(0, 1500)}`);
      // The live digest ("Now"), wide: the secondary side bar out of the way.
      await page.keyboard.press('Control+Alt+KeyB');
      await clickInWebview(page, '#digest', 'button.tab', 'Now');
      await webviewText(page, '#digest', 'Since the last published digest');
      await page.mouse.move(640, 700);
      await page.screenshot({ path: join(shots, 'digest-editor-light.png') });
      passed = true;
    });
  });
}

/** Resolves once the demo's agents are at work: several on the roster, items in progress, claims held. */
async function busyFleet(home: string): Promise<void> {
  const operator = await connectToPlane({ home, client: 'ui-watch', autoStart: false, credential: 'operator' });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await operator.call('fleet_status', {});
      const working = (await operator.call('fleet_work_list', { status: 'in_progress' })).items.length;
      if (status.agents.length >= 4 && status.claims.length > 0 && working > 0) return;
      if (Date.now() > deadline) throw new Error(`the demo did not get busy within 60 s: ${status.agents.length} agents, ${status.claims.length} claims, ${working} items in progress`);
      await new Promise((resolve) => setTimeout(resolve, 250)); // no event says "busy enough": look again
    }
  } finally {
    operator.close();
  }
}

/**
 * One of each kind of entry beside the demo's traffic, by agents of tier edge on items of tier edge
 * (the demo's local agents never pull them, ours never pull the demo's tasks): a question past its
 * budget, two verified items, an agent waiting for a person (as its Notification hook records it).
 */
async function busyOperatorQueue(home: string, workspace: string, clients: PlaneClient[]): Promise<void> {
  const connect = async (callsign: string, role: 'builder' | 'verifier', runtime: string) => {
    const client = await connectToPlane({ home, client: `ui-${callsign}`, autoStart: false });
    clients.push(client);
    await client.call('fleet_agent_join', { callsign, runtime, role, tier: 'edge' });
    return client;
  };
  const operator = await connectToPlane({ home, client: 'ui-operator', autoStart: false, credential: 'operator' });
  clients.push(operator);
  const builder = await connect('NOVA', 'builder', 'claude-code');
  const verifier = await connect('VEGA', 'verifier', 'codex');
  const add = async (title: string, budgets?: { reworkRounds: number; clarificationRounds: number }) =>
    (await operator.call('fleet_work_add', { title, root: workspace, criteria: CRITERIA, kind: 'task', tier: 'edge', ...(budgets && { budgets }) })).item.id;
  const passing = (criteria: string[]) => ({ verdicts: criteria.map((criterion) => ({ criterion, verdict: 'pass' as const, evidence: 'npm test: 14 passing' })) });
  // A verifier reviews whatever is in review first: the demo's items before ours get a pass too.
  const reviewOwn = async (id: string) => {
    for (let tries = 0; tries < 50; tries++) {
      const { item } = await verifier.call('fleet_work_pull', {});
      if (!item) break;
      await verifier.call('fleet_work_update', { id: item.id, action: 'verify', report: passing(item.criteria) });
      if (item.id === id) return;
    }
    throw new Error(`${id} never came up for review`);
  };
  for (const title of ['Parse empty input', 'Parse nested lists']) {
    const id = await add(title);
    assert.equal((await builder.call('fleet_work_pull', {})).item?.id, id);
    await builder.call('fleet_work_update', { id, action: 'complete', artifact: { touchedFiles: ['src/a.ts'], commands: [{ command: 'npm test', exitCode: 0 }], criteria: CRITERIA, summary: 'a parser branch for empty input' } });
    await reviewOwn(id);
  }
  const asked = await add('Pick the parser', { reworkRounds: 3, clarificationRounds: 0 });
  assert.equal((await builder.call('fleet_work_pull', {})).item?.id, asked);
  await builder.call('fleet_work_update', { id: asked, action: 'clarify', question: 'Which parser do we keep?', context: 'the grammar grows every release', confidence: 'low', options: ['keep the hand-written parser', 'rewrite it with a PEG grammar'] });
  await builder.call('fleet_hook_waiting', { callsign: 'NOVA', hook: 'claude-notification', reason: 'permission', message: 'Claude needs your permission to use Bash', tool: 'Bash' });
}

/** Drags a sash from (x, y) by (dx, dy), as a person resizes a part of the workbench. */
async function drag(page: Page, x: number, y: number, dx: number, dy: number): Promise<void> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

/** The text of the digest's editor tab (its webview frame), once it has rendered a digest. */
async function editorDigestText(page: Page): Promise<string> {
  await page.locator('.tab', { hasText: 'Fleet Digest' }).first().waitFor({ timeout: 20_000 });
  return webviewText(page, '#digest', 'What needs you');
}
