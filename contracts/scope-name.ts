/**
 * A readable name for a scope (a repository's portable id, DESIGN §13), for people: its last two
 * segments (`github.com/org/repo` → `org/repo`), or for an id of one segment (a generated one, a
 * short `fleet.scope`) the id itself. The CLI and the editor show it beside each claim.
 */
export function scopeName(scope: string): string {
  const segments = scope.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split('/').filter((s) => s !== '');
  return segments.length <= 1 ? scope : segments.slice(-2).join('/');
}
