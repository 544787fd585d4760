// The editor under a live fleet, on the minimum and the current engine: the "live" phase of the
// in-host suite (test/vscode/suite/live-tests.ts) in a window of its own, against a real plane in a
// temp FLEET_HOME: distinct marks, shared claims, folder roll-up, per-event work while a fleet churns,
// and a long work queue: bounded groups, and no "already registered" tree item while items move.
import { describeInHostPhase } from './support/in-host-phase.js';

describeInHostPhase({
  title: 'Fleet views under a live fleet',
  test: 'marks, shared claims, roll-up, per-event work and a long queue, inside the extension host',
  phase: 'live',
  expectedTests: 6,
  // VS Code refuses a tree item whose id another row still holds: an item moving between groups under churn must never hit it.
  refusedLogLines: /is already registered/,
});
