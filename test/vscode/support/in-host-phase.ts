// Runs one phase of the in-host suite (test/vscode/suite, FLEET_TEST_PHASE) in a window of its own
// on a real plane, prints what passed and failed, and checks the count: a phase that silently ran
// fewer tests fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, loadEngine, runExtensionTests, selectedEngineIds, type EngineId } from '../harness/index.js';
import type { SuiteResults } from '../suite/runner.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane, SUITE_MODULE } from './fleet-fixtures.js';

export interface InHostPhase {
  engine: EngineId;
  phase: string;
  home: string;
  workspace: string;
  resultsFile: string;
  expectedTests: number;
  /** More environment for the window (CODEX_HOME, …). */
  env?: Record<string, string>;
  /** Errors the window's logs (workbench lines and log files) must not show. */
  refusedLogLines?: RegExp;
}

export async function runInHostPhase({ engine: id, phase, home, workspace, resultsFile, expectedTests, env = {}, refusedLogLines }: InHostPhase): Promise<SuiteResults> {
  const engine = loadEngine(id);
  const { exitCode, logs, logFiles } = await runExtensionTests({
    engine,
    extensionPath: REPO_ROOT,
    testsPath: SUITE_MODULE,
    workspacePath: workspace,
    env: { FLEET_HOME: home, FLEET_PORT: '0', FLEET_TEST_WORKSPACE: workspace, FLEET_TEST_RESULTS: resultsFile, FLEET_TEST_PHASE: phase, ...env },
    timeoutMs: 240_000,
  });
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as SuiteResults;
  console.log(`[vscode ${engine.vscodeVersion}] ${phase}: ${results.passed.length} passed, ${results.failed.length} failed; measurements ${JSON.stringify(results.measurements)}`);
  for (const failure of results.failed) console.log(`[vscode ${engine.vscodeVersion}] ✖ ${failure.name}\n${failure.error}`);
  assert.equal(exitCode, 0, `the in-host tests failed on VS Code ${engine.vscodeVersion}:\n${logs.slice(-40).join('\n')}`);
  if (refusedLogLines) {
    const lines = [...logs, ...logFiles.flatMap((file) => file.contents.split('\n'))].filter((line) => refusedLogLines.test(line));
    assert.deepEqual(lines.slice(0, 5), [], `the window logged ${lines.length} line(s) matching ${refusedLogLines}`);
  }
  assert.equal(results.passed.length, expectedTests, `expected ${expectedTests} in-host tests in phase ${phase}, ran ${results.passed.map((p) => p.name).join(', ')}`);
  return results;
}

/** One in-host phase in a window of its own on each selected engine: what the phase's test file runs, and what it prepares first. */
export interface InHostPhaseSuite {
  /** The suite's title, before ", VS Code <version> (<engine>)". */
  title: string;
  /** The test's name. */
  test: string;
  phase: string;
  expectedTests: number;
  timeoutMs?: number;
  refusedLogLines?: RegExp;
  /** Runs before the window opens, in the workspace; returns more environment for the window. */
  prepare?: (workspace: string) => Promise<Record<string, string>> | Record<string, string>;
}

/**
 * Declares the suite of one phase per selected engine: a fresh FLEET_HOME and workspace each, the
 * phase run in its window, the plane stopped and the folders removed after.
 */
export function describeInHostPhase(suite: InHostPhaseSuite): void {
  before(() => bundleForTests());
  for (const id of selectedEngineIds()) {
    describe(`${suite.title}, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: suite.timeoutMs ?? 300_000 }, () => {
      const home = makeHome();
      const workspace = makeWorkspace();
      const resultsFile = join(home, '..', `${home.split('/').pop()}-${suite.phase}-results.json`);
      after(async () => {
        await stopPlane(home);
        removeDir(home);
        removeDir(workspace);
        removeDir(resultsFile);
      });

      test(suite.test, async () => {
        const env = (await suite.prepare?.(workspace)) ?? {};
        await runInHostPhase({ engine: id, phase: suite.phase, home, workspace, resultsFile, expectedTests: suite.expectedTests, env, ...(suite.refusedLogLines && { refusedLogLines: suite.refusedLogLines }) });
      });
    });
  }
}
