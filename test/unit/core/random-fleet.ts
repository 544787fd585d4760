import { FleetError, type ControlState } from '../../../contracts/index.js';
import { claim } from '../../../server/core/claim.js';
import type { Caller } from '../../../server/core/context.js';
import { setControl } from '../../../server/core/control.js';
import { lease } from '../../../server/core/leases.js';
import { writeMemo } from '../../../server/core/memos.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { heartbeat, join, leave } from '../../../server/core/roster.js';
import { forceRelease, release, renew, transfer } from '../../../server/core/territory.js';
import { OPERATOR, OTHER_SCOPE, SCOPE, TTL_MS, seededRandom, type Harness } from '../../support/core-harness.js';

export const PATTERNS = ['src/**', 'src/a.ts', 'src/b/**', 'src/*.ts', 'docs/**', 'docs/x.md', '**/*.md', 'lib/{a,b}.ts', 'lib/**', '.github/**', 'README.md'];
export const PATHS = ['src/a.ts', 'src/b/c.ts', 'src/z.js', 'docs/x.md', 'docs/y/z.md', 'lib/a.ts', 'lib/c.ts', '.github/ci.yml', 'README.md', 'other.txt'];
export const SCOPES = [SCOPE, OTHER_SCOPE];
const CALLSIGNS = ['ATLAS', 'BOREAS', 'CYRUS', 'DELTA', 'ECHO'];
const CONTROL: ControlState[] = ['run', 'run', 'run', 'drain', 'pause', 'stop'];

export interface DriverOptions {
  /** Include transfers (which re-grant without a conflict check). */
  transfers?: boolean;
  /** Called after every step with the step number. */
  afterStep?: (step: number) => void;
}

/**
 * Drives a core with a seeded random mix of every command the core offers, including silences
 * long enough for agents to go unknown or expire. Refusals (FleetError) are part of the mix.
 */
export function driveRandomFleet(h: Harness, seed: number, steps: number, options: DriverOptions = {}): void {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const tokens = new Map<string, string>();
  const liveAgents = (): Caller[] => [...h.core.indexes.liveCallsigns.values()].map((agentId) => ({ kind: 'agent', agentId }));
  const anyAgent = (): Caller | undefined => {
    const live = liveAgents();
    return live.length > 0 ? pick(live) : undefined;
  };
  const someClaimIds = (): string[] => {
    const ids = [...h.core.state.claims.keys()];
    return ids.filter(() => random() < 0.3).concat(ids.length > 0 && random() < 0.7 ? [pick(ids)] : []);
  };
  let requestCounter = 0;

  for (let step = 0; step < steps; step++) {
    const roll = random();
    const agent = anyAgent();
    try {
      if (roll < 0.1 || !agent) {
        const callsign = pick(CALLSIGNS);
        const token = random() < 0.6 ? tokens.get(callsign) : undefined;
        const out = h.core.run(undefined, (ctx) => join(ctx, { callsign, runtime: pick(['codex', 'claude-code']), role: random() < 0.2 ? 'rte' : 'worker', ...(token && { sessionToken: token }) }));
        tokens.set(callsign, out.sessionToken);
      } else if (roll < 0.35) {
        const patterns = PATTERNS.filter(() => random() < 0.2);
        if (patterns.length === 0) patterns.push(pick(PATTERNS));
        const requestId = random() < 0.3 ? `r${random() < 0.5 ? requestCounter : ++requestCounter}` : undefined;
        const out = h.core.run(agent, (ctx) =>
          claim(
            ctx,
            agent,
            {
              scope: pick(SCOPES),
              patterns,
              mode: random() < 0.4 ? 'shared' : 'exclusive',
              ...(random() < 0.4 && { ttlSeconds: 1 + Math.floor(random() * 200) }),
              ...(random() < 0.2 && { waitSeconds: 1 + Math.floor(random() * 100) }),
              ...(requestId !== undefined && { requestId }),
            },
            h.core.queue,
          ),
        );
        if (out instanceof Promise) void out;
      } else if (roll < 0.45) {
        const ids = someClaimIds();
        h.core.run(agent, (ctx) => release(ctx, agent, random() < 0.5 ? { claimIds: ids } : { scope: pick(SCOPES), patterns: [pick(PATTERNS)] }));
      } else if (roll < 0.5) {
        h.core.run(agent, (ctx) => renew(ctx, agent, random() < 0.5 ? {} : { claimIds: someClaimIds(), ttlSeconds: 1 + Math.floor(random() * 100) }));
      } else if (roll < 0.55) {
        h.core.run(agent, (ctx) => heartbeat(ctx, agent, { status: pick(['active', 'idle', 'blocked'] as const) }));
      } else if (roll < 0.58) {
        h.core.run(agent, (ctx) => leave(ctx, agent));
      } else if (roll < 0.63) {
        const caller = random() < 0.5 ? OPERATOR : agent;
        h.core.run(caller, (ctx) => checkPaths(ctx, caller, pick(SCOPES), PATHS.filter(() => random() < 0.3).concat(pick(PATHS))));
      } else if (roll < 0.68 && options.transfers) {
        const caller = random() < 0.5 ? OPERATOR : agent;
        h.core.run(caller, (ctx) => transfer(ctx, caller, someClaimIds(), pick(CALLSIGNS)));
      } else if (roll < 0.7) {
        h.core.run(OPERATOR, (ctx) => forceRelease(ctx, OPERATOR, someClaimIds(), 'random'));
      } else if (roll < 0.76) {
        h.core.run(agent, (ctx) =>
          lease(ctx, agent, {
            action: pick(['acquire', 'acquire', 'renew', 'release'] as const),
            name: pick(['coordination/rte-lock', 'build/lock']),
            ...(random() < 0.5 && { ttlSeconds: 1 + Math.floor(random() * 300) }),
          }),
        );
      } else if (roll < 0.8) {
        const caller = random() < 0.3 ? OPERATOR : agent;
        h.core.run(caller, (ctx) =>
          writeMemo(ctx, caller, { key: pick(['a', 'b', 'plan/c']), value: step, ...(random() < 0.5 && { expectedVersion: Math.floor(random() * 3) }) }),
        );
      } else if (roll < 0.84) {
        const caller = random() < 0.5 ? OPERATOR : agent;
        h.core.run(caller, (ctx) => setControl(ctx, caller, pick(CONTROL), `step ${step}`));
      } else {
        // Time passes: mostly short steps, sometimes a silence long enough to expire agents.
        h.clock.advance(random() < 0.9 ? Math.floor(random() * 20_000) : Math.floor(random() * 3 * TTL_MS));
        h.core.sweep();
      }
    } catch (error) {
      if (!(error instanceof FleetError)) throw error;
    }
    options.afterStep?.(step);
  }
}
