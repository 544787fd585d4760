// Write-sets and the conflict forecast in the editor (issue 23), on the minimum and the current
// engine: the "integration" phase of the in-host suite (test/vscode/suite/integration-tests.ts) in a
// window of its own, against a real plane in a temp FLEET_HOME and real git worktrees: the Explorer's
// `⇄`, the Territory view's write-set and conflict rows, and its capped claim list.
import { describeInHostPhase } from './support/in-host-phase.js';

describeInHostPhase({
  title: 'Write-sets and forecast conflicts',
  test: "the ⇄ decoration, Territory's write-set and conflict rows, and its capped claims, inside the extension host",
  phase: 'integration',
  expectedTests: 5,
});
