import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { readGitConfig, setGitConfigOnce } from './git-config.js';
import { canonicalScope, normalizeRemoteUrl } from './scope-identity.js';

/**
 * The portable id of the repository whose git common dir is `gitDir` (DESIGN §13): git config
 * `fleet.scope` if set, else the normalized `origin` URL, else an id generated now and written to
 * the repository's config as `fleet.scope`, so every later call, restart and worktree agrees.
 */
export function scopeIdOf(gitDir: string): string {
  const configPath = join(gitDir, 'config');
  const config = readGitConfig(configPath);
  const named = config.get('fleet.scope')?.trim();
  if (named) return canonicalScope(named);
  const origin = config.get('remote.origin.url')?.trim();
  // A relative origin is relative to the main worktree, as git resolves it there.
  if (origin) return normalizeRemoteUrl(origin, mainWorktreeOf(gitDir));
  return canonicalScope(setGitConfigOnce(configPath, 'fleet', 'scope', generatedId(gitDir)));
}

/** `<folder>-<12 hex>`: readable where it shows (fleet status, the editor), unique everywhere. */
function generatedId(gitDir: string): string {
  const folder = basename(mainWorktreeOf(gitDir)).replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]+/g, '-') || 'repo';
  return `${folder}-${randomBytes(6).toString('hex')}`;
}

/** `/x/repo/.git` → `/x/repo`; a bare repository (`/x/repo.git`) is its own. */
function mainWorktreeOf(gitDir: string): string {
  return basename(gitDir) === '.git' ? dirname(gitDir) : gitDir;
}
