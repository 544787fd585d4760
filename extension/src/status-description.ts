import type { CodexRepositoryHooks, FleetViewState } from '../../contracts/lsp.js';
import type { StoreHealth } from '../../contracts/store-health.js';
import { needsTrust, repositoryName } from './codex-hooks.js';

const CONTROL_LOOK = {
  run: { icon: '$(broadcast)', word: 'running' },
  drain: { icon: '$(arrow-circle-down)', word: 'draining' },
  pause: { icon: '$(debug-pause)', word: 'paused' },
  stop: { icon: '$(debug-stop)', word: 'stopped' },
} as const;

/** What the status bar item shows; `error` (the fleet takes no changes) wins over `warning` for the background. */
export interface StatusBarSnapshot {
  text: string;
  tooltip: string;
  warning: boolean;
  error: boolean;
}

/** A drain is complete once no agent holds work in progress: the fleet can be stopped without losing any. */
export function drainComplete(state: FleetViewState | undefined): boolean {
  return state?.connection.status === 'connected' && state.control?.state === 'drain' && !state.work.some((item) => item.status === 'in_progress');
}

/**
 * The fleet at a glance: control state and agent count, in the warning colour when the fleet is
 * not running, when agents are stale, when planes' clocks disagree, or when no plane is connected;
 * in the error colour when the plane's store is cut off from its cluster (changes are refused).
 * Codex hooks of a workspace repository that wait for the person's trust in Codex's /hooks are a
 * warning too, plane or no plane: until trusted, Codex agents are gated at commit only.
 */
export function describe(state: FleetViewState | undefined, codexHooks: readonly CodexRepositoryHooks[] = []): StatusBarSnapshot {
  const waiting = codexHooks.filter(needsTrust);
  const plane = describePlane(state);
  if (waiting.length === 0) return plane;
  const lines = waiting.flatMap((repository) => [`$(warning) **Codex hooks in ${codeSpan(repositoryName(repository))}**: ${repository.summary}`, '']);
  return { ...plane, text: `${plane.text} · $(warning) Codex hooks untrusted`, tooltip: [...lines, plane.tooltip].join('\n'), warning: true };
}

function describePlane(state: FleetViewState | undefined): StatusBarSnapshot {
  const status = state?.connection.status ?? 'connecting';
  if (!state || status !== 'connected' || !state.control) {
    const text = status === 'stopped' ? '$(debug-disconnect) Fleet: no plane' : status === 'failed' ? '$(error) Fleet: plane unreachable' : '$(sync~spin) Fleet: connecting';
    const warning = status === 'stopped' || status === 'failed';
    return { text, tooltip: state?.connection.message ?? 'Connecting to the coordination plane…', warning, error: false };
  }
  const drained = drainComplete(state);
  const look = drained ? { icon: '$(pass)', word: 'drained' } : CONTROL_LOOK[state.control.state];
  const cutOff = state.store?.health === 'unavailable';
  const skewed = !cutOff && (state.store?.problems?.length ?? 0) > 0;
  const agents = state.agents.length;
  const stale = state.agents.filter((agent) => agent.status === 'unknown').length;
  const text = `${cutOff ? '$(circle-slash) Fleet: store unreachable ·' : `${look.icon} Fleet:`} ${look.word} · ${agents} agent${agents === 1 ? '' : 's'}${stale > 0 ? ` · ${stale} stale` : ''}`;
  const reason = state.control.reason ? ` — “${state.control.reason}”` : '';
  const tooltip = [
    ...(cutOff ? cutOffLines(state.store!) : []),
    `**Fleet ${look.word}**${reason}`,
    '',
    `Set by ${state.control.setBy} at ${new Date(state.control.setAt).toLocaleTimeString()}.`,
    '',
    ...(state.control.state === 'drain' ? [drained ? 'Drain complete: no agent holds work in progress; the fleet can be stopped or paused without losing work.' : `Draining: ${state.work.filter((item) => item.status === 'in_progress').length} work item(s) still in progress.`, ''] : []),
    `${agents} agent${agents === 1 ? '' : 's'} on the roster${stale > 0 ? `, ${stale} not heartbeating` : ''}; ${state.claims.length} live claim${state.claims.length === 1 ? '' : 's'}.`,
    '',
    `Plane pid ${state.connection.plane?.pid ?? '?'} on port ${state.connection.plane?.port ?? '?'}${state.connection.plane?.socket ? ` and socket ${codeSpan(state.connection.plane.socket)}` : ''} (FLEET_HOME ${codeSpan(state.connection.home)}).`,
    ...(state.store ? ['', storeLine(state.store)] : []),
    ...(skewed ? ['', ...state.store!.problems!.map((problem) => `$(warning) ${problem}`)] : []),
  ].join('\n');
  return { text, tooltip, warning: cutOff || skewed || state.control.state !== 'run' || stale > 0, error: cutOff };
}

/** What a cut-off store means for the person: nothing changes until the cluster answers, and who to look at. */
function cutOffLines(store: StoreHealth): string[] {
  // staleSeconds was measured when the plane reported; the time of the last news stays true as the tooltip sits there.
  const asOf = store.lastContactAt === undefined ? (store.staleSeconds === undefined ? '' : `, ${store.staleSeconds} s stale when reported`) : `, with no news from the cluster since ${new Date(store.lastContactAt).toLocaleTimeString()}`;
  return [
    '$(circle-slash) **Store unreachable: changes are refused**',
    '',
    `This plane is cut off from a quorum of its NATS JetStream cluster. Claims, releases and every other change are refused (STORE_UNAVAILABLE: agents retry) and hooks deny writes; reads answer from this machine's copy${asOf}.`,
    '',
    `It recovers by itself once a quorum answers again: check the NATS servers ${codeSpan(store.servers?.join(',') ?? '?')} and the network to them.`,
    '',
    ...(store.problems ?? []).map((problem) => `- ${problem}`),
    '',
  ];
}

/** Which store the plane runs on, named even when all is well. */
function storeLine(store: StoreHealth): string {
  if (store.kind === 'embedded') return 'Store: embedded (this machine, in FLEET_HOME).';
  return `Store: NATS JetStream, fleet ${codeSpan(store.fleet ?? '?')}, stream ${codeSpan(store.stream ?? '?')} at ${codeSpan(store.servers?.join(',') ?? '?')}: ${store.health}.`;
}

/** A path shown verbatim in the Markdown tooltip: `_`, `*` or `$(…)` in it would otherwise render as markup. */
function codeSpan(text: string): string {
  const longestTickRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestTickRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
