import { relativeTime } from '../format/relative-time.js';
import type { HookVerdict } from './hook-check.js';

type Holder = HookVerdict['results'][number]['holders'][number];

const MAX_LISTED = 20;

/**
 * Words a refusal so that a model or a person can act on it: which path, whose claim (or none),
 * until when, and how to ask for it. Both hooks say the same thing in their own protocol.
 */
export function explainRefusal(verdict: HookVerdict, options: { hook: 'git-pre-commit' | 'claude-pre-tool-use' | 'codex-pre-tool-use'; now?: number }): string {
  const now = options.now ?? Date.now();
  const agent = verdict.agent;
  const refused = verdict.results.filter((r) => !r.allowed);
  const lines: string[] = [];
  if (agent && (agent.status === 'expired' || agent.status === 'left')) {
    lines.push(`${agent.callsign} is not on the roster any more (${agent.status}): an agent that ${agent.status === 'left' ? 'left' : 'expired'} holds no territory. Join again, then claim before writing.`);
  }
  if (!agent && options.hook !== 'git-pre-commit') lines.push(unjoinedSession(options.hook === 'codex-pre-tool-use' ? 'codex' : 'claude-code'));
  const who = agent ? agent.callsign : 'you';
  for (const result of refused.slice(0, MAX_LISTED)) lines.push(`  ${result.path}: ${why(result.holders, agent?.callsign, now)}`);
  if (refused.length > MAX_LISTED) lines.push(`  … and ${refused.length - MAX_LISTED} more`);

  const paths = refused.map((r) => r.path);
  const holders = [...new Set(refused.flatMap((r) => r.holders.filter((h) => h.callsign !== agent?.callsign && h.mode === 'exclusive').map((h) => h.callsign)))];
  const howTo: string[] = [];
  if (agent) {
    const listed = paths.slice(0, 5).map(shellQuote).join(' ');
    howTo.push(`Claim before writing: fleet claim --as ${agent.callsign} ${listed}  (MCP tool: fleet_claim_path {"patterns": ${JSON.stringify(paths.slice(0, 5))}})`);
    if (holders.length > 0) {
      howTo.push(`Held by ${holders.join(', ')}: work elsewhere, queue for it (fleet claim --as ${agent.callsign} --wait 600 …, or waitSeconds), or ask for a handoff: fleet_message_send {"to": {"callsign": "${holders[0]}"}, "type": "REQUEST", "body": "may I have ${paths[0]}?"}`);
    }
  } else if (holders.length > 0) {
    howTo.push(`Ask ${holders.join(', ')} to release it or hand it over, or wait until the claim ends (fleet status shows the claims).`);
  }
  howTo.push(`Operator escape hatch: FLEET_OVERRIDE="<reason>" lets it through and is recorded as an event${options.hook === 'git-pre-commit' ? ' (git commit --no-verify skips every git hook, unrecorded)' : ''}.`);

  const headline =
    options.hook === 'git-pre-commit'
      ? `fleet: commit refused: ${refused.length} staged path${refused.length === 1 ? ' is' : 's are'} outside ${agent ? `${who}'s` : 'your'} territory`
      : `Fleet territory: ${agent ? agent.callsign : 'you'} may not write ${refused.length === 1 ? 'this file' : 'these files'} now`;
  return [headline + ':', ...lines, ...howTo].join('\n');
}

/** Said to a runtime's session that is no agent (DESIGN §11): it writes as a person, and how it joins. */
export function unjoinedSession(runtime: 'claude-code' | 'codex'): string {
  return `This session has not joined the fleet (FLEET_AS is not set, and no agent joined through this session's MCP bridge), so it writes as a person: files no agent holds are free, held ones are refused. To work here as an agent, join first (MCP tool fleet_agent_join with the callsign the operator gave you, runtime "${runtime}"), then claim before writing.`;
}

function why(holders: Holder[], self: string | undefined, now: number): string {
  const awaiting = holders.filter((h) => h.heldFor !== undefined);
  if (awaiting.length > 0) {
    return `held for work item ${awaiting.map((h) => `${h.heldFor} (built by ${h.callsign})`).join('; ')}, awaiting integration: nobody writes here until that branch lands on the target`;
  }
  const others = holders.filter((h) => h.callsign !== self);
  const exclusive = others.filter((h) => h.mode === 'exclusive');
  if (exclusive.length > 0) return `held exclusively by ${exclusive.map((h) => describeHolder(h, now)).join('; ')}`;
  if (self !== undefined && holders.some((h) => h.callsign === self)) {
    return 'your claim on it travels with a pending handoff (in escrow): nobody writes under it until the handoff is accepted or declined';
  }
  if (others.length > 0) return `held shared by ${others.map((h) => describeHolder(h, now)).join('; ')}, and ${self ?? 'you'} hold${self ? 's' : ''} no claim covering it`;
  return `unclaimed: ${self ?? 'you'} hold${self ? 's' : ''} no live claim covering it`;
}

function describeHolder(holder: Holder, now: number): string {
  return `${holder.callsign} (claim ${holder.pattern}, until ${holder.expiresAt}, ${relativeTime(holder.expiresAt, now)})`;
}

function shellQuote(path: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
