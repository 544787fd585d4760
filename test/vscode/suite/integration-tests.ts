// Write-sets and the conflict forecast in the editor (issue 23): two agents in git worktrees of the
// workspace's repository, on branches of their own, edit one file differently. The Explorer marks
// the workspace's file `⇄`; the Territory view lists each agent's write-set and the conflict, and
// follows the forecast by refreshing those agents' rows only. A holder with more claims than a
// Territory row lists shows "… and N more", and a claim past the cap is still revealed. A write-set
// in a clone whose commits the integrator cannot reach says it was not compared, and why. A builder
// that completed on its branch and left keeps its write-set there while the item awaits landing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TerritoryRow } from '../../../extension/src/views/territory-view.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { TestAgent } from './test-agent.js';
import { when } from './waits.js';

/** The rows under a holder whose label starts with `callsign`, up to the next holder or repository. */
/** Writes `text` to src/c.ts in `worktree` and commits it (the plane sees a moved HEAD whenever it starts watching). */
function commitC(worktree: string, text: string): void {
  writeFileSync(join(worktree, 'src/c.ts'), text);
  execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', '-C', worktree, 'commit', '-qam', 'c'], { stdio: 'ignore' });
}

function rowsUnder(rows: readonly TerritoryRow[], callsign: string): TerritoryRow[] {
  const at = rows.findIndex((row) => row.depth === 1 && row.label.startsWith(callsign));
  if (at < 0) return [];
  const end = rows.findIndex((row, index) => index > at && row.depth <= 1);
  return rows.slice(at + 1, end < 0 ? undefined : end);
}

export function integrationTests(fx: () => Fixture): void {
  const trees = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-vscode-trees-')));
  const agents: Record<string, TestAgent> = {};

  test('a forecast conflict marks the file ⇄ and shows under both agents in Territory, each write-set with it', async () => {
    const { api, home, workspace } = fx();
    await fx().state((s) => s.connection.status === 'connected', 'the extension to reach (start) the plane');
    for (const callsign of ['ATLAS', 'BOLT']) {
      const worktree = join(trees, callsign.toLowerCase());
      execFileSync('git', ['-C', workspace, 'worktree', 'add', '-q', '-b', `work-${callsign.toLowerCase()}`, worktree, 'HEAD'], { stdio: 'ignore' });
      const agent = (agents[callsign] = await TestAgent.join(home, callsign, undefined, worktree));
      const { mark } = await agent.worktreeChanges(worktree);
      commitC(worktree, `export const c = '${callsign}';\n`);
      // The plane has seen the write before ATLAS claims the file: no violation, whenever the burst is judged.
      assert.ok((await agent.worktreeChanges(worktree, mark)).changes.some((change) => change.path === 'src/c.ts'));
    }
    assert.ok((await agents.ATLAS!.claim(['src/c.ts'], join(trees, 'atlas'), { reason: 'the c constant' })).granted);

    const rows = await when(api.onDidChangeTerritory, () => {
      const all = api.territory();
      return rowsUnder(all, 'BOLT').some((row) => row.label === '⇄ with ATLAS') && rowsUnder(all, 'ATLAS').some((row) => row.label === '⇄ with BOLT') && all;
    }, 'both agents\' forecast conflict in Territory', 40_000);
    // The same notification marks the workspace's file (the plane's poll may take a few seconds to see both commits: waited for above).
    const decoration = await fx().decoration('src/c.ts', (d) => d?.badge === '⇄', '⇄ on src/c.ts');
    assert.match(decoration?.tooltip ?? '', /ATLAS/);
    assert.match(decoration?.tooltip ?? '', /BOLT/);
    const atlas = rowsUnder(rows, 'ATLAS');
    assert.deepEqual(atlas.map((row) => [row.label, row.description]), [
      ['work-atlas → main', '1 path changed'],
      ['⇄ with BOLT', 'src/c.ts'],
      ['src/c.ts', 'the c constant'],
    ], 'its write-set, its conflict, then its claim');
    assert.match(atlas[1]!.tooltip, /BOLT's branch work-bolt/);
    assert.deepEqual(rowsUnder(rows, 'BOLT').map((row) => [row.label, row.description]), [
      ['work-bolt → main', '1 path changed'],
      ['⇄ with ATLAS', 'src/c.ts'],
    ], 'an agent without claims is listed for its branch work');
    assert.match(rows.find((row) => row.depth === 1 && row.label === 'ATLAS')?.description ?? '', /⇄ 1/);

    // BOLT writes what ATLAS wrote: the conflict clears, and only the two holders' rows are refreshed.
    const before = api.treeWork().territory;
    commitC(join(trees, 'bolt'), `export const c = 'ATLAS';\n`);
    const cleared = await when(api.onDidChangeTerritory, () => {
      const all = api.territory();
      return !all.some((row) => row.label.startsWith('⇄')) && all;
    }, 'the cleared conflict leaving Territory', 40_000);
    assert.deepEqual(rowsUnder(cleared, 'BOLT').map((row) => row.label), ['work-bolt → main']);
    await fx().decoration('src/c.ts', (d) => d?.badge !== '⇄', 'the ⇄ mark gone');
    const after = api.treeWork().territory;
    assert.equal(after.fullRefreshes, before.fullRefreshes, 'a forecast change refreshes rows, never the whole tree');
    assert.ok(after.rowsRefreshed - before.rowsRefreshed <= 4, `rows refreshed: ${after.rowsRefreshed - before.rowsRefreshed}`);
  }, 90_000);

  test('a holder with more claims than Territory lists shows "… and N more", and a claim past them is revealed on demand', async () => {
    const { api, workspace } = fx();
    const patterns = Array.from({ length: 130 }, (_, index) => `gen/file-${String(index).padStart(3, '0')}.ts`);
    for (let from = 0; from < patterns.length; from += 64) {
      assert.ok((await agents.ATLAS!.claim(patterns.slice(from, from + 64), workspace)).granted);
    }
    const rows = await when(api.onDidChangeTerritory, () => {
      const under = rowsUnder(api.territory(), 'ATLAS');
      return under.at(-1)?.label === '… and 31 more claims' && under;
    }, 'the capped claim list (131 claims, 100 listed)', 30_000);
    const claimRows = rows.filter((row) => row.label.startsWith('gen/') || row.label === 'src/c.ts');
    assert.equal(claimRows.length, 100, 'a holder lists 100 claims');

    const last = api.state()!.claims.find((claim) => claim.pattern === patterns.at(-1))!;
    assert.ok(!rows.some((row) => row.label === last.pattern), 'the last claim is past the cap');
    void vscode.commands.executeCommand('fleet.revealClaim', { claimId: last.id });
    const revealed = await when(api.onDidChangeTerritory, () => {
      const under = rowsUnder(api.territory(), 'ATLAS');
      return under.some((row) => row.label === last.pattern) && under;
    }, 'the revealed claim listed', 20_000);
    assert.equal(revealed.at(-1)!.label, '… and 30 more claims');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  test("a write-set the integrator cannot reach says in Territory it was not compared, and why", async () => {
    const { api, home, workspace } = fx();
    // A clone of the workspace's repository named as the same repository (as on another machine): its commits are not in the workspace's objects, and no remote is configured to fetch them.
    const clone = join(trees, 'cleo-clone');
    execFileSync('git', ['clone', '-q', workspace, clone], { stdio: 'ignore' });
    const scope = execFileSync('git', ['-C', workspace, 'config', 'fleet.scope'], { encoding: 'utf8' }).trim();
    execFileSync('git', ['-C', clone, 'config', 'fleet.scope', scope], { stdio: 'ignore' });
    execFileSync('git', ['-C', clone, 'checkout', '-q', '-b', 'work-cleo'], { stdio: 'ignore' });
    const cleo = (agents.CLEO = await TestAgent.join(home, 'CLEO', undefined, clone));
    const { mark } = await cleo.worktreeChanges(clone);
    commitC(clone, `export const c = 'CLEO';\n`);
    assert.ok((await cleo.worktreeChanges(clone, mark)).changes.some((change) => change.path === 'src/c.ts'));

    const row = await when(api.onDidChangeTerritory, () => rowsUnder(api.territory(), 'CLEO').find((r) => r.label.startsWith('work-cleo → ') && r.description.includes('not compared')), "CLEO's write-set said to be not compared", 40_000);
    assert.deepEqual([row.label, row.description], ['work-cleo → origin/main', '1 path changed, not compared'], 'a clone compares with its origin');
    assert.match(row.tooltip, /Not compared with other branches, so no conflict can be forecast for it: not reachable from the integrator's plane .*no remote is configured/);
    assert.ok(!rowsUnder(api.territory(), 'CLEO').some((r) => r.label.startsWith('⇄')), 'not compared: no conflict either way');
    assert.equal(rowsUnder(api.territory(), 'ATLAS')[0]?.description, '1 path changed', 'a branch the integrator reaches is compared');
  }, 60_000);

  test('a builder that completed its item on its branch and left: its write-set stays under it in Territory, awaiting landing', async () => {
    const { api, home } = fx();
    const worktree = join(trees, 'dana');
    execFileSync('git', ['-C', fx().workspace, 'worktree', 'add', '-q', '-b', 'work-dana', worktree, 'HEAD'], { stdio: 'ignore' });
    const dana = await TestAgent.join(home, 'DANA', undefined, worktree);
    const { item } = await dana.addWork('the d constant', worktree, ['src/d.ts']);
    assert.equal((await dana.pull()).item?.id, item.id);
    writeFileSync(join(worktree, 'src/d.ts'), "export const d = 'DANA';\n");
    execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', '-C', worktree, 'add', 'src/d.ts'], { stdio: 'ignore' });
    execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', '-C', worktree, 'commit', '-qm', 'd'], { stdio: 'ignore' });
    await when(api.onDidChangeTerritory, () => rowsUnder(api.territory(), 'DANA').some((r) => r.label === 'work-dana → main' && r.description === '1 path changed'), "DANA's write-set in Territory", 40_000);
    await dana.complete(item.id);
    await dana.leave();
    const row = await when(api.onDidChangeTerritory, () => rowsUnder(api.territory(), 'DANA').find((r) => r.label === 'work-dana → main' && r.description.includes('awaiting landing')), "DANA's write-set kept after it left", 40_000);
    assert.equal(row.description, `DANA (left) — ${item.id} awaiting landing · 1 path changed`);
    assert.match(row.tooltip, new RegExp(`DANA is gone \\(left\\), but ${item.id} it built here await landing`));
  }, 90_000);

  test('the agents leave and their worktrees go', async () => {
    for (const agent of Object.values(agents)) await agent.leave();
    rmSync(trees, { recursive: true, force: true });
    execFileSync('git', ['-C', fx().workspace, 'worktree', 'prune'], { stdio: 'ignore' });
  });
}
