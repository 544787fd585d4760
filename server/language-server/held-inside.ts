/**
 * How many live claims lie inside each folder, for the hint on a collapsed folder ("3 held
 * inside"). A claim counts for every folder above the literal part of its pattern (src/parser/**
 * counts for src and src/parser), kept as counts updated per claim: nothing scans the claims.
 */
export class HeldInside {
  private readonly counts = new Map<string, number>();

  add(scope: string, pattern: string): void {
    for (const folder of foldersAbove(pattern)) this.bump(key(scope, folder), 1);
  }

  remove(scope: string, pattern: string): void {
    for (const folder of foldersAbove(pattern)) this.bump(key(scope, folder), -1);
  }

  /** Claims whose pattern lies inside `folder` (repository-relative; '' is the root). */
  count(scope: string, folder: string): number {
    return this.counts.get(key(scope, folder)) ?? 0;
  }

  clear(): void {
    this.counts.clear();
  }

  private bump(at: string, by: number): void {
    const next = (this.counts.get(at) ?? 0) + by;
    if (next > 0) this.counts.set(at, next);
    else this.counts.delete(at);
  }
}

const GLOB_MAGIC = /[*?[\]{}]/;

/** The folders a pattern lies inside: those above its first segment with glob magic (or its last). */
export function foldersAbove(pattern: string): string[] {
  const segments = pattern.split('/');
  const literal: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (GLOB_MAGIC.test(segment)) break;
    literal.push(segment);
  }
  const folders = [''];
  for (let depth = 1; depth <= literal.length; depth++) folders.push(literal.slice(0, depth).join('/'));
  return folders;
}

function key(scope: string, folder: string): string {
  return `${scope}\0${folder}`;
}
