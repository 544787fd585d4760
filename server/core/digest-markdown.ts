import type { Digest } from '../../contracts/index.js';

/** What an agent's runtime waits for, as the operator reads it. */
export const WAIT_WORDS: Record<Digest['waitingForPerson'][number]['reason'], string> = { permission: 'asks permission', input: 'waits for your input', question: 'asks you a question' };

const EXPIRY_REASONS = new Set(['expired', 'process_exited']);

/** Nothing happened and nothing waits: the digest says so in one line instead of empty sections. */
export function isQuietDigest(digest: Digest): boolean {
  return digest.eventCount === 0 && digest.blockers.length === 0 && digest.awaitingDecision.length === 0 && digest.staleAgents.length === 0 && digest.unacknowledgedViolations === 0 && digest.waitingForPerson.length === 0 && digest.openForecastConflicts === 0 && digest.notComparedCount === 0;
}

/** A question past the clarification budget, as the operator answers it. */
function escalatedQuestion(itemId: string, q: NonNullable<Digest['escalations'][number]['question']>): string {
  const options = q.options.map((o, i) => `\n  ${i + 1}. ${o}`).join('');
  const answer = q.options.length > 0 ? `\`fleet work answer ${itemId} --option N --rationale WHY\`` : `\`fleet work answer ${itemId} --choose ANSWER --rationale WHY\``;
  return `${q.askedBy} asks: ${q.question}${q.context !== undefined ? ` (context: ${q.context})` : ''}${q.confidence !== undefined ? ` (${q.confidence} confidence going on without an answer)` : ''}${options}\n  answer with ${answer}, or decide it with \`fleet work decide\``;
}

/** The digest as the operator reads it in FLEET_HOME/digest.md: most important first, empty sections left out. */
export function renderDigestMarkdown(digest: Digest): string {
  const switchLine = `Fleet switch: **${digest.control.state}**${digest.control.reason ? ` (${digest.control.reason})` : ''}, set by ${digest.control.setBy}`;
  if (isQuietDigest(digest)) {
    return `Fleet digest — ${digest.generatedAt}: nothing happened since event ${digest.fromSeq - 1} and nothing waits for you. ${switchLine}; ${plural(digest.agents.length, 'agent')} on the roster.\n`;
  }
  const lines = [`# Fleet digest — ${digest.generatedAt}`, '', `${switchLine}. Events ${digest.fromSeq}–${digest.toSeq}.${digest.blockers.length === 0 ? ' No blockers.' : ''}`, ''];
  const train = trainHeadline(digest);
  if (train) lines.push(train, '');
  const section = (title: string, items: string[]) => {
    if (items.length > 0) lines.push(`## ${title}`, '', ...items.map((i) => `- ${i}`), '');
  };
  section(
    'Escalations waiting for the operator',
    digest.escalations.map((e) => `${e.title} (${e.id}): ${e.budget ? `${e.budget} budget spent, ${e.spent} of ${e.limit} rounds` : `escalated${e.reason ? `: ${e.reason}` : ''}`} (by ${e.by}); ${e.question ? escalatedQuestion(e.id, e.question) : 'decide it with `fleet work decide`'}`),
  );
  section('Agents waiting for a person', digest.waitingForPerson.map((w) => `**${w.callsign}** (${w.runtime}) ${WAIT_WORDS[w.reason]} since ${w.since}${w.tool ? ` (${w.tool})` : ''}: ${w.message}`));
  section('Blockers', digest.blockers.map((b) => `${b.text} (${b.kind} ${b.ref})`));
  // Escalated items are listed above with their budgets; here what else waits for a decision.
  section('Waiting for your decision', digest.awaitingDecision.filter((w) => w.status !== 'escalated').map((w) => `${w.title} (${w.id}): verified, accept or send back`));
  section('Builds', digest.builds.map((b) => `${b.scope}: **${b.status.toUpperCase()}**${b.commit ? ` at ${b.commit.slice(0, 10)}` : ''}${b.exitCode !== undefined && b.exitCode !== null ? `, exit ${b.exitCode}` : ''}`));
  section(
    'Territory violations',
    digest.violations.map((v) => `${v.path}: written by ${v.writer} while ${v.holder} held it (${v.at}, seen by ${v.source})`),
  );
  if (digest.unacknowledgedViolations > 0) lines.push(`${plural(digest.unacknowledgedViolations, 'violation')} not yet acknowledged (\`fleet status\` lists them).`, '');
  section(
    'Conflict forecast',
    digest.forecasts.map((f) => (f.status === 'conflict' ? `${f.agent} and ${f.other} would conflict in ${f.paths.join(', ')} (${f.at})` : `${f.agent} and ${f.other} no longer conflict (${f.at})`)),
  );
  if (digest.openForecastConflicts > 0) lines.push(`${plural(digest.openForecastConflicts, 'forecast conflict')} open now (\`fleet conflicts\` lists them).`, '');
  section('Not compared with other branches (no conflict can be forecast for them)', digest.notCompared.map((n) => `${n.callsign}${n.branch ? ` (${n.branch})` : ''}: ${n.reason}`));
  const unlisted = digest.notComparedCount - digest.notCompared.length;
  if (unlisted > 0) lines.push(`… and ${plural(unlisted, 'more write-set')} not compared (\`fleet conflicts\` lists them).`, '');
  section('Stale agents', digest.staleAgents.map((c) => `${c}: no heartbeat within the agent TTL`));
  section('Expired claims', digest.claims.released.filter((c) => EXPIRY_REASONS.has(c.reason)).map((c) => `${c.holder}: ${c.pattern} — ${c.reason === 'expired' ? 'its agent stopped heartbeating' : "its agent's process ended"}`));
  section('Work completed', doneByAgent(digest));
  section('Landed by the train', digest.integration.landed.map((l) => `${l.title} (${l.id}) by ${l.by} as ${l.commit.slice(0, 10)}${l.acceptToLandedMs !== undefined ? `, ${Math.round(l.acceptToLandedMs / 1000)} s after its accept` : ''}`));
  if (digest.integration.redBuilds + digest.integration.conflicts > 0) lines.push(`Train: ${plural(digest.integration.redBuilds, 'RED build')} (bisected, culprits sent back), ${plural(digest.integration.conflicts, 'conflict')} sent back to their builders.`, '');
  section('Could not land', digest.integration.failed.map((f) => `${f.id}: ${f.reason}`));
  section(
    'Agents',
    digest.agents.map((a) => `**${a.callsign}** (${a.role}, ${a.runtime}) ${a.status}${a.task ? ` — ${a.task}` : ''}${a.note ? `: ${a.note}` : ''}; ${a.claims} claims, ${a.workCompleted} items done`),
  );
  section('Budgets spent', digest.budgetsSpent.map((b) => `${b.title} (${b.id}): rework ${b.reworkRounds}/${b.reworkLimit}, clarification ${b.clarificationRounds}/${b.clarificationLimit}`));
  if (digest.agents.length === 0) lines.push('No agents on the roster.', '');
  section('Fleet switch', digest.controlChanges.map((c) => `${c.at}: ${c.state} by ${c.by}${c.reason ? ` — ${c.reason}` : ''}`));
  const counts = Object.entries(digest.workCounts).map(([status, n]) => `${status} ${n}`);
  if (counts.length > 0) lines.push(`Work queue: ${counts.join(', ')}.`, '');
  section('Handoffs', digest.handoffs.map((h) => `${h.from} → ${h.to}: ${h.status} (${h.id})`));
  section('Claims acquired', digest.claims.acquired.map((c) => `${c.holder}: ${c.pattern}${c.reason ? ` — ${c.reason}` : ''}`));
  section('Claims released', digest.claims.released.map((c) => `${c.holder}: ${c.pattern} — ${c.reason}${c.note ? ` (${c.note})` : ''}`));
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * What the train did, graded by the plane's own builds, for the first lines of a digest (a morning
 * report over the night): nothing landed unbuilt, so "landed" means built GREEN.
 */
export function trainHeadline(digest: Digest): string | undefined {
  const { landed, redBuilds, conflicts, failed } = digest.integration;
  if (landed.length + redBuilds + conflicts + failed.length === 0) return undefined;
  return `**Train: ${landed.length} landed** (each built GREEN by the plane), ${plural(redBuilds, 'RED build')}, ${plural(conflicts, 'conflict')} sent back, ${failed.length} could not land.`;
}

/** What got done, per agent: "ATLAS: parser (w-1), lexer (w-2)". */
function doneByAgent(digest: Digest): string[] {
  const byAgent = new Map<string, string[]>();
  for (const work of digest.workCompleted) byAgent.set(work.by, [...(byAgent.get(work.by) ?? []), `${work.title} (${work.id})`]);
  return [...byAgent].map(([agent, items]) => `${agent}: ${items.join(', ')}`);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
