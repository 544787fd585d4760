// Hook cost as agents pay it, through the real clients (issue 22 item 5; DESIGN §7, §15): Claude Code
// and Codex, pinned and installed by .ci/install-agent-clients.sh, run headless in a repository set up
// by `fleet init`, their model the clients tier's scripted server on loopback. Each session joins as an
// agent through the real MCP bridge, claims a file of its own and makes N allowed calls, alternating the
// shell and the file tool (timed-session.ts). Three hook configurations take turns in rounds so they
// share the machine's noise: fleet's hooks, `node -e 0` at the same events and matchers, and none. A
// configuration's added wait per call is its p50 minus the p50 with no hooks; the target is fleet's
// added wait ≤ 1.25× what `node -e 0` hooks add. Beside it: `fleet mcp` spawn → tools/list answered,
// and whether Codex's first model request already offers the fleet's tools. `fleet init` is run by the
// bundled CLI, so the launchers run the bundled CLI and hook runner, as the VS Code extension installs them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { codexEnv } from '../../test/clients/harness/codex.js';
import { fleetCheckout, type FleetCheckout } from '../../test/clients/harness/fleet-checkout.js';
import { findClient, type ClientId, type InstalledClient } from '../../test/clients/harness/installed-clients.js';
import { startModelServer } from '../../test/clients/harness/model-server.js';
import { HOOK_CONFIGURATIONS, hookSwitch, type HookConfiguration } from '../clients/hook-configurations.js';
import { timeBareNode, timeHandshake } from '../clients/mcp-handshake.js';
import { timedSession, type CallKind } from '../clients/timed-session.js';
import { track } from '../lib/children.js';
import { ms, times, type Report } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

interface Options {
  quick: boolean;
}

const SECTION = 'client-hooks';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLED_CLI = fileURLToPath(new URL('../../../dist/fleet.cjs', import.meta.url));
const TARGET_RATIO = 1.25;
const CLIENTS: readonly ClientId[] = ['claude-code', 'codex'];
const CLIENT_NAMES: Record<ClientId, { name: string; tag: string; tools: Record<CallKind, string> }> = {
  'claude-code': { name: 'Claude Code', tag: 'CC', tools: { shell: 'Bash `ls src`', file: 'Write (own claim)' } },
  codex: { name: 'Codex', tag: 'CX', tools: { shell: 'Bash `ls src` (exec_command)', file: 'apply_patch (own claim)' } },
};
const CONFIGURATION_TAGS: Record<HookConfiguration, string> = { fleet: 'FLEET', 'node -e 0': 'NODE', none: 'NONE' };

type Waits = Record<CallKind, number[]>;

/** Codex's first agent request of each session: whether it named mcp__fleet, and when (ms after spawn). */
interface FirstTurn {
  configuration: HookConfiguration;
  offersFleetTools: boolean;
  firstRequestMs: number;
  fleetToolsMs: number | undefined;
}

export async function clientHooks(options: Options, report: Report): Promise<void> {
  const calls = options.quick ? 4 : 16;
  const rounds = options.quick ? 1 : 3;
  const clients: InstalledClient[] = [];
  for (const id of CLIENTS) {
    const found = findClient(id);
    if ('bin' in found) clients.push(found);
    else report.add({ section: SECTION, figure: `${CLIENT_NAMES[id].name}: hook cost through the client`, value: 'NOT MEASURED', reference: found.missing });
  }
  if (clients.length === 0) return;
  const codex = clients.find((client) => client.id === 'codex');

  const server = await startModelServer();
  execFileSync(process.execPath, [`${ROOT}tools/bundle.mjs`], { cwd: ROOT, stdio: 'ignore' });
  const checkout = await fleetCheckout({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' }, { cli: BUNDLED_CLI });
  track(checkout.plane.child);
  try {
    const hooks = hookSwitch(checkout, codex?.bin, codexEnv(checkout, server));
    const waits = Object.fromEntries(clients.map((client) => [client.id, Object.fromEntries(HOOK_CONFIGURATIONS.map((c) => [c, { shell: [], file: [] } as Waits]))])) as Record<ClientId, Record<HookConfiguration, Waits>>;
    const firstTurns: FirstTurn[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Each round starts with the next configuration, so none always runs first after a quiet spell.
      const order = HOOK_CONFIGURATIONS.map((_, i) => HOOK_CONFIGURATIONS[(i + round - 1) % HOOK_CONFIGURATIONS.length]!);
      for (const configuration of order) {
        await hooks.apply(configuration);
        for (const client of clients) {
          const callsign = `${CLIENT_NAMES[client.id].tag}-${CONFIGURATION_TAGS[configuration]}-${round}`;
          const session = await timedSession(client, checkout, server, callsign, `src/${callsign.toLowerCase()}.ts`, calls);
          for (const kind of ['shell', 'file'] as const) waits[client.id][configuration][kind].push(...session.waits[kind]);
          if (client.id === 'codex') {
            const first = session.agentRequests[0]!;
            const named = session.agentRequests.find((request) => request.text.includes('mcp__fleet'));
            firstTurns.push({ configuration, offersFleetTools: first.text.includes('mcp__fleet'), firstRequestMs: first.receivedAt - session.run.startedAt, fleetToolsMs: named && named.receivedAt - session.run.startedAt });
          }
        }
      }
    }
    report.set('clientHooks', { calls, rounds, clients: clients.map((client) => `${client.id} ${client.version}`), waitsMs: waits, codexFirstTurns: firstTurns });
    for (const client of clients) reportAddedWaits(report, client, waits[client.id], rounds);
    await measureMcpHandshake(report, checkout, calls);
    if (codex) reportFirstTurns(report, firstTurns);
  } finally {
    await checkout.dispose();
    await server.close();
  }
}

function reportAddedWaits(report: Report, client: InstalledClient, waits: Record<HookConfiguration, Waits>, rounds: number): void {
  const names = CLIENT_NAMES[client.id];
  for (const kind of ['shell', 'file'] as const) {
    const p50 = Object.fromEntries(HOOK_CONFIGURATIONS.map((c) => [c, summarize(waits[c][kind]).p50])) as Record<HookConfiguration, number>;
    const fleetAdded = p50.fleet - p50.none;
    const nodeAdded = p50['node -e 0'] - p50.none;
    // With a `node -e 0` hook adding nothing measurable, no ratio means anything: the row says so and misses.
    const ratio = nodeAdded > 0 ? fleetAdded / nodeAdded : Infinity;
    report.target(
      {
        section: SECTION,
        figure: `${names.name} ${client.version}, ${names.tools[kind]}: wait added by fleet's hooks (${waits.fleet[kind].length} calls in ${rounds} sessions, p50 − p50 with no hooks)`,
        value: `+${ms(fleetAdded)} (p50 ${ms(p50.fleet)}; no hooks ${ms(p50.none)})`,
        reference: `node -e 0 hooks +${ms(nodeAdded)} (p50 ${ms(p50['node -e 0'])})`,
        ratio: Number.isFinite(ratio) ? times(ratio) : 'n/a',
      },
      ratio,
      TARGET_RATIO,
      `≤ ${TARGET_RATIO}× node -e 0's`,
    );
  }
}

/** `fleet mcp` as the clients start it (the launcher, from the repository, with the client's env), against `node -e 0`. */
async function measureMcpHandshake(report: Report, checkout: FleetCheckout, spawns: number): Promise<void> {
  const launcher = `${checkout.fleetHome}/bin/fleet`;
  const env = { ...checkout.clientEnv(), FLEET_HOME: checkout.fleetHome };
  const bare: number[] = [];
  const initialized: number[] = [];
  const listed: number[] = [];
  let tools = 0;
  for (let i = 0; i < spawns; i++) {
    bare.push(timeBareNode());
    const handshake = await timeHandshake(launcher, ['mcp'], checkout.repo, env);
    initialized.push(handshake.initializedMs);
    listed.push(handshake.listedMs);
    tools = handshake.tools;
  }
  const [bareSummary, initializedSummary, listedSummary] = [bare, initialized, listed].map(summarize) as [ReturnType<typeof summarize>, ReturnType<typeof summarize>, ReturnType<typeof summarize>];
  report.set('clientHooksMcpHandshake', { spawns, tools, bareMs: bare, initializedMs: initialized, listedMs: listed });
  report.add({
    section: SECTION,
    figure: `\`FLEET_HOME/bin/fleet mcp\` spawn → initialize → tools/list answered (${tools} tools; ${spawns} spawns, interleaved, plane running)`,
    value: `p50 ${ms(listedSummary.p50)} (initialize ${ms(initializedSummary.p50)}), p99 ${ms(listedSummary.p99)}`,
    reference: `node -e 0 spawn → exit p50 ${ms(bareSummary.p50)}`,
    ratio: times(listedSummary.p50 / bareSummary.p50),
  });
}

function reportFirstTurns(report: Report, firstTurns: FirstTurn[]): void {
  const offered = firstTurns.filter((turn) => turn.offersFleetTools).length;
  const byConfiguration = HOOK_CONFIGURATIONS.map((c) => {
    const these = firstTurns.filter((turn) => turn.configuration === c);
    return `${c === 'fleet' ? "fleet's hooks" : c === 'none' ? 'no hooks' : c} ${these.filter((turn) => turn.offersFleetTools).length}/${these.length}`;
  }).join(', ');
  const named = firstTurns.flatMap((turn) => (turn.fleetToolsMs === undefined ? [] : [turn.fleetToolsMs]));
  report.target(
    {
      section: SECTION,
      figure: "Codex's first model request already offers the fleet's tools (the mcp__fleet namespace)",
      value: `${offered} of ${firstTurns.length} sessions (${byConfiguration})`,
      reference: `spawn → first request p50 ${ms(summarize(firstTurns.map((turn) => turn.firstRequestMs)).p50)}; → first naming mcp__fleet p50 ${named.length > 0 ? ms(summarize(named).p50) : 'never'}`,
    },
    offered,
    firstTurns.length,
    'every session',
    true,
  );
}
