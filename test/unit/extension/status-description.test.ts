// The status bar's words and colours for the store's health: a cut-off store is unmistakable (its
// own icon and words, the error colour, a tooltip saying what it means and where to look), a clock
// skew is a warning in the tooltip, and the store is named when all is well.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoreHealth } from '../../../contracts/index.js';
import type { FleetViewState } from '../../../contracts/lsp.js';
import { describe } from '../../../extension/src/status-description.js';

const servers = ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222', 'nats://10.0.0.3:4222'];
const nats: StoreHealth = { kind: 'nats', health: 'ok', fleet: 'acme', stream: 'FLEET_ACME', servers };

function connected(store: StoreHealth | undefined): FleetViewState {
  return {
    connection: { status: 'connected', home: '/home/me/.fleet', plane: { pid: 42, port: 8765, version: '0.1.0', startedAt: '2026-01-01T00:00:00.000Z' } },
    control: { state: 'run', setBy: 'operator', setAt: '2026-01-01T00:00:00.000Z' },
    ...(store && { store }),
    agents: [],
    claims: [],
    work: [],
    operator: null,
  };
}

test('a healthy store is named in the tooltip and changes nothing else', () => {
  const embedded = describe(connected({ kind: 'embedded', health: 'ok' }));
  assert.equal(embedded.text, '$(broadcast) Fleet: running · 0 agents');
  assert.deepEqual([embedded.warning, embedded.error], [false, false]);
  assert.match(embedded.tooltip, /Store: embedded/);

  const shared = describe(connected(nats));
  assert.deepEqual([shared.warning, shared.error], [false, false]);
  assert.match(shared.tooltip, /Store: NATS JetStream, fleet `acme`, stream `FLEET_ACME` at `nats:\/\/10\.0\.0\.1:4222,nats:\/\/10\.0\.0\.2:4222,nats:\/\/10\.0\.0\.3:4222`: ok/);
  assert.doesNotMatch(shared.tooltip, /unreachable|refused/);
});

test('a store cut off from its quorum: its own icon and words, the error colour, and what it means', () => {
  const why = `no quorum of the JetStream cluster at ${servers.join(',')} answers (the connection to NATS dropped)`;
  const cut = describe(connected({ ...nats, health: 'unavailable', staleSeconds: 3.2, lastContactAt: '2026-01-01T10:00:00.000Z', problems: [why] }));
  assert.equal(cut.text, '$(circle-slash) Fleet: store unreachable · running · 0 agents');
  assert.deepEqual([cut.error, cut.warning], [true, true]);
  assert.match(cut.tooltip, /^\$\(circle-slash\) \*\*Store unreachable: changes are refused\*\*/, 'said first');
  assert.match(cut.tooltip, /refused \(STORE_UNAVAILABLE/);
  assert.ok(cut.tooltip.includes(`no news from the cluster since ${new Date('2026-01-01T10:00:00.000Z').toLocaleTimeString()}`), 'how stale reads are');
  assert.match(describe(connected({ ...nats, health: 'unavailable', staleSeconds: 3.2 })).tooltip, /3\.2 s stale when reported/, 'from a plane that gives no time');
  assert.match(cut.tooltip, /recovers by itself/);
  assert.ok(cut.tooltip.includes(`check the NATS servers \`${servers.join(',')}\``), 'names where to look');
  assert.ok(cut.tooltip.includes(`- ${why}`), 'and why');
});

test('a clock skew between planes is a warning in the tooltip, not a cut-off', () => {
  const skew = "plane pl_b's clock is 9.0 s ahead of this one's (± 0.4 s; bound 2 s): expiries are judged at different moments; sync both machines' clocks (NTP)";
  const skewed = describe(connected({ ...nats, problems: [skew] }));
  assert.equal(skewed.text, '$(broadcast) Fleet: running · 0 agents');
  assert.deepEqual([skewed.warning, skewed.error], [true, false]);
  assert.ok(skewed.tooltip.includes(`$(warning) ${skew}`));
  assert.doesNotMatch(skewed.tooltip, /unreachable/);
});

test('a plane too old to name its store: the tooltip just leaves the store out', () => {
  const old = describe(connected(undefined));
  assert.deepEqual([old.warning, old.error], [false, false]);
  assert.doesNotMatch(old.tooltip, /Store:/);
});

test('Codex hooks waiting for trust warn in the status bar, plane or no plane; trusted or disabled ones do not', () => {
  const hooks = (trust: 'trusted' | 'untrusted' | 'modified' | 'disabled') => ({
    worktree: '/work/my_repo',
    hooksFile: '/home/me/.codex/hooks.json',
    hooks: [{ event: 'PreToolUse', trust }, { event: 'SessionStart', trust: 'trusted' as const }],
    summary: `the summary for ${trust}`,
  });
  const untrusted = describe(connected(undefined), [hooks('untrusted')]);
  assert.equal(untrusted.text, '$(broadcast) Fleet: running · 0 agents · $(warning) Codex hooks untrusted');
  assert.equal(untrusted.warning, true);
  assert.match(untrusted.tooltip, /^\$\(warning\) \*\*Codex hooks in `my_repo`\*\*: the summary for untrusted\n/);
  assert.match(describe(undefined, [hooks('modified')]).tooltip, /Codex hooks in `my_repo`\*\*: the summary for modified/);
  for (const settled of ['trusted', 'disabled'] as const) assert.deepEqual(describe(connected(undefined), [hooks(settled)]), describe(connected(undefined)), `${settled}: nothing to say`);
});
