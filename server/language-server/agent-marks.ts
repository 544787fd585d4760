/**
 * Two-character marks for the Explorer badges, unique among live agents: BOREAS and BOLT must not
 * both read "BO". A live agent keeps its mark for as long as it is live (a badge never changes
 * meaning under the person's eyes); a newcomer takes the first of its candidates nobody holds.
 */
export class AgentMarks {
  private readonly byAgent = new Map<string, string>();
  private readonly holders = new Map<string, string>();

  /** The agent's mark, assigning one on first sight. */
  assign(agentId: string, callsign: string): string {
    const held = this.byAgent.get(agentId);
    if (held !== undefined) return held;
    const mark = firstFree(callsign, this.holders) ?? callsignMark(callsign);
    this.byAgent.set(agentId, mark);
    this.holders.set(mark, agentId);
    return mark;
  }

  /** The agent left the roster: its mark is free for the next one. */
  release(agentId: string): void {
    const mark = this.byAgent.get(agentId);
    if (mark === undefined) return;
    this.byAgent.delete(agentId);
    if (this.holders.get(mark) === agentId) this.holders.delete(mark);
  }

  of(agentId: string): string | undefined {
    return this.byAgent.get(agentId);
  }

  clear(): void {
    this.byAgent.clear();
    this.holders.clear();
  }
}

function firstFree(callsign: string, taken: ReadonlyMap<string, string>): string | undefined {
  for (const mark of markCandidates(callsign)) if (!taken.has(mark)) return mark;
  return undefined;
}

/** Two characters for a callsign: initials of a compound name (claude-bob → CB), else its first two. */
export function callsignMark(callsign: string): string {
  const words = callsign.split(/[-_]+/).filter((word) => word.length > 0);
  const mark = words.length >= 2 ? `${words[0]![0]}${words[words.length - 1]![0]}` : callsign.slice(0, 2);
  return mark.toUpperCase();
}

/**
 * The marks a callsign may take, most telling first: its usual mark, then its first letter with
 * each later letter of its name (BOLT: BO, BL, BT), then its first letter with a digit, then any.
 */
export function* markCandidates(callsign: string): Generator<string> {
  yield callsignMark(callsign);
  const letters = callsign.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const first = letters[0] ?? '?';
  for (const later of letters.slice(1)) yield `${first}${later}`;
  for (const digit of '23456789') yield `${first}${digit}`;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (const a of alphabet) for (const b of alphabet) yield `${a}${b}`;
}
