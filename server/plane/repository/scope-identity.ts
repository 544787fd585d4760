import { isAbsolute, resolve } from 'node:path';

/**
 * A scope's id is the same on every machine (DESIGN §13): it is derived from what every clone of
 * a repository shares, its `origin` URL, never from where the clone sits on disk. These functions
 * are pure: the resolver reads git config and hands them the values.
 */

/** `scheme://[user[:password]@]host[:port]/path` */
const URL_FORM = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)(?::\d*)?(\/[^?#]*)?/i;
/** git's scp-like form `[user@]host:path`: a colon before any slash, and no `://`. */
const SCP_FORM = /^(?:[^@/:]+@)?([^/:]+):(?!\/\/)(.*)$/;

/**
 * The origin URL in one form for every way of writing it: `host/path`, lower-case host, without
 * credentials, port, query, trailing `/` or `.git`. `git@github.com:org/repo.git`,
 * `https://user:token@github.com/org/repo` and `ssh://git@github.com:22/org/repo.git` are all
 * `github.com/org/repo`. A local path (or `file://` URL) is `file://` + its absolute path, resolved
 * against `baseDir` when relative, as git does.
 */
export function normalizeRemoteUrl(url: string, baseDir: string): string {
  const trimmed = url.trim();
  const asUrl = URL_FORM.exec(trimmed);
  if (asUrl) {
    const [, scheme, host, path = ''] = asUrl;
    if (scheme!.toLowerCase() === 'file') return `file://${cleanPath(decodeURIComponent(path))}`;
    return joinHostPath(host!, path);
  }
  const scp = SCP_FORM.exec(trimmed);
  if (scp && !isAbsolute(trimmed)) return joinHostPath(scp[1]!, scp[2]!);
  return `file://${cleanPath(resolve(baseDir, trimmed))}`;
}

/**
 * A scope as a caller names it (`scope` param, `fleet.scope`): a URL in any form is normalized
 * like an origin, so an agent may pass its clone's origin URL as it is; any other name is kept,
 * less surrounding space, trailing slashes and `.git`.
 */
export function canonicalScope(value: string): string {
  const trimmed = value.trim();
  if (URL_FORM.test(trimmed) || SCP_FORM.test(trimmed)) return normalizeRemoteUrl(trimmed, '/');
  return stripRepositorySuffix(trimmed.startsWith('/') ? `file://${cleanPath(trimmed)}` : trimmed);
}

/** Older planes identified a scope by its git common dir: an absolute path. No id of today is one. */
export function isLegacyScope(scope: string): boolean {
  return scope.startsWith('/');
}

function joinHostPath(host: string, path: string): string {
  const cleaned = cleanPath(path.startsWith('/') ? path : `/${path}`);
  return `${host.toLowerCase()}${cleaned}`;
}

/** `/a//b/repo.git/` → `/a/b/repo` */
function cleanPath(path: string): string {
  return stripRepositorySuffix(path.replace(/\/{2,}/g, '/'));
}

function stripRepositorySuffix(value: string): string {
  const bare = value.replace(/\/+$/, '');
  return (bare.endsWith('.git') ? bare.slice(0, -'.git'.length) : bare).replace(/\/+$/, '');
}
