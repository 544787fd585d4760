// `node out/tools/sidebar-screenshots.js [engine]`: the Fleet sidebar and the Explorer with a busy
// fleet at work, in the light, dark and high-contrast themes, saved to docs/screenshots/. A real
// plane in a temp FLEET_HOME, agents joined over the WebSocket endpoint, the real VS Code page
// (code-server's engine in Chromium, as the vscode test tier runs it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadEngine, openWorkbench, type EngineId } from '../test/vscode/harness/index.js';
import { waitForExplorerRow } from '../test/vscode/support/explorer-page.js';
import { setColorTheme } from '../test/vscode/support/command-palette.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane } from '../test/vscode/support/fleet-fixtures.js';
import { TestAgent } from '../test/vscode/suite/test-agent.js';

const THEMES: [theme: string, bodyClass: string, slug: string][] = [
  ['Light Modern', 'vs', 'light'],
  ['Dark Modern', 'vs-dark', 'dark'],
  ['Dark High Contrast', 'hc-black', 'high-contrast'],
];
const OUT = join(REPO_ROOT, 'docs', 'screenshots');
const FILES = ['src/parser/grammar.ts', 'src/parser/tokens.ts', 'src/lexer/scan.ts', 'src/lexer/scan.test.ts', 'docs/guide.md', 'lib/util.ts', 'pkg/a/x.ts', 'pkg/b/y.ts', 'pkg/c.ts'];

/** The busy fleet in the light, dark and high-contrast themes: the Fleet sidebar and the Explorer. */
async function themes(engineId: EngineId, home: string, workspace: string): Promise<void> {
  for (const file of FILES) {
    mkdirSync(dirname(join(workspace, file)), { recursive: true });
    writeFileSync(join(workspace, file), `// ${file}\n`);
  }
  const agents: TestAgent[] = [];
  const workbench = await openWorkbench({
    engine: loadEngine(engineId),
    workspacePath: workspace,
    extensionPath: REPO_ROOT,
    env: { FLEET_HOME: home, FLEET_PORT: '0' },
    settings: { 'git.enabled': false, 'workbench.startupEditor': 'none' },
    onLog: () => undefined,
  });
  try {
    const { page } = workbench;
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 90_000 });
    const join_ = async (callsign: string) => {
      const agent = await TestAgent.join(home, callsign);
      agents.push(agent);
      return agent;
    };
    const boreas = await join_('BOREAS');
    const bolt = await join_('BOLT');
    const cyrus = await join_('CYRUS');
    const delta = await join_('DELTA');
    await boreas.claim(['src/parser/**'], workspace, { reason: 'parser refactor' });
    await bolt.claim(['src/lexer/**'], workspace, { reason: 'lexer tests' });
    await boreas.claim(['docs/**'], workspace, { mode: 'shared', reason: 'guide: parser section' });
    await bolt.claim(['docs/**'], workspace, { mode: 'shared', reason: 'guide: lexer section' });
    await cyrus.claim(['lib/util.ts'], workspace, { ttlSeconds: 900, reason: 'rename helpers' });
    await delta.claim(['pkg/a/x.ts', 'pkg/b/**', 'pkg/c.ts'], workspace, { reason: 'package split' });
    await boreas.addWork('Refactor the parser into passes', workspace, ['src/parser/**']);
    await bolt.addWork('Cover the lexer with tests', workspace, ['src/lexer/**']);
    await boreas.heartbeat('active', undefined, 'splitting grammar.ts into passes');
    await bolt.heartbeat('active', undefined, 'scan.test.ts: string literals');
    await cyrus.heartbeat('idle', undefined, 'rename helpers (done)');
    await delta.heartbeat('blocked', 'waiting for a decision on the package layout');

    mkdirSync(OUT, { recursive: true });
    for (const [theme, bodyClass, slug] of THEMES) {
      await setColorTheme(page, theme);
      await page.locator(`.monaco-workbench.${bodyClass}`).first().waitFor({ timeout: 20_000 });
      await page.mouse.move(900, 700);
      await page.locator('.statusbar-item', { hasText: 'Fleet:' }).first().click();
      const sidebar = page.locator('.part.sidebar');
      await sidebar.getByText('splitting grammar.ts').first().waitFor({ timeout: 20_000 });
      await sidebar.getByText('src/parser/**').first().waitFor({ timeout: 20_000 });
      await page.mouse.move(900, 700);
      await sidebar.screenshot({ path: join(OUT, `sidebar-${slug}.png`) });
      await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
      for (const folder of ['src', 'docs']) {
        const row = page.locator('.explorer-folders-view .monaco-list-row[aria-level="1"]', { has: page.locator('.label-name', { hasText: new RegExp(`^${folder}$`) }) }).first();
        await row.waitFor({ timeout: 20_000 });
        if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
      }
      await waitForExplorerRow(page, 'parser', 20_000);
      await waitForExplorerRow(page, 'guide.md', 20_000);
      await page.mouse.move(900, 700);
      await sidebar.screenshot({ path: join(OUT, `explorer-${slug}.png`) });
    }
    console.log(`screenshots in ${OUT}`);
  } finally {
    for (const agent of agents) agent.close();
    await workbench.close();
  }
}

async function main(): Promise<void> {
  const engineId = (process.argv[2] ?? 'current') as EngineId;
  bundleForTests();
  const home = makeHome();
  const workspace = makeWorkspace();
  try {
    await themes(engineId, home, workspace);
    await multiRoot(engineId, home, workspace);
  } finally {
    await stopPlane(home);
    removeDir(home);
    removeDir(workspace);
  }
}

/** Two repositories in one window: Territory groups the claims by repository. */
async function multiRoot(engineId: EngineId, home: string, first: string): Promise<void> {
  const second = makeWorkspace();
  // Both fixture repositories have the same root commit, which would make them one scope (DESIGN §13).
  execFileSync('git', ['-C', second, 'config', 'fleet.scope', 'api-client']);
  const file = join(dirname(second), `fleet-multi-root-${process.pid}.code-workspace`);
  writeFileSync(file, JSON.stringify({ folders: [{ path: first }, { path: second }] }));
  const agent = await TestAgent.join(home, 'ECHO');
  const claimed = await agent.claim(['src/**'], second, { reason: 'port the API client' });
  if (!claimed.granted) throw new Error(`ECHO's claim in the second repository was refused: ${JSON.stringify(claimed.conflicts)}`);
  const workbench = await openWorkbench({ engine: loadEngine(engineId), workspacePath: file, extensionPath: REPO_ROOT, env: { FLEET_HOME: home, FLEET_PORT: '0' }, settings: { 'git.enabled': false, 'workbench.startupEditor': 'none', 'workbench.colorTheme': 'Light Modern' }, onLog: () => undefined });
  try {
    const { page } = workbench;
    await page.setViewportSize({ width: 1100, height: 1000 });
    await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 90_000 });
    await page.locator('.statusbar-item', { hasText: 'Fleet:' }).first().click();
    const sidebar = page.locator('.part.sidebar');
    // Room for both repositories: the other views folded.
    for (const view of ['Roster', 'Digest']) await sidebar.locator('.pane-header', { hasText: new RegExp(`^${view}`, 'i') }).first().click();
    await sidebar.getByText('port the API client').first().waitFor({ timeout: 20_000 }).catch(async (error: Error) => {
      await page.screenshot({ path: join(OUT, '..', '..', 'test-results', 'multi-root-failed.png') });
      throw error;
    });
    await page.mouse.move(900, 700);
    await sidebar.screenshot({ path: join(OUT, 'sidebar-multi-root.png') });
  } finally {
    agent.close();
    await workbench.close();
    removeDir(second);
    removeDir(file);
  }
}

await main();
