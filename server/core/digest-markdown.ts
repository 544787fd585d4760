import type { Digest } from '../../contracts/index.js';

/** The digest as the operator reads it in FLEET_HOME/digest.md: most important first. */
export function renderDigestMarkdown(digest: Digest): string {
  const lines = [
    `# Fleet digest — ${digest.generatedAt}`,
    '',
    `Fleet switch: **${digest.control.state}**${digest.control.reason ? ` (${digest.control.reason})` : ''}, set by ${digest.control.setBy}. Events ${digest.fromSeq}–${digest.toSeq}.`,
    '',
  ];
  const section = (title: string, items: string[], empty?: string) => {
    if (items.length === 0 && empty === undefined) return;
    lines.push(`## ${title}`, '', ...(items.length > 0 ? items.map((i) => `- ${i}`) : [empty!]), '');
  };
  section(
    'Escalations waiting for the operator',
    digest.escalations.map((e) => `${e.title} (${e.id}): ${e.budget ? `${e.budget} budget spent, ${e.spent} of ${e.limit} rounds` : `escalated${e.reason ? `: ${e.reason}` : ''}`} (by ${e.by}); decide it with \`fleet work decide\``),
  );
  section('Blockers', digest.blockers.map((b) => `${b.text} (${b.kind} ${b.ref})`), 'None.');
  section(
    'Territory violations',
    digest.violations.map((v) => `${v.path}: written by ${v.writer} while ${v.holder} held it (${v.at}, seen by ${v.source})`),
  );
  if (digest.unacknowledgedViolations > 0) lines.push(`${digest.unacknowledgedViolations} violation${digest.unacknowledgedViolations === 1 ? '' : 's'} not yet acknowledged (\`fleet status\` lists them).`, '');
  section('Stale agents', digest.staleAgents.map((c) => `${c}: no heartbeat within the agent TTL`));
  section(
    'Agents',
    digest.agents.map((a) => `**${a.callsign}** (${a.role}, ${a.runtime}) ${a.status}${a.task ? ` — ${a.task}` : ''}${a.note ? `: ${a.note}` : ''}; ${a.claims} claims, ${a.workCompleted} items done`),
    'No agents on the roster.',
  );
  section('Builds', digest.builds.map((b) => `${b.scope}: **${b.status.toUpperCase()}**${b.commit ? ` at ${b.commit.slice(0, 10)}` : ''}${b.exitCode !== undefined && b.exitCode !== null ? `, exit ${b.exitCode}` : ''}`));
  section('Work completed', digest.workCompleted.map((w) => `${w.title} (${w.id}) by ${w.by}`));
  section('Budgets spent', digest.budgetsSpent.map((b) => `${b.title} (${b.id}): rework ${b.reworkRounds}/${b.reworkLimit}, clarification ${b.clarificationRounds}/${b.clarificationLimit}`));
  const counts = Object.entries(digest.workCounts).map(([status, n]) => `${status} ${n}`);
  if (counts.length > 0) lines.push(`Work queue: ${counts.join(', ')}.`, '');
  section('Handoffs', digest.handoffs.map((h) => `${h.from} → ${h.to}: ${h.status} (${h.id})`));
  section('Claims acquired', digest.claims.acquired.map((c) => `${c.holder}: ${c.pattern}${c.reason ? ` — ${c.reason}` : ''}`));
  section('Claims released', digest.claims.released.map((c) => `${c.holder}: ${c.pattern} — ${c.reason}${c.note ? ` (${c.note})` : ''}`));
  return `${lines.join('\n').trimEnd()}\n`;
}
