// The train in the editor (issue 24 item 5): agents on worktrees and branches of their own in the
// workspace's repository, their accepted work landed by the plane's real train (real git merges,
// a real build command): the Explorer marks the files held until their item lands; the Work view's
// Train lists the batch building with its build's output, what is queued behind it, what landed
// with its merge commit, and no status group repeats them (no Landing or Landed group); an item the
// train cannot land (the target checked out in a worktree) is in the "Failed to land" group and in
// Needs You (not in the Train too), whose action opens the reason.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WorkItem } from '../../../contracts/index.js';
import type { TreeWork } from '../../../extension/src/views/tree-counter.js';
import type { WorkRow } from '../../../extension/src/views/work-view.js';
import { git, TrainFleet } from '../support/train-fleet.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { when } from './waits.js';

export function trainTests(fx: () => Fixture): void {
  let fleet: TrainFleet;
  const items: Record<string, string> = {};
  const item = async (id: string): Promise<WorkItem> => (await fleet.operator.call('fleet_work_list', { id })).items[0]!;
  /** The Work view's rows, four levels down, once `check` holds (re-checked after each repaint). */
  const rows = <T>(check: (rows: WorkRow[]) => T | undefined | false, what: string, timeoutMs = 30_000) => when(fx().api.onDidRepaintWork, () => check(fx().api.workRows(4)), what, timeoutMs);
  const section = (all: WorkRow[], label: string) => all.find((row) => row.id.startsWith('train:'))?.children.find((row) => row.label === label);
  /** "group: title" for each status group row of one of `ids` (its row id names the item). */
  const groupsListing = (all: WorkRow[], ids: string[]) =>
    all.filter((row) => row.id.startsWith('status:')).flatMap((group) => group.children.filter((row) => ids.some((id) => row.id.endsWith(`:${id}`))).map((row) => `${group.label}: ${row.label}`));

  // The Work view is hidden until the third test shows it: what changes before reaches VS Code only then.
  let hidden: { work: TreeWork; repaints: number; counting: vscode.Disposable } | undefined;

  test('the plane, a verifier, and the workspace checked out on a branch of its own (so the train may move main)', async () => {
    await fx().state((s) => s.connection.status === 'connected', 'the extension to reach (start) the plane');
    const counting = fx().api.onDidRepaintWork(() => {
      if (hidden) hidden.repaints++;
    });
    hidden = { work: fx().api.treeWork().work, repaints: 0, counting };
    fleet = await TrainFleet.open(fx().home, fx().workspace);
  });

  test('a file held for an accepted item until it lands has its own Explorer badge, naming the item and its branch', async () => {
    items.parser = await fleet.acceptedItem('BOREAS', 'Parse empty input', { 'src/b.ts': 'export const b = 20;\n' });
    const decoration = await fx().decoration('src/b.ts', (d) => d?.badge === '⤓', 'src/b.ts marked as awaiting landing');
    assert.match(decoration?.tooltip ?? '', new RegExp(`awaiting landing: item ${items.parser} \\(Parse empty input\\), branch boreas-work`));
    assert.notEqual(decoration?.badge, '⇄', "not the forecast's mark");
    const untouched = await fx().api.fileDecoration(fx().uri('src/c.ts'));
    assert.equal(untouched?.badge, undefined, 'a file nobody holds has no mark');
  });

  test('the Work view: the batch building with its build output, an item queued behind it; then both landed with their merge commits', async () => {
    items.docs = await fleet.acceptedItem('BOLT', 'Document the parser', { 'docs/guide.md': '# Guide\n\nThe parser.\n' });
    // One item a batch, a build that prints and then waits for the gate: the first builds while the second waits.
    const gate = join(fleet.trees, 'gate');
    await fleet.operator.call('fleet_integrate_configure', { root: fx().workspace, batchSize: 1, buildCommand: fleet.gatedBuild(gate) });
    // Hidden, the Work view followed the queue (BOREAS's item from added to accepted) and told VS Code
    // nothing: a refresh handed on then lands in the middle of VS Code's first read of the view when it
    // shows, and its tree gave rows to the wrong parent, drew them over each other, lost the Train's
    // Queued and Landed rows ("Data tree node not found").
    const { work: before, repaints, counting } = hidden!;
    counting.dispose();
    assert.ok(repaints > 0, 'the Work view repainted for the changes while hidden');
    const told = fx().api.treeWork().work;
    assert.deepEqual({ rows: told.rowsRefreshed, whole: told.fullRefreshes }, { rows: before.rowsRefreshed, whole: before.fullRefreshes }, 'VS Code told of no change while the view was hidden');
    await vscode.commands.executeCommand('fleet.work.focus');
    // Shown, once VS Code's read of it is over: one whole refresh for what changed while hidden.
    await when(fx().api.onDidBuildTreeItem, () => fx().api.treeWork().work.fullRefreshes > before.fullRefreshes, 'the Work view refreshed once shown');
    // Every parent each train row id is given under, at each repaint: VS Code's tree loses a row whose id moves to another parent ("Data tree node not found").
    const parentsOf = new Map<string, Set<string>>();
    const tracking = fx().api.onDidRepaintWork(() => {
      for (const sectionRow of fx().api.workRows(3).find((row) => row.id.startsWith('train:'))?.children ?? []) {
        for (const row of sectionRow.children) parentsOf.set(row.id, (parentsOf.get(row.id) ?? new Set()).add(sectionRow.id));
      }
    });
    await fleet.operator.call('fleet_land', { ids: [items.parser!, items.docs!], root: fx().workspace });
    const train = await rows((all) => {
      const building = section(all, 'Building now');
      const queued = section(all, 'Queued to land');
      const output = building?.children.find((row) => row.label === 'Build output');
      return building?.children.some((row) => row.label === 'Parse empty input') && queued?.children.some((row) => row.label === 'Document the parser') && output?.children.some((row) => row.label === 'compiling the parser') && all;
    }, 'the Train: Parse empty input building (its output shown), Document the parser queued');
    const head = train.find((row) => row.id.startsWith('train:'))!;
    assert.equal(head.label, 'Train → main');
    assert.equal(head.description, '1 building · 1 queued');
    const queuedRow = section(train, 'Queued to land')!.children.find((row) => row.label === 'Document the parser')!;
    assert.match(queuedRow.description ?? '', /^bolt-work @ [0-9a-f]{10}/);
    // One place for what moves along the train: no status group repeats the Train's rows.
    assert.deepEqual(groupsListing(train, [items.parser!, items.docs!]), [], 'the items on the Train are in no status group (no Landing group)');
    assert.ok(!train.some((row) => row.id === 'status:landing'), 'no Landing group: the Train lists both');

    writeFileSync(gate, '');
    const landed = await rows((all) => {
      const rowsLanded = section(all, 'Landed')?.children ?? [];
      return rowsLanded.length === 2 && all;
    }, 'both items in the Train under Landed');
    for (const id of [items.parser!, items.docs!]) {
      const done = await item(id);
      assert.equal(done.status, 'landed');
      const commit = done.landedCommit!;
      assert.equal(git(fx().workspace, 'rev-parse', `${commit}^2`), done.integration!.commit, 'the merge commit of exactly the commit queued');
      const row = section(landed, 'Landed')!.children.find((r) => r.label === done.title)!;
      assert.equal(row.description?.split(' · ')[0], commit.slice(0, 10), 'the landed row shows its merge commit');
    }
    assert.deepEqual(groupsListing(landed, [items.parser!, items.docs!]), [], "what the Train lists as landed is in no status group (no Landed group)");
    assert.ok(!landed.some((row) => row.id === 'status:landed'), "no Landed group: the Train's Landed section lists both");
    tracking.dispose();
    const moved = [...parentsOf].filter(([, parents]) => parents.size > 1).map(([id, parents]) => `${id} under ${[...parents].join(' and ')}`);
    assert.deepEqual(moved, [], 'an item moving from Building now to Landed is a new row, not one id under two parents');
    // Landed: its held claim ended, and with it the mark.
    await fx().decoration('src/b.ts', (d) => d?.badge !== '⤓', 'the awaiting-landing mark gone once landed');
  });

  test('an item the train cannot land (main checked out in a worktree) is in "Failed to land" and in Needs You, not in the Train; Show Reason opens why', async () => {
    const checkedOut = join(fleet.trees, 'main-checkout');
    git(fx().workspace, 'worktree', 'add', '-q', checkedOut, 'main');
    try {
      items.lexer = await fleet.acceptedItem('CYRUS', 'Tokenize numbers', { 'src/c.ts': 'export const c = 30;\n' });
      await fleet.operator.call('fleet_land', { ids: [items.lexer], root: fx().workspace });
      const entry = await when(fx().api.onDidChangeAttention, () => fx().api.attention().find((e) => e.itemId === items.lexer && e.kind === 'landing'), 'Tokenize numbers in Needs You as could not land', 30_000);
      const failed = await item(items.lexer);
      assert.equal(failed.status, 'land_failed');
      assert.equal(entry.description, `could not land: ${failed.statusReason}`);
      assert.match(failed.statusReason ?? '', /checked out/);
      const group = await rows((all) => all.find((row) => row.id === 'status:land_failed' && row.children.some((r) => r.label === 'Tokenize numbers')), 'the Failed to land group');
      assert.equal(group.label, 'Failed to land');
      assert.equal(group.icon, 'git-pull-request-closed');
      // One place for what could not land: the Train does not list it again (nor count it as sent back).
      const train = await rows((all) => all.find((row) => row.id.startsWith('train:') && row.description?.includes('could not land')), "the Train's count of what could not land");
      assert.equal(train.description, '2 landed · 1 could not land (in Failed to land)');
      const listed = train.children.flatMap((sectionRow) => sectionRow.children.filter((r) => r.label === 'Tokenize numbers').map((r) => `${sectionRow.label}: ${r.label}`));
      assert.deepEqual(listed, [], 'the Train lists nothing that failed to land');

      await vscode.commands.executeCommand('fleet.attention.showReason', { itemId: items.lexer });
      const shown = await when(vscode.window.onDidChangeActiveTextEditor, () => vscode.window.activeTextEditor?.document.getText().includes(failed.statusReason!) && vscode.window.activeTextEditor.document, 'the reason opened in an editor');
      assert.match(shown.getText(), /# Tokenize numbers/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      git(fx().workspace, 'worktree', 'remove', '--force', checkedOut);
      fleet.close();
    }
  });
}
