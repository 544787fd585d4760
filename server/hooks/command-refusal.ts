import type { CommandVerdict } from './hook-check.js';
import { unjoinedSession } from './refusal-message.js';

const MAX_LISTED = 20;

/**
 * Words a refused shell command for the model: each write into another agent's territory (path,
 * holder, what writes it), each act as someone else, and what to do instead.
 */
export function explainCommandRefusal(verdict: CommandVerdict): string {
  const agent = verdict.agent?.callsign;
  const lines = [`Fleet: this command was not run${agent ? ` (you are ${agent})` : ''}:`];
  if (!verdict.agent && verdict.refused.length > 0) {
    lines.push(unjoinedSession('claude-code'));
  }
  for (const refusal of verdict.identity) lines.push(`  refused: ${refusal.what}. Instead: ${refusal.instead}.`);
  for (const refused of verdict.refused.slice(0, MAX_LISTED)) {
    const others = refused.holders.filter((h) => h.callsign !== agent && h.mode === 'exclusive');
    const whose = others.length > 0 ? `held exclusively by ${others.map((h) => `${h.callsign} (claim ${h.pattern}, until ${h.expiresAt})`).join('; ')}` : `not claimed by ${agent ?? 'you'}`;
    lines.push(`  ${refused.path} (${refused.via}${refused.written !== refused.path ? `: ${refused.written}` : ''}): ${whose}`);
  }
  if (verdict.refused.length > MAX_LISTED) lines.push(`  … and ${verdict.refused.length - MAX_LISTED} more`);
  if (verdict.refused.length > 0) {
    const paths = verdict.refused.slice(0, 5).map((r) => r.path);
    const holders = [...new Set(verdict.refused.flatMap((r) => r.holders.filter((h) => h.callsign !== agent && h.mode === 'exclusive').map((h) => h.callsign)))];
    lines.push(`Claim before writing: fleet_claim_path {"patterns": ${JSON.stringify(paths)}} (or fleet claim --as ${agent ?? 'YOU'} …).`);
    if (holders.length > 0) lines.push(`Held by ${holders.join(', ')}: work elsewhere, queue for it (waitSeconds), or ask for a handoff (fleet_message_send to ${holders[0]}).`);
    lines.push('Writing through the shell is gated like the file tools; a symlink is checked as the file it points to.');
  }
  for (const note of verdict.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}
