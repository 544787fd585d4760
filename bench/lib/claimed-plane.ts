// The fleet the hook benchmarks run against: a plane whose agents outlive the run without
// heartbeats, a repository where WRITER holds src/**, and others holding claims of their own in it,
// so each check weighs real claims.
import { join } from 'node:path';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { makeRepo } from '../../test/support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../test/support/plane-process.js';
import { track } from './children.js';

export interface ClaimedPlane {
  plane: PlaneProcess;
  repo: string;
  close(): Promise<void>;
}

export async function claimedPlane(name: string, otherAgents: number): Promise<ClaimedPlane> {
  // Agents that outlive the run without heartbeats: the claims stay live however long it takes.
  const plane = await startPlaneProcess({ home: tempHome(`fleet-bench-${name}-`), env: { FLEET_AGENT_TTL: '3600' } });
  track(plane.child);
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' });
  const elsewhere = tempHome(`fleet-bench-${name}-others-`);
  const clients: PlaneClient[] = [];
  const writer = await plane.connect(`bench-${name}-writer`);
  clients.push(writer);
  await writer.call('fleet_agent_join', { callsign: 'WRITER', runtime: 'claude-code', worktree: repo });
  await writer.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  for (let i = 0; i < otherAgents; i++) {
    const other = await plane.connect(`bench-${name}-other-${i}`);
    clients.push(other);
    await other.call('fleet_agent_join', { callsign: `OTHER-${i}`, runtime: 'codex', worktree: join(elsewhere, `wt-${i}`) });
    await other.call('fleet_claim_path', { patterns: [`lib/area-${i}/**`, `docs/part-${i}.md`], root: repo });
  }
  return {
    plane,
    repo,
    async close() {
      for (const client of clients) client.close();
      await plane.stop();
      removeHome(plane.home);
      removeHome(repo);
      removeHome(elsewhere);
    },
  };
}
