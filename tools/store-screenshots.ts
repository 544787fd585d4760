// `node out/tools/store-screenshots.js [engine]`: the status bar, its tooltip and the Roster while the plane is
// cut off from its NATS cluster, saved to docs/screenshots/status-bar-store-unreachable.png. A real
// 3-node cluster, a real plane reaching it through a relay that is cut, the real VS Code page.
import { join } from 'node:path';
import { loadEngine, openWorkbench, type EngineId } from '../test/vscode/harness/index.js';
import { bundleForTests, makeWorkspace, removeDir, REPO_ROOT } from '../test/vscode/support/fleet-fixtures.js';
import { TestAgent } from '../test/vscode/suite/test-agent.js';
import { startNatsCluster } from '../test/support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../test/support/nats-plane.js';
import { startTcpCut } from '../test/support/tcp-cut.js';

const OUT = join(REPO_ROOT, 'docs', 'screenshots', 'status-bar-store-unreachable.png');

async function main(): Promise<void> {
  const engineId = (process.argv[2] ?? 'current') as EngineId;
  bundleForTests();
  const cluster = await startNatsCluster();
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const plane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'acme');
  const workspace = makeWorkspace();
  const agents = [await TestAgent.join(plane.home, 'BOREAS'), await TestAgent.join(plane.home, 'BOLT')];
  const workbench = await openWorkbench({
    engine: loadEngine(engineId),
    workspacePath: workspace,
    extensionPath: REPO_ROOT,
    env: { FLEET_HOME: plane.home, FLEET_PORT: '0' },
    settings: { 'git.enabled': false, 'workbench.startupEditor': 'none', 'workbench.colorTheme': 'Light Modern' },
    onLog: () => undefined,
  });
  try {
    const { page } = workbench;
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 90_000 });
    relay.cut();
    const item = page.locator('.statusbar-item', { hasText: 'store unreachable' }).first();
    await item.waitFor({ timeout: 30_000 });
    await item.click();
    await page.locator('.part.sidebar').getByText('Store unreachable:').first().waitFor({ timeout: 20_000 });
    await page.mouse.move(900, 100); // off the item it just clicked, so hovering it shows the tooltip
    await item.hover();
    await page.locator('.monaco-hover', { hasText: 'changes are refused' }).first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: OUT });
    console.log(`screenshot in ${OUT}`);
  } finally {
    for (const agent of agents) agent.close();
    await workbench.close();
    await stopPlanes([plane]);
    await relay.close();
    await cluster.stop();
    removeDir(workspace);
  }
}

await main();
