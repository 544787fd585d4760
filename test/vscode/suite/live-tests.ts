// The editor under a live fleet (issue 16, items 1 and 2): marks that tell agents apart, shared
// claims that are not a conflict, folder roll-up, and work that follows what changed — counted tree
// items and decoration changes per event while a fleet churns, never a full refresh.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FleetChanges } from '../../../contracts/lsp.js';
import type { TreeWork } from '../../../extension/src/views/tree-counter.js';
import { GROUP_ROWS } from '../../../extension/src/views/work-view.js';
import type { Fixture } from './fixture.js';
import { measure, test } from './runner.js';
import { TestAgent } from './test-agent.js';
import { when } from './waits.js';

const CHURN_CYCLES = 40;
/** Rows a grant or release may name for refresh: the holder's row in Territory and its roster row. */
const ROWS_PER_EVENT = 2;
/**
 * Tree items VS Code may then have built: that holder row with its (two) claim rows, and the roster
 * row, when it refreshes for each event alone (it usually merges several).
 */
const ITEMS_PER_EVENT = 5;
/** Agents that keep a dozen claims each, their rows expanded: what any full refresh would rebuild (~90 items). */
const BYSTANDERS = ['DELTA', 'ECHO', 'FOXTROT', 'GEMMA', 'HYDRA', 'IONA'];
const CLAIMS_EACH = 12;
/** A queue ten times longer than a group lists: what a full group would rebuild on each change. */
const QUEUE = 10 * GROUP_ROWS;
/** Besides a group's listed rows: the group rows, its "… and N more" row, the pulled item's row in its new group. */
const ROWS_AROUND = 10;
/** Builders pulling and completing at once while the Work view shows: items move between groups under VS Code's refreshes. */
const BUILDERS = ['MU', 'NU', 'XI'];
const ROUNDS_EACH = 15;

export function liveTests(fx: () => Fixture): void {
  const agents: Record<string, TestAgent> = {};
  const agent = (callsign: string) => agents[callsign] ?? assert.fail(`${callsign} has not joined: an earlier test failed`);

  test('BOREAS and BOLT get distinct marks, on the roster and on their files', async () => {
    const { home, workspace } = fx();
    await fx().state((s) => s.connection.status === 'connected', 'the extension to reach (start) the plane');
    for (const callsign of ['BOREAS', 'BOLT', 'CYRUS']) agents[callsign] = await TestAgent.join(home, callsign);
    const state = await fx().state((s) => s.agents.length >= 3 && s, 'three agents on the roster');
    const marks = Object.fromEntries(state.agents.map((a) => [a.callsign, a.mark]));
    assert.equal(marks.BOREAS, 'BO');
    assert.equal(marks.BOLT, 'BL', 'BOLT may not read BO as BOREAS does');
    assert.equal(new Set(Object.values(marks)).size, state.agents.length, 'one mark per live agent');

    const boreasBadge = fx().decoration('src/a.ts', (d) => d?.badge === 'BO', 'BO on src/a.ts');
    const boltBadge = fx().decoration('src/b.ts', (d) => d?.badge === 'BL', 'BL on src/b.ts');
    assert.ok((await agent('BOREAS').claim(['src/a.ts'], workspace)).granted);
    assert.ok((await agent('BOLT').claim(['src/b.ts'], workspace)).granted);
    const [a, b] = await Promise.all([boreasBadge, boltBadge]);
    assert.match(a?.tooltip ?? '', /BOREAS holds it exclusively/);
    assert.match(b?.tooltip ?? '', /BOLT holds it exclusively/);
  });

  test('fleet.agentColors paints one agent in its own colour', async () => {
    const recoloured = fx().decoration('src/b.ts', (d) => (d?.color as vscode.ThemeColor | undefined)?.id === 'charts.purple', 'BOLT in purple');
    await vscode.workspace.getConfiguration('fleet').update('agentColors', { BOLT: 'charts.purple' }, vscode.ConfigurationTarget.Global);
    try {
      await recoloured;
      assert.equal(((await fx().api.fileDecoration(fx().uri('src/a.ts')))?.color as vscode.ThemeColor).id, 'fleet.ownedByOther', 'BOREAS keeps the usual colour');
    } finally {
      await vscode.workspace.getConfiguration('fleet').update('agentColors', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('two shared holders share docs/**: a shared badge, not contested, not blocked', async () => {
    const { api, workspace, uri } = fx();
    const shared = fx().decoration('docs/guide.md', (d) => d?.badge === '∥2', 'the shared-by-two badge on docs/guide.md');
    assert.ok((await agent('BOREAS').claim(['docs/**'], workspace, { mode: 'shared' })).granted);
    assert.ok((await agent('BOLT').claim(['docs/**'], workspace, { mode: 'shared' })).granted);
    const decoration = await shared;
    assert.equal((decoration?.color as vscode.ThemeColor).id, 'fleet.sharedByOther');
    assert.match(decoration?.tooltip ?? '', /shared by BOREAS, BOLT/);
    assert.doesNotMatch(decoration?.tooltip ?? '', /contested/);
    const ownership = await api.ownership(uri('docs/guide.md'));
    assert.equal(ownership?.kind, 'shared');
    assert.equal(ownership?.blocked, false);
  });

  test('folder roll-up: lib/** badges lib itself; a folder with claims inside says how many', async () => {
    const { workspace } = fx();
    const lib = fx().decoration('lib', (d) => d?.badge === 'BL', 'BL on the lib folder');
    assert.ok((await agent('BOLT').claim(['lib/**'], workspace)).granted);
    await lib;
    assert.equal((await fx().api.fileDecoration(fx().uri('lib/deep/x.ts')))?.badge, 'BL', 'the same mark inside');

    const three = fx().decoration('pkg', (d) => d?.badge === '3', '"3" on the collapsed pkg folder');
    assert.ok((await agent('CYRUS').claim(['pkg/a/x.ts', 'pkg/b/**', 'pkg/c.ts'], workspace)).granted);
    const decoration = await three;
    assert.match(decoration?.tooltip ?? '', /3 claims held inside/);
    assert.equal((decoration?.color as vscode.ThemeColor).id, 'fleet.heldInside');
    const two = fx().decoration('pkg', (d) => d?.badge === '2', '"2" once one is released');
    await agent('CYRUS').release(['pkg/c.ts'], workspace);
    await two;
  });

  test('a churning fleet: tree items and decoration changes follow each event, never a full refresh', async () => {
    const { api, workspace, uri } = fx();
    // Bystanders hold ten files each (rows expanded: the cost of any full refresh), BOLT a bulk it keeps.
    for (const callsign of BYSTANDERS) {
      agents[callsign] = await TestAgent.join(fx().home, callsign);
      assert.ok((await agent(callsign).claim(Array.from({ length: CLAIMS_EACH }, (_, i) => `held/${callsign}/c${i}.ts`), workspace)).granted);
    }
    // The churner keeps one claim throughout, so its row stays (a row that comes and goes is the list changing).
    agents.KAPPA = await TestAgent.join(fx().home, 'KAPPA');
    assert.ok((await agent('KAPPA').claim(['held/KAPPA/keep.ts'], workspace)).granted);
    for (let chunk = 0; chunk < 4; chunk++) {
      assert.ok((await agent('BOLT').claim(Array.from({ length: 50 }, (_, i) => `bulk/${chunk}/f${i}.ts`), workspace)).granted);
    }
    await fx().state((s) => s.claims.filter((c) => c.pattern.startsWith('bulk/')).length === 200 && s, 'the bulk claims in the view state');
    await vscode.commands.executeCommand('workbench.view.extension.fleet');
    await when(api.onDidBuildTreeItem, () => api.treeWork().territory.itemsBuilt > 0, 'the Territory view to show');
    // Every churned file and its folder asked about once, as the Explorer would: the server watches them.
    const churned = Array.from({ length: CHURN_CYCLES }, (_, i) => `churn/f${i}.ts`);
    await Promise.all([...churned, 'churn'].map((path) => api.fileDecoration(uri(path))));

    const before = api.treeWork();
    let decorationUris = 0;
    let records = 0;
    let wholeStates = 0;
    const granted = new Set<string>();
    const released = new Set<string>();
    const counting = [
      api.onDidChangeFileDecorations((uris) => (decorationUris += uris.length)),
      api.onDidChangeFleet((changes) => {
        if (changes === 'all') wholeStates++;
        else records += recordsIn(changes);
        if (changes === 'all') return;
        for (const claim of changes.claims) granted.add(claim.id);
        for (const id of changes.releasedClaims) released.add(id);
      }),
    ];
    try {
      // Each event is waited for before the next, so the work is counted per event: a grant and its
      // release read by the server in one go are rightly sent as one change (seen on a loaded machine).
      for (const path of churned) {
        const claim = await agent('KAPPA').claim([path], workspace);
        assert.ok(claim.granted);
        const id = claim.claims[0]!.id;
        await when(api.onDidChangeFleet, () => granted.has(id), `the grant of ${path} in the extension`);
        await agent('KAPPA').release([path], workspace);
        await when(api.onDidChangeFleet, () => released.has(id), `the release of ${path} in the extension`);
      }
      await fx().state((s) => !s.claims.some((c) => c.pattern.startsWith('churn/')) && s.agents.find((a) => a.callsign === 'KAPPA')?.claimCount === 1 && s, 'the last release in the view state');
      // The views build what they were told to on their next paint: wait for the Territory view to settle.
      const settled = await quiet(api.onDidBuildTreeItem, 1000);
      const after = api.treeWork();
      const delta = (key: keyof TreeWork) => (['roster', 'territory', 'work'] as const).reduce((sum, tree) => sum + after[tree][key] - before[tree][key], 0);
      const events = CHURN_CYCLES * 2;
      const work = { rowsRefreshed: delta('rowsRefreshed'), fullRefreshes: delta('fullRefreshes'), itemsBuilt: delta('itemsBuilt') };
      measure('churn', { events, records, wholeStates, ...work, decorationUris, settled });
      assert.equal(wholeStates, 0, 'no whole state while the fleet churns');
      assert.equal(work.fullRefreshes, 0, 'no view refreshed as a whole');
      assert.ok(records >= events, `each grant and release reached the extension as a change (${records} records)`);
      assert.ok(work.rowsRefreshed <= ROWS_PER_EVENT * events, `${work.rowsRefreshed} rows refreshed for ${events} events: more than ${ROWS_PER_EVENT} each`);
      assert.ok(work.rowsRefreshed > 0, "the views refreshed the rows that changed");
      assert.ok(work.itemsBuilt <= ITEMS_PER_EVENT * events, `${work.itemsBuilt} tree items built for ${events} events: more than ${ITEMS_PER_EVENT} each`);
      // Each grant and release changes one watched file's badge and the churn folder's count.
      assert.ok(decorationUris <= 2 * events, `${decorationUris} decoration changes for ${events} events`);
      assert.ok(decorationUris >= events, `each churned file's badge changed (${decorationUris})`);
    } finally {
      for (const subscription of counting) subscription.dispose();
    }
  });

  test('a long queue: the Ready group lists its oldest items and a "more" row; a pull rebuilds that, not the queue', async () => {
    const { api, workspace } = fx();
    agents.QUEUER = await TestAgent.join(fx().home, 'QUEUER');
    for (let i = 0; i < QUEUE; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, k) => agent('QUEUER').addWork(`queued ${String(i + k).padStart(5, '0')}`, workspace, [`queue/f${i + k}.ts`])));
    }
    await fx().state((s) => s.work.filter((item) => item.status === 'ready').length >= QUEUE && s, `the ${QUEUE} ready items in the view state`);
    const closed = api.treeWork().work.itemsBuilt;
    await vscode.commands.executeCommand('fleet.work.focus');
    await when(api.onDidBuildTreeItem, () => api.treeWork().work.itemsBuilt > closed, 'the Work view to show');
    await quiet(api.onDidBuildTreeItem, 1500);
    const opened = api.treeWork().work.itemsBuilt - closed;
    // VS Code may build a view twice as it shows: its first paint, then the refreshes it held while the view was hidden.
    assert.ok(opened <= 2 * (GROUP_ROWS + ROWS_AROUND), `showing the Work view built ${opened} tree items for a queue of ${QUEUE}: a group lists at most ${GROUP_ROWS}`);

    // The first pull opens the "In progress" group (the list of groups changes: a whole refresh); the second is measured.
    const pull = async (callsign: string) => {
      const pulled = (await agent(callsign).pull()).item ?? assert.fail(`${callsign} pulled nothing from a full queue`);
      await fx().state((s) => s.work.find((item) => item.id === pulled.id)?.status === 'in_progress' && s, `${pulled.id} in progress in the view state`);
      await quiet(api.onDidBuildTreeItem, 1500);
    };
    agents.PULLER = await TestAgent.join(fx().home, 'PULLER');
    await pull('PULLER');
    const before = api.treeWork().work;
    let wholeStates = 0;
    const counting = api.onDidChangeFleet((changes) => changes === 'all' && wholeStates++);
    await pull('QUEUER');
    counting.dispose();
    const after = api.treeWork().work;
    measure('longQueue', { queue: QUEUE, opened, wholeStates, full: after.fullRefreshes - before.fullRefreshes, pullBuilt: after.itemsBuilt - before.itemsBuilt, pullRows: after.rowsRefreshed - before.rowsRefreshed });
    assert.equal(after.fullRefreshes - before.fullRefreshes, 0, 'a pull refreshed the whole Work view');
    assert.ok(after.itemsBuilt - before.itemsBuilt <= GROUP_ROWS + ROWS_AROUND, `a pull built ${after.itemsBuilt - before.itemsBuilt} tree items: more than the ${GROUP_ROWS} a group lists`);

    // Builders pull and complete at once, the view showing: the window's log must stay free of
    // "Element with id … is already registered" (live-views.test.ts reads it).
    for (const callsign of BUILDERS) agents[callsign] = await TestAgent.join(fx().home, callsign);
    await Promise.all(
      BUILDERS.map(async (callsign) => {
        for (let round = 0; round < ROUNDS_EACH; round++) {
          const item = (await agent(callsign).pull()).item ?? assert.fail(`${callsign} pulled nothing from a full queue`);
          await agent(callsign).complete(item.id);
        }
      }),
    );
    await fx().state((s) => s.work.filter((item) => item.status === 'review').length >= BUILDERS.length * ROUNDS_EACH && s, 'the completed items in review in the view state');
    await quiet(api.onDidBuildTreeItem, 2500);
  }, 180_000);
}

function recordsIn(changes: FleetChanges): number {
  return changes.agents.length + changes.removedAgents.length + changes.claims.length + changes.releasedClaims.length + changes.work.length + changes.removedWork.length + (changes.control ? 1 : 0);
}

/**
 * The views build what they were told to when VS Code next asks (it debounces refreshes): resolves
 * once `event` has been silent for `quietMs` after its last firing, with how many times it fired.
 */
function quiet(event: vscode.Event<unknown>, quietMs: number): Promise<number> {
  return new Promise((resolve) => {
    let fired = 0;
    let timer = setTimeout(done, quietMs);
    const subscription = event(() => {
      fired++;
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    function done(): void {
      subscription.dispose();
      resolve(fired);
    }
  });
}
