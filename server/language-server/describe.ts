import type { Ownership, OwnershipHolder } from '../../contracts/lsp.js';
import { readableReason } from '../../contracts/reason-text.js';

/** The words the editor uses for ownership: diagnostics, hovers and CodeLenses say the same thing. */

export function lifetime(holder: OwnershipHolder): string {
  if (holder.expiresWith === 'process') return `held while ${holder.callsign}'s process runs`;
  if (holder.expiresWith === 'landing') return `held for its work item until ${holder.callsign}'s branch lands (awaiting integration)`;
  if (!holder.ttl || holder.expiresAt === null) return `held while ${holder.callsign} is live`;
  return `expires ${clock(holder.expiresAt)}`;
}

export function holderSummary(holder: OwnershipHolder): string {
  const reason = holder.reason ? `, “${readableReason(holder.reason)}”` : '';
  return `${holder.callsign} (${holder.pattern}, ${holder.mode}, ${lifetime(holder)}${reason})`;
}

export function otherHolders(ownership: Ownership): OwnershipHolder[] {
  return ownership.holders.filter((holder) => !holder.mine);
}

/** The diagnostic on an open file that another agent holds. */
export function territoryMessage(ownership: Ownership): string {
  const others = otherHolders(ownership);
  const names = [...new Set(others.map((holder) => holder.callsign))];
  const whose = names.length === 1 ? `${names[0]}'s` : `${names.join(' and ')}'s`;
  const held = others.map(holderSummary).join('; ');
  if (ownership.blocked) {
    return `${ownership.path} is in ${whose} exclusive territory: ${held}. Edits here collide with ${names.join(' and ')}'s work; ask for a handoff or wait for the release.`;
  }
  return `${ownership.path} is shared territory of ${names.join(', ')}: ${held}. Coordinate before editing.`;
}

export function hoverMarkdown(ownership: Ownership): string {
  const lines = [`**Fleet territory** · \`${ownership.path}\``, ''];
  for (const holder of ownership.holders) {
    const who = holder.mine ? `${holder.callsign} (you)` : holder.callsign;
    lines.push(`- **${who}** holds \`${holder.pattern}\` — ${holder.mode}, ${lifetime(holder)}${holder.reason ? ` — “${readableReason(holder.reason)}”` : ''}`);
  }
  lines.push('');
  if (ownership.kind === 'mine') lines.push('You hold this file.');
  else if (ownership.kind === 'contested') lines.push('Contested: an exclusive claim overlaps another agent\'s claim.');
  else if (ownership.blocked) lines.push('Another agent holds this file exclusively: a person should not edit it now.');
  else lines.push('Shared territory: each shared holder may write it; coordinate before editing.');
  return lines.join('\n');
}

export function lensTitle(ownership: Ownership): string {
  if (ownership.kind === 'mine') {
    const mine = ownership.holders[0]!;
    return `$(check) Yours (${mine.callsign}) · ${mine.pattern} · ${mine.mode} · ${lifetime(mine)}`;
  }
  const others = otherHolders(ownership);
  const names = [...new Set(others.map((holder) => holder.callsign))];
  // One agent, however many of its claims cover the file (src/** and src/a.ts): it holds it, nobody shares it.
  if (names.length === 1) {
    const holder = others.find((other) => other.mode === 'exclusive') ?? others[0]!;
    const patterns = others.map((other) => other.pattern).join(', ');
    return `$(lock) ${holder.callsign} holds this file · ${patterns} · ${holder.mode} · ${lifetime(holder)}`;
  }
  return ownership.kind === 'contested' ? `$(warning) Contested: ${names.join(', ')} hold this file` : `$(people) Shared by ${names.join(', ')} · each may write it`;
}

function clock(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
