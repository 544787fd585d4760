// The language server's lifecycle (issue 26, item 8) on the minimum and the current engine, in the
// extension host ("lifecycle" phase of the in-host suite, test/vscode/suite/lifecycle-tests.ts):
// restarts asked for in a row while VS Code asks for hovers, code actions and decorations leave one
// server that answers, and nothing in the window's logs says a start or a request failed.
import { describeInHostPhase } from './support/in-host-phase.js';

describeInHostPhase({
  title: 'The language server restarts cleanly',
  test: 'restarts in a row under requests, inside the extension host',
  phase: 'lifecycle',
  expectedTests: 1,
  timeoutMs: 400_000,
  // The extension host's own report of an unhandled rejection reaches the workbench's log, not a file.
  refusedLogLines: /Starting server failed|Client is not running/,
});
