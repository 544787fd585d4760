import type { Result } from '../../../contracts/index.js';
import { parseVerbArgs } from '../args.js';
import { connectUnjoined, using } from '../connection.js';
import { relativeTime } from '../../format/relative-time.js';
import { emit, table } from '../output.js';

type Conflicts = Result<'fleet_conflicts'>;

/** `fleet conflicts [CALLSIGN]`: live write-sets and the merge conflicts forecast between live branches and the target. */
export async function conflictsVerb(argv: string[]): Promise<number> {
  const usage = 'fleet conflicts [CALLSIGN] [--json]';
  const { values, positionals, home } = parseVerbArgs(argv, {}, usage);
  const callsign = positionals[0];
  const result = await using(connectUnjoined(home), (client) => client.call('fleet_conflicts', callsign === undefined ? {} : { callsign }));
  emit(values.json, result, () => renderConflicts(result));
  return 0;
}

/** The forecast as `fleet conflicts` and `fleet status` print it. */
export function renderConflicts({ writeSets, conflicts }: Conflicts): string {
  const lines = [`write-sets (${writeSets.length})`];
  if (writeSets.length > 0) {
    lines.push(
      table([
        ['CALLSIGN', 'BRANCH', 'TARGET', 'PATHS', 'UPDATED'],
        ...writeSets.map((w) => [holderOf(w), shortRef(w.branch) ?? `(detached ${w.head.slice(0, 12)})`, shortRef(w.target)!, `${w.pathCount}${w.truncated ? '+' : ''}`, relativeTime(w.updatedAt)]),
      ]),
    );
    // Never silently skipped: a write-set the integrator could not compare says why.
    for (const w of writeSets) if (w.notCompared !== undefined) lines.push(`${w.callsign}: ${w.notCompared}`);
    for (const w of writeSets) if (w.awaitingLanding !== undefined) lines.push(`${holderOf(w)} — ${w.awaitingLanding.items.join(', ')} awaiting landing: its branch is still forecast against until then`);
  }
  lines.push('', `forecast conflicts (${conflicts.length})`);
  if (conflicts.length > 0) {
    lines.push(
      table([
        ['AGENT', 'BRANCH', 'WITH', 'THEIR BRANCH', 'PATHS', 'SINCE'],
        ...conflicts.map((c) => [c.callsign, shortRef(c.branch) ?? '(detached)', c.otherCallsign ?? '(target)', shortRef(c.otherBranch)!, `${c.paths.join(', ')}${c.truncated ? ', …' : ''}`, relativeTime(c.since)]),
      ]),
    );
  }
  return lines.join('\n');
}

const shortRef = (ref: string | undefined): string | undefined => ref?.replace(/^refs\/heads\//, '');

/** The write-set's agent, said to be gone when it is kept for its items awaiting landing. */
const holderOf = (w: Conflicts['writeSets'][number]): string => (w.awaitingLanding === undefined ? w.callsign : `${w.callsign} (${w.awaitingLanding.agent})`);
