// Proves the VS Code harness on both engines: a passing tests module exits 0, a throwing one exits 1,
// a hanging one times out; after each run no process or temp dir of it is left.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENGINE_VERSIONS, loadEngine, openWorkbench, runExtensionTests, type EngineId } from './harness/index.js';

// Compiled to out/test/vscode/: the fixture is plain JavaScript and stays in the source tree.
const fixture = fileURLToPath(new URL('../../../test/vscode/fixtures/harness-selftest/', import.meta.url));
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-harness-ws-')));
writeFileSync(join(workspace, 'README.md'), '# harness self-test workspace\n');
// The harness puts its server data dirs and browser profiles here, so leftovers can be seen.
const tempRoot = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-harness-tmp-')));
after(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(tempRoot, { recursive: true, force: true });
});

function processesUsing(path: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(path)) found.push(`${pid}: ${cmdline.slice(0, 120)}`);
    } catch { /* exited meanwhile */ }
  }
  return found;
}

afterEach(() => {
  assert.deepEqual(readdirSync(tempRoot), [], 'temp dirs left behind');
  assert.deepEqual(processesUsing(tempRoot), [], 'processes left behind');
});

for (const id of Object.keys(ENGINE_VERSIONS) as EngineId[]) {
  describe(`VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    test('the fixture extension activates, runs its command and sees the workspace: exit 0', async () => {
      const engine = loadEngine(id); // throws, naming the install script, when the engine is not prepared
      const started = Date.now();
      const { exitCode, logs } = await runExtensionTests({
        engine,
        extensionPath: fixture,
        testsPath: join(fixture, 'tests'),
        workspacePath: workspace,
        env: { HARNESS_SELFTEST_WORKSPACE: workspace, HARNESS_SELFTEST_VSCODE_VERSION: engine.vscodeVersion },
        tempDir: tempRoot,
        timeoutMs: 240_000,
      });
      console.log(`[vscode ${engine.vscodeVersion}] passing run took ${Date.now() - started} ms`);
      assert.equal(exitCode, 0, `tests failed on VS Code ${engine.vscodeVersion}:\n${logs.slice(-40).join('\n')}`);
      // The tests module's console output comes back through codeAutomationLog.
      assert.ok(logs.some((l) => l.includes(`harness-selftest: ok on VS Code ${engine.vscodeVersion}`)), 'test output not streamed');
    });

    test('a tests module that throws: exit 1', async () => {
      const engine = loadEngine(id);
      const started = Date.now();
      const { exitCode, logs } = await runExtensionTests({
        engine,
        extensionPath: fixture,
        testsPath: join(fixture, 'tests-failing'),
        workspacePath: workspace,
        tempDir: tempRoot,
        timeoutMs: 240_000,
      });
      console.log(`[vscode ${engine.vscodeVersion}] failing run took ${Date.now() - started} ms`);
      assert.equal(exitCode, 1);
      assert.ok(logs.some((l) => l.includes('harness-selftest: deliberate failure')), 'the failure was not reported');
    });
  });
}

test('a tests module that never settles: the run rejects at its timeout', { timeout: 120_000 }, async () => {
  const engine = loadEngine('minimum');
  const started = Date.now();
  await assert.rejects(
    runExtensionTests({
      engine,
      extensionPath: fixture,
      testsPath: join(fixture, 'tests-hanging'),
      workspacePath: workspace,
      tempDir: tempRoot,
      timeoutMs: 15_000,
      onLog: () => {},
    }),
    /did not finish within 15000 ms/,
  );
  assert.ok(Date.now() - started < 45_000, 'cleanup after the timeout took too long');
  assert.ok(existsSync(tempRoot));
});

test('openWorkbench keeps the page for UI checks: the command shows in the palette, a screenshot is taken', { timeout: 120_000 }, async () => {
  const workbench = await openWorkbench({ engine: loadEngine('current'), extensionPath: fixture, workspacePath: workspace, tempDir: tempRoot });
  try {
    const { page } = workbench;
    const row = page.locator('.quick-input-list .monaco-list-row[aria-label*="Harness Self-test: Where Am I"]').first();
    // Contributions arrive after the workbench renders and an open palette does not refresh: reopen until listed.
    for (const deadline = Date.now() + 60_000; ;) {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').waitFor();
      await page.keyboard.type('Harness Self-test');
      if (await row.waitFor({ timeout: 1_000 }).then(() => true, () => false)) break;
      assert.ok(Date.now() < deadline, 'the extension command never showed in the command palette');
      await page.keyboard.press('Escape');
    }
    const png = await page.screenshot();
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  } finally {
    await workbench.close();
  }
});
