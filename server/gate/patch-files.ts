// The files a patch writes, read from its text as `git apply`, `git am` and `patch` read it: the
// names on its headers (unified and git diffs: `diff --git`, `---`, `+++`, renames and copies; a
// Codex envelope's `*** Update File:` lines), less the leading folders `-p` strips.
import { patchedPaths } from '../hooks/codex-patch-paths.js';

/** How a command applies a patch: `-pN` (undefined: GNU patch's default, see below) and a folder its names are under (`patch -d DIR`, `git apply --directory=DIR`). */
export interface PatchReading {
  strip?: number;
  prefix?: string;
  /** The command, for the refusal (`git apply`, `patch`). */
  via: string;
}

/** Header lines read at most: a patch of thousands of files is checked by its first ones (and the watcher sees the rest). */
const MAX_TARGETS = 500;

/** The paths the patch writes, relative to where it is applied, each once. */
export function patchTargets(text: string, reading: Omit<PatchReading, 'via'>): string[] {
  const targets = new Set<string>(patchedPaths(text));
  const add = (name: string, strip: number | undefined) => {
    for (const path of stripped(name, strip)) if (targets.size < MAX_TARGETS) targets.add(reading.prefix ? `${reading.prefix.replace(/\/+$/, '')}/${path}` : path);
  };
  for (const line of text.split(/\r?\n/)) {
    if (targets.size >= MAX_TARGETS) break;
    const git = /^diff --git (\S+|"[^"]*") (\S+|"[^"]*")\s*$/.exec(line);
    if (git) {
      add(unquoted(git[1]!), reading.strip);
      add(unquoted(git[2]!), reading.strip);
      continue;
    }
    const file = /^(?:---|\+\+\+|Index:) (.+)$/.exec(line);
    if (file) {
      // `--- a/x.ts\t2024-01-01 …`: the name ends at a tab; /dev/null is no file.
      const name = unquoted(file[1]!.split('\t')[0]!.trim());
      if (name !== '/dev/null') add(name, reading.strip);
      continue;
    }
    // git writes rename and copy names without the a/ b/ prefix: one folder fewer is stripped.
    const moved = /^(?:rename from|rename to|copy to) (.+)$/.exec(line);
    if (moved) add(unquoted(moved[1]!.trim()), reading.strip === undefined ? undefined : Math.max(0, reading.strip - 1));
  }
  return [...targets];
}

/**
 * A header's name less `strip` leading folders. Without `-p`, GNU patch takes the whole name when
 * its folders exist, else the base name: both are checked (the disk is not looked at here).
 */
function stripped(name: string, strip: number | undefined): string[] {
  const parts = name.split('/').filter((part) => part !== '');
  if (strip === undefined) return [...new Set([parts.join('/'), parts.slice(1).join('/'), parts.at(-1)!].filter((path) => path !== undefined && path !== ''))];
  const rest = parts.slice(strip).join('/');
  return rest === '' ? [] : [name.startsWith('/') && strip === 0 ? `/${rest}` : rest];
}

/** A name git quoted (`"a/x y.ts"`), with its escapes read. */
function unquoted(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  return name.slice(1, -1).replace(/\\(["\\])/g, '$1').replace(/\\t/g, '\t').replace(/\\n/g, '\n');
}
