import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScopeRename } from '../../core/scope-merge.js';
import type { State } from '../../core/state.js';
import { scopeIdOf } from './scope-id-of.js';
import { isLegacyScope } from './scope-identity.js';

/**
 * Older planes named a scope by its git common dir, a path of one machine. At start-up the plane
 * finds such ids in the recovered state and plans their renames to portable ids (DESIGN §13),
 * reading each repository's config as the resolver does. A repository no longer on disk keeps
 * its old id: nothing can reach it by path any more, and its claims end with their agents.
 */
export function planScopeMigration(state: State): { renames: ScopeRename[]; gone: string[] } {
  const renames: ScopeRename[] = [];
  const gone: string[] = [];
  for (const old of legacyScopesIn(state)) {
    const id = portableIdOf(old);
    if (id === undefined) gone.push(old);
    else renames.push({ from: old, to: id });
  }
  return { renames, gone };
}

/** Copies the store's folder aside, as an older plane left it, before anything is rewritten. */
export async function backUpState(stateDir: string, at: Date): Promise<string | undefined> {
  if (!existsSync(stateDir)) return undefined;
  const backup = `${stateDir}.before-scope-migration-${at.toISOString().replace(/[:.]/g, '-')}`;
  await cp(stateDir, backup, { recursive: true, errorOnExist: true, force: false });
  return backup;
}

function legacyScopesIn(state: State): Set<string> {
  const scopes = new Set<string>();
  const note = (scope: string | undefined) => {
    if (scope !== undefined && isLegacyScope(scope)) scopes.add(scope);
  };
  for (const scope of state.claimFences.keys()) note(scope);
  for (const records of [state.claims.values(), state.parkedClaims.values(), state.work.values(), state.buildConfigs.values(), state.buildRuns.values(), state.violations.values()]) {
    for (const record of records) note(record.scope);
  }
  return scopes;
}

function portableIdOf(commonDir: string): string | undefined {
  if (!existsSync(join(commonDir, 'HEAD'))) return undefined;
  try {
    return scopeIdOf(commonDir);
  } catch {
    return undefined; // e.g. its config is locked right now: it is migrated at the next start
  }
}
