// Reads a V8 .cpuprofile (node --cpu-prof) and lists where the time went: self time per function,
// and inclusive time per function of the plane's own code, as shares of the sampled total.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  name: string;
  where: string;
  selfShare: number;
  totalShare: number;
}

const label = (node: ProfileNode) => {
  const url = node.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/out\//, 'out/').replace(/^.*\/node_modules\//, 'node_modules/');
  return { name: node.callFrame.functionName || '(anonymous)', where: url ? `${url}:${node.callFrame.lineNumber + 1}` : '' };
};

export function summarizeProfile(path: string, top = 25): { sampledMs: number; idleShare: number; self: HotSpot[]; inclusive: HotSpot[] } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfTime = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    selfTime.set(profile.samples[i]!, (selfTime.get(profile.samples[i]!) ?? 0) + dt);
    total += dt;
  }
  const self = new Map<string, HotSpot>();
  const inclusive = new Map<string, HotSpot>();
  let idle = 0;
  for (const [id, time] of selfTime) {
    const node = byId.get(id)!;
    const { name, where } = label(node);
    if (name === '(idle)') idle += time;
    const key = `${name} ${where}`;
    const entry = self.get(key) ?? { name, where, selfShare: 0, totalShare: 0 };
    entry.selfShare += time / total;
    self.set(key, entry);
    // Inclusive time, counted once per function per stack (recursion must not count twice).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = label(byId.get(at)!);
      const frameKey = `${frame.name} ${frame.where}`;
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      const incl = inclusive.get(frameKey) ?? { name: frame.name, where: frame.where, selfShare: 0, totalShare: 0 };
      incl.totalShare += time / total;
      inclusive.set(frameKey, incl);
    }
  }
  const sortedSelf = [...self.values()].sort((a, b) => b.selfShare - a.selfShare).slice(0, top);
  const sortedInclusive = [...inclusive.values()]
    .filter((spot) => spot.where.startsWith('out/server/') || spot.where.startsWith('out/contracts/'))
    .sort((a, b) => b.totalShare - a.totalShare)
    .slice(0, top);
  return { sampledMs: total / 1000, idleShare: idle / total, self: sortedSelf, inclusive: sortedInclusive };
}

export function formatProfile(summary: ReturnType<typeof summarizeProfile>): string {
  const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)}%`;
  return [
    `sampled ${summary.sampledMs.toFixed(0)} ms, idle ${pct(summary.idleShare)}`,
    'self time:',
    ...summary.self.map((spot) => `  ${pct(spot.selfShare)}  ${spot.name}  ${spot.where}`),
    'inclusive time, plane code:',
    ...summary.inclusive.map((spot) => `  ${pct(spot.totalShare)}  ${spot.name}  ${spot.where}`),
  ].join('\n');
}

// As a script: node out/bench/lib/profile-summary.js FILE.cpuprofile
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/out\//, '/out/'))) {
  console.log(formatProfile(summarizeProfile(process.argv[2]!)));
}
