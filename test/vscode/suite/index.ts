// The tests module the extension host runs (bundled to out/vscode-suite/index.cjs): the Fleet
// extension inside a real VS Code, against a real plane in a temp FLEET_HOME. FLEET_TEST_PHASE
// "reopen" runs the checks for a second window on the same FLEET_HOME instead; "live" the editor
// under a live fleet (marks, shared claims, roll-up, per-event work) in a window of its own;
// "editor" what the editor must never cost an agent (reloads, Revert, the plane down); "codexHooks"
// Codex's trust in the fleet's hooks, said in the editor; "attention" what waits for the operator
// (Needs You) and its actions; "integration" write-sets and the conflict forecast in the Explorer and Territory;
// "train" the integration train in the Work view, the Explorer and Needs You; "lifecycle" the
// language server restarted several times in a row while VS Code asks it things; "nested" a
// repository inside the workspace that the workspace's repository ignores (fleet demo --here).
import { attentionTests } from './attention-tests.js';
import { codexHookTests } from './codex-hook-tests.js';
import { controlTests } from './control-tests.js';
import { openFixture, type Fixture } from './fixture.js';
import { mcpTests } from './mcp-tests.js';
import { nestedRepositoryTests } from './nested-repository-tests.js';
import { orchestrationTests } from './orchestration-tests.js';
import { digestTests } from './digest-tests.js';
import { drainTests } from './drain-tests.js';
import { editorSafetyTests } from './editor-safety-tests.js';
import { guardTests } from './guard-tests.js';
import { integrationTests } from './integration-tests.js';
import { lifecycleTests } from './lifecycle-tests.js';
import { liveTests } from './live-tests.js';
import { crashTests, planeTests, reopenTests } from './plane-tests.js';
import { runAll, test } from './runner.js';
import { territoryTests } from './territory-tests.js';
import { trainTests } from './train-tests.js';
import { TestAgent } from './test-agent.js';
import { violationTests } from './violation-tests.js';

export async function run(): Promise<void> {
  let atlas: TestAgent | undefined;
  const fixture: Fixture = await openFixture();
  const fx = () => fixture;
  const agent = () => atlas ?? assertNever('agent ATLAS');

  if (process.env.FLEET_TEST_PHASE === 'reopen') {
    reopenTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'live') {
    liveTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'editor') {
    editorSafetyTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'codexHooks') {
    codexHookTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'attention') {
    attentionTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'integration') {
    integrationTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'train') {
    trainTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'lifecycle') {
    lifecycleTests(fx);
  } else if (process.env.FLEET_TEST_PHASE === 'nested') {
    nestedRepositoryTests(fx);
  } else {
    planeTests(fx);
    test('an agent joins over the WebSocket endpoint', async () => {
      atlas = await TestAgent.join(fx().home, 'ATLAS');
      await fx().state((s) => s.agents.some((a) => a.callsign === 'ATLAS'), 'ATLAS on the roster');
    });
    territoryTests(fx, agent);
    guardTests(fx, agent);
    controlTests(fx, agent);
    violationTests(fx, agent);
    orchestrationTests(fx, agent);
    digestTests(fx, agent);
    drainTests(fx, agent);
    mcpTests(fx);
    crashTests(fx, agent);
  }
  await runAll();
}

function assertNever(what: string): never {
  throw new Error(`${what} is not ready: an earlier test failed`);
}
