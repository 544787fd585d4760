// The 2,000 claims of the editor benchmark, held through the real plane by 20 agents, each spread
// over its own packages (p ≡ a mod 20): single files, test folders and globs, as tree.ts mixes them.
import type { PlaneAddress } from '../../server/client/plane-client.js';
import { RawClient } from '../lib/raw-client.js';
import { seededRandom } from '../lib/stats.js';
import { backgroundPatterns } from '../lib/tree.js';
import type { EditorWorkspace } from './workspace.js';

export const CLAIM_AGENTS = 20;
export const CLAIMS_PER_AGENT = 100;
const PER_REQUEST = 50;

/** Agent a's 100 patterns, taken in turn from the packages p ≡ a (mod 20): files, test folders, globs. */
export function agentTerritory(a: number, packages: number): string[] {
  const pools: string[][] = [];
  for (let p = a; p < packages; p += CLAIM_AGENTS) pools.push(backgroundPatterns(p, seededRandom(9_000 + p)));
  const patterns: string[] = [];
  for (let k = 0; patterns.length < CLAIMS_PER_AGENT; k++) {
    const pool = pools[k % pools.length]!;
    const next = pool[Math.floor(k / pools.length)];
    if (next === undefined) throw new Error(`agent ${a} ran out of patterns`);
    patterns.push(next);
  }
  return patterns;
}

/** Joins the 20 agents and has them claim their territory; returns them, connected (their claims live). */
export async function holdClaims(address: PlaneAddress, token: string, workspace: EditorWorkspace): Promise<RawClient[]> {
  return Promise.all(
    Array.from({ length: CLAIM_AGENTS }, async (_, a) => {
      const agent = await RawClient.agent(address, token, `agent-${String(a).padStart(2, '0')}`);
      const patterns = agentTerritory(a, workspace.packages);
      for (let i = 0; i < patterns.length; i += PER_REQUEST) {
        const result = await agent.call<{ granted: boolean }>('fleet_claim_path', { patterns: patterns.slice(i, i + PER_REQUEST), root: workspace.root });
        if (!result.granted) throw new Error(`the claims of agent ${a} were refused`);
      }
      return agent;
    }),
  );
}
