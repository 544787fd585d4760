import { EVENTS_GAP_NOTIFICATION, scopeName, type Result } from '../../../contracts/index.js';
import type { PlaneClient } from '../../client/plane-client.js';
import { codexHooksTrust, type CodexHooksTrust } from '../../hooks/codex-hook-trust.js';
import { inRepository } from '../../gate/repository-directory.js';
import { pageLimit, parseVerbArgs } from '../args.js';
import { connectUnjoined, using } from '../connection.js';
import { WAIT_WORDS } from '../../core/digest-markdown.js';
import { relativeTime } from '../../format/relative-time.js';
import { emit, moreLines, table } from '../output.js';
import { fetchLists } from '../paged-call.js';
import { escalationLines } from './work-show.js';
import { renderConflicts } from './conflicts.js';

type Status = Omit<Result<'fleet_status'>, 'nextCursor'>;
type Violations = Result<'fleet_violations'>;
/** `fleet status` lists this many of the newest unacknowledged violations (the count is always whole). */
const SHOWN_VIOLATIONS = 20;
/** ... and this many of the items escalated to the operator, each with the question it carries. */
const SHOWN_ESCALATIONS = 20;

export async function statusVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(
    argv,
    { watch: { type: 'boolean' }, all: { type: 'boolean' }, limit: { type: 'string' } },
    'fleet status [--json] [--watch] [--all] [--limit N]',
  );
  const limit = pageLimit(values.limit);
  // Every page unless --limit: the output is complete however large the fleet.
  const fetch = (client: PlaneClient) => fetchLists(limit, (page) => client.call('fleet_status', { includeGone: values.all ?? false, ...page }));
  if (!values.watch) {
    const [status, violations, escalated, forecast] = await using(connectUnjoined(home), (client) =>
      Promise.all([fetch(client), client.call('fleet_violations', { limit: SHOWN_VIOLATIONS }), client.call('fleet_work_list', { status: 'escalated', limit: SHOWN_ESCALATIONS }), client.call('fleet_conflicts', {})]),
    );
    const codexHooks = codexTrustHere();
    emit(
      values.json,
      { control: status.controlDetail, agents: status.agents, claims: withRepository(status.claims), parkedClaims: withRepository(status.parkedClaims), totals: status.totals, plane: status.plane, violations, escalations: escalated.items, writeSets: forecast.writeSets, conflicts: forecast.conflicts, ...(codexHooks && { codexHooks }) },
      () => `${render(status)}${codexHooks ? `\n\ncodex hooks: ${codexHooks.summary}` : ''}${renderViolations(violations)}${renderEscalations(escalated)}${forecast.writeSets.length > 0 ? `\n\n${renderConflicts(forecast)}` : ''}`,
    );
    return 0;
  }
  return watch(await connectUnjoined(home), fetch, values.json ?? false);
}

/** The live view: redraws on every event (and every second, for the countdowns) until Ctrl-C. */
async function watch(client: PlaneClient, fetch: (client: PlaneClient) => Promise<Status>, json: boolean): Promise<number> {
  let drawing = false;
  const draw = async () => {
    if (drawing) return;
    drawing = true;
    const status = await fetch(client).finally(() => (drawing = false));
    process.stdout.write(json ? `${JSON.stringify({ ...status, claims: withRepository(status.claims), parkedClaims: withRepository(status.parkedClaims) })}\n` : `\x1b[2J\x1b[H${render(status)}\n\n(watching; Ctrl-C to quit)\n`);
  };
  client.onNotification((method) => {
    // Fell behind: subscribe again; the next draw reads the whole state anyway.
    if (method === EVENTS_GAP_NOTIFICATION) void client.call('fleet_events_subscribe', {}).catch(() => undefined);
    void draw().catch(() => undefined);
  });
  await client.call('fleet_events_subscribe', {});
  await draw();
  const timer = setInterval(() => void draw().catch(() => undefined), 1000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    client.onClose(resolve);
  });
  clearInterval(timer);
  client.close();
  return 0;
}

/**
 * Whether Codex runs the fleet's hooks for the repository of the working directory (Codex skips
 * untrusted hooks without a word); undefined outside one, or when it has no fleet Codex hooks.
 */
function codexTrustHere(): Partial<CodexHooksTrust> & { summary: string } | undefined {
  const inThisRepository = new Map<string, boolean>();
  const here = (root: string) => {
    if (!inThisRepository.has(root)) inThisRepository.set(root, inRepository(process.cwd(), root));
    return inThisRepository.get(root)!;
  };
  try {
    return codexHooksTrust(here, process.env);
  } catch (error) {
    return { summary: `could not check them: ${(error as Error).message}` };
  }
}

/** Each claim with the readable name of its repository (`org/repo`), for people and scripts alike. */
function withRepository<C extends { scope: string }>(claims: C[]) {
  return claims.map((claim) => ({ ...claim, repository: scopeName(claim.scope) }));
}

/** Writes seen in another agent's exclusive territory, until the operator acknowledges them. */
/** Whether the agent's runtime hooks have run since it joined: "none" for Codex usually means not yet trusted. */
function hooksColumn(seen: { hook: string; at: string } | undefined): string {
  return seen === undefined ? 'none' : `${seen.hook.replace(/-pre-tool-use$/, '')} ${relativeTime(seen.at)}`;
}

function renderEscalations({ items, totals }: Result<'fleet_work_list'>): string {
  if (items.length === 0) return '';
  const more = totals.items > items.length ? `\n(${totals.items - items.length} more: fleet work list --status escalated)` : '';
  return `\n\nwaiting for the operator (${totals.items} escalated)\n${items.map((item) => [`${item.id}: ${item.title}`, ...escalationLines(item)].join('\n')).join('\n')}${more}`;
}

function renderViolations({ total, violations }: Violations): string {
  if (total === 0) return '';
  const shown = table([['PATH', 'WRITER', 'HOLDER', 'SEEN', 'ID'], ...violations.map((v) => [v.path, v.writer, v.holder, relativeTime(v.at), v.id])]);
  const more = total > violations.length ? `\n(${total - violations.length} older not shown: fleet call fleet_violations)` : '';
  return `\n\nviolations (${total} unacknowledged; fleet call fleet_violation_ack --params '{"all":true}' once seen)\n${shown}${more}`;
}

export function render(status: Status): string {
  const control = status.controlDetail;
  const lines = [
    `fleet: ${control.state}${control.reason ? ` (${control.reason})` : ''}, set by ${control.setBy} ${relativeTime(control.setAt)}`,
    `plane: ${status.plane.version}, pid ${status.plane.pid}, port ${status.plane.port}${status.plane.socket === undefined ? '' : `, socket ${status.plane.socket}`}, seq ${status.plane.seq}`,
    ...storeLines(status.plane.store),
    ...(status.plane.listen === undefined ? [] : [`remote agents: wss://${status.plane.listen} (TLS; service tokens; MCP at /mcp)`]),
    '',
    `agents (${status.totals.agents})`,
  ];
  if (status.agents.length > 0) {
    lines.push(
      table([
        ['CALLSIGN', 'RUNTIME', 'ROLE', 'STATUS', 'SEEN', 'CLAIMS', 'HOOKS', 'TASK'],
        ...status.agents.map((a) => [a.callsign, a.runtime, a.role, a.status, relativeTime(a.lastSeenAt), String(a.claimCount), hooksColumn(a.hooksSeen), a.task ?? '']),
      ]),
    );
  }
  // Runtimes waiting for a person (their Notification / PermissionRequest hooks): answer them in the runtime.
  for (const a of status.agents) if (a.waitingForPerson) lines.push(`  ${a.callsign} ${WAIT_WORDS[a.waitingForPerson.reason]} (since ${relativeTime(a.waitingForPerson.since)}): ${a.waitingForPerson.message}`);
  lines.push(...moreLines(status.agents.length, status.totals.agents, 'agents'), '', `claims (${status.totals.claims})`);
  if (status.claims.length > 0) {
    lines.push(
      table([
        ['HOLDER', 'REPOSITORY', 'PATTERN', 'MODE', 'FENCE', 'EXPIRES', 'REASON'],
        ...status.claims.map((c) => [c.holder, scopeName(c.scope), c.pattern, c.mode, String(c.fence), c.expiresAt === null ? 'while its process runs' : relativeTime(c.expiresAt), c.reason ?? '']),
      ]),
    );
  }
  lines.push(...moreLines(status.claims.length, status.totals.claims, 'claims'), ...parkedLines(status));
  return lines.join('\n');
}

/** Claims parked when two scopes merged: shown only while there are some, each waiting for what it overlaps. */
function parkedLines({ parkedClaims, totals }: Status): string[] {
  if (totals.parkedClaims === 0) return [];
  return [
    '',
    `parked claims (${totals.parkedClaims}; merged scopes overlapped: each is granted once what it overlaps is released)`,
    table([['HOLDER', 'REPOSITORY', 'PATTERN', 'MODE', 'PARKED', 'REASON'], ...parkedClaims.map((c) => [c.holder, scopeName(c.scope), c.pattern, c.mode, relativeTime(c.parkedAt), c.reason ?? ''])]),
    ...moreLines(parkedClaims.length, totals.parkedClaims, 'parked claims'),
  ];
}

/** The store line: which store, and for a replicated one its stream, health and problems. */
function storeLines(store: Status['plane']['store']): string[] {
  if (!store || store.kind === 'embedded') return ['store: embedded (this machine)'];
  const stale = store.staleSeconds === undefined ? '' : `, reads ${store.staleSeconds} s stale`;
  return [`store: NATS JetStream stream ${store.stream} at ${store.servers?.join(',')}: ${store.health}${stale}`, ...(store.problems ?? []).map((problem) => `  ! ${problem}`)];
}
