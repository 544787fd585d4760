import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { codexConfigPath } from '../mcp/runtime-config.js';
import { codexHookHash, codexHookKey } from './codex-hook-hash.js';
import { CODEX_CONFIG_READ_LIMIT, readCodexHookStates, type CodexHookState } from './codex-hook-state.js';
import { codexHooksPath, placedFleetCodexHooks } from './codex-hooks-file.js';

/**
 * Whether Codex will run the fleet's hooks for a repository: each hook's current hash against the
 * `trusted_hash` the user gave it in `/hooks` (codex-hook-hash.ts says how Codex computes both).
 * Codex skips a hook that is not trusted without a word, so `fleet init`, `install-hooks` and
 * `fleet status` say it instead.
 */
export type CodexHookTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled' | 'unknown';

export interface CodexHookTrustEntry {
  event: string;
  key: string;
  trust: CodexHookTrust;
}

export interface CodexHooksTrust {
  hooksFile: string;
  hooks: CodexHookTrustEntry[];
  /** One sentence for people: what Codex does with these hooks, and what to do. */
  summary: string;
}

/** The trust of the fleet's Codex hooks whose repository `forRoot` accepts; undefined when there are none. */
export function codexHooksTrust(forRoot: (root: string) => boolean, env: NodeJS.ProcessEnv): CodexHooksTrust | undefined {
  const placed = placedFleetCodexHooks(env).filter((hook) => forRoot(hook.root));
  if (placed.length === 0) return undefined;
  const states = readStates(codexConfigPath(env));
  const hooksFile = keySourcePath(env);
  const hooks = placed.map(({ event, group, index, matcher, hook }) => {
    const key = codexHookKey(hooksFile, event, group, index);
    return { event, key, trust: states === undefined ? ('unknown' as const) : trustOf(states.get(key), codexHookHash(event, matcher, hook)) };
  });
  return { hooksFile, hooks, summary: summarize(hooks) };
}

function trustOf(state: CodexHookState | undefined, hash: string): CodexHookTrust {
  if (state?.enabled === false) return 'disabled';
  if (state?.trustedHash === undefined) return 'untrusted';
  return state.trustedHash === hash ? 'trusted' : 'modified';
}

function summarize(hooks: CodexHookTrustEntry[]): string {
  const events = (trust: CodexHookTrust) => [...new Set(hooks.filter((hook) => hook.trust === trust).map((hook) => hook.event))].join(', ');
  const sentences = [
    events('unknown') && `fleet could not read Codex's trust in its hooks (${events('unknown')}): ${CODEX_CONFIG_READ_LIMIT / 1024 / 1024} MiB is the most it reads of config.toml; check them in Codex's /hooks`,
    events('modified') && `re-trust needed: the hook command changed since you trusted it (${events('modified')}): open Codex and run /hooks to review and trust them again`,
    events('untrusted') && `Codex hooks installed but NOT trusted yet (${events('untrusted')}): open Codex and run /hooks to review and trust them`,
    events('disabled') && `Codex hooks disabled in /hooks (${events('disabled')}): Codex does not run them until you enable them there`,
  ].filter(Boolean);
  return sentences.length > 0 ? `${sentences.join('; ')}. Until then Codex agents are gated at commit only.` : 'Codex hooks trusted: Codex runs them.';
}

/** The hook states of config.toml; none when it does not exist; undefined when it is too large to read. */
function readStates(path: string): Map<string, CodexHookState> | undefined {
  if (!existsSync(path)) return new Map();
  if (statSync(path).size > CODEX_CONFIG_READ_LIMIT) return undefined;
  return readCodexHookStates(readFileSync(path, 'utf8'));
}

/**
 * hooks.json's path as Codex spells it in the keys: under $CODEX_HOME, which Codex canonicalizes
 * (codex-rs/utils/home-dir/src/lib.rs), or under ~/.codex as it is.
 */
function keySourcePath(env: NodeJS.ProcessEnv): string {
  const path = codexHooksPath(env);
  if (!env.CODEX_HOME) return path;
  try {
    return codexHooksPath({ ...env, CODEX_HOME: realpathSync(env.CODEX_HOME) });
  } catch {
    return path;
  }
}
