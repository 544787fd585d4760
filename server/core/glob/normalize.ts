import { braceExpand } from 'minimatch';
import { PatternError } from './pattern-error.js';

export const MAX_PATTERN_LENGTH = 1024;
export const MAX_BRACE_EXPANSIONS = 64;
/** minimatch stops walking `**` after 200 nested levels (a deliberate false negative), so stay far below. */
export const MAX_GLOBSTARS = 32;

const EXTGLOB = /[+@!?*]\(/;
const WINDOWS_DRIVE = /^[A-Za-z]:/;
// minimatch would turn these into Unicode property classes, which overlap cannot reason about exactly.
const POSIX_CLASS = /\[:(?:alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]/;

/**
 * Normalizes a repository-relative claim pattern: collapses repeated `/`, drops `.` segments, and
 * turns a trailing `/` into `/**` (the directory's subtree). Throws PatternError for anything the
 * territory semantics refuse, so that what is stored is exactly what is matched.
 */
export function normalizePattern(input: string): string {
  if (input.length > MAX_PATTERN_LENGTH) {
    throw new PatternError(input, `pattern is ${input.length} characters long: the limit is ${MAX_PATTERN_LENGTH}; claim a directory (e.g. "src/api/") or use a shorter glob`);
  }
  refuseUnsafe(input, 'pattern');
  if (input.startsWith('!')) {
    throw new PatternError(input, `pattern "${input}" starts with "!": negated patterns are not supported; claim the paths you want rather than excluding some`);
  }
  if (input.startsWith('#')) {
    throw new PatternError(input, `pattern "${input}" starts with "#", which glob syntax reads as a comment; to name a file starting with "#", write "[#]${input.slice(1)}"`);
  }
  const extglob = EXTGLOB.exec(input);
  if (extglob) {
    throw new PatternError(input, `pattern "${input}" uses the extglob "${extglob[0]}…)": extglobs are not supported; use "*", "?", "[…]" or "{a,b}", and write a literal "(" as "[(]"`);
  }
  const posix = POSIX_CLASS.exec(input);
  if (posix) {
    throw new PatternError(input, `pattern "${input}" uses the POSIX class "${posix[0]}": it is not supported; list the characters or a range instead, e.g. "[a-zA-Z]"`);
  }
  const { segments, directory } = splitSegments(input, 'pattern');
  const normalized = directory && segments[segments.length - 1] !== '**' ? [...segments, '**'].join('/') : segments.join('/');
  checkExpansions(input, normalized);
  return normalized;
}

/**
 * Normalizes a repository-relative file path given to the check: collapses repeated `/` and drops
 * `.` segments (and a trailing `/`). No glob syntax is interpreted. Absolute paths are refused: the
 * caller converts them with the repository root first.
 */
export function normalizePath(input: string): string {
  refuseUnsafe(input, 'path');
  return splitSegments(input, 'path').segments.join('/');
}

function refuseUnsafe(input: string, kind: 'pattern' | 'path'): void {
  if (input.trim() === '') {
    throw new PatternError(input, `${kind} is empty: give a repository-relative ${kind === 'pattern' ? 'glob such as "src/**" or a path such as "src/app.ts"' : 'path such as "src/app.ts"'}`);
  }
  if (input.includes('\0')) {
    throw new PatternError(input, `${kind} ${JSON.stringify(input)} contains a NUL character: remove it`);
  }
  if (input.startsWith('/') || WINDOWS_DRIVE.test(input)) {
    throw new PatternError(input, `${kind} "${input}" is absolute: give it relative to the repository root (e.g. "src/app.ts"), not as a file-system path`);
  }
  if (input.includes('\\')) {
    throw new PatternError(input, `${kind} "${input}" contains a backslash: separate directories with "/"${kind === 'pattern' ? ', and write a special character literally inside a class, e.g. "[*]"' : ''}`);
  }
}

function splitSegments(input: string, kind: 'pattern' | 'path'): { segments: string[]; directory: boolean } {
  const raw = input.split('/');
  const last = raw[raw.length - 1];
  const segments = raw.filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw new PatternError(input, `${kind} "${input}" has a ".." segment, which can leave the repository root: ".." segments are not allowed; give a path inside the repository`);
  }
  if (segments.length === 0) {
    throw new PatternError(input, `${kind} "${input}" names the repository root itself: ${kind === 'pattern' ? 'write "**" to cover the whole repository' : 'give a file inside the repository'}`);
  }
  return { segments, directory: last === '' || last === '.' };
}

// Braces can smuggle in what the plain checks refused ("{..,a}/x", "{/etc,a}"), so each expansion is checked too.
function checkExpansions(input: string, normalized: string): void {
  let expansions: string[];
  try {
    expansions = braceExpand(normalized, { braceExpandMax: MAX_BRACE_EXPANSIONS + 1 });
  } catch {
    throw new PatternError(input, `pattern "${input}" has braces too deeply nested to expand: list the alternatives as separate patterns`);
  }
  if (expansions.length > MAX_BRACE_EXPANSIONS) {
    throw new PatternError(input, `pattern "${input}" expands to more than ${MAX_BRACE_EXPANSIONS} alternatives: use fewer "{a,b}" groups or a wildcard such as "*"`);
  }
  if (expansions.length === 0 || expansions.includes('')) {
    throw new PatternError(input, `pattern "${input}" has a "{…}" alternative that leaves the pattern empty: give every alternative a path`);
  }
  for (const expansion of expansions) {
    const segments = expansion.split(/\/+/);
    if (expansion.startsWith('/')) {
      throw new PatternError(input, `pattern "${input}" expands to the absolute "${expansion}": keep every "{…}" alternative relative to the repository root`);
    }
    if (expansion.endsWith('/')) {
      throw new PatternError(input, `pattern "${input}" expands to "${expansion}", which ends with "/": write a directory inside braces as "dir/**"`);
    }
    if (segments.includes('..')) {
      throw new PatternError(input, `pattern "${input}" expands to "${expansion}", which has a ".." segment: ".." segments are not allowed; give paths inside the repository`);
    }
    if (segments.includes('.')) {
      throw new PatternError(input, `pattern "${input}" expands to "${expansion}", which has a "." segment: write that alternative without "./"`);
    }
    if (segments.filter((segment) => segment === '**').length > MAX_GLOBSTARS) {
      throw new PatternError(input, `pattern "${input}" has more than ${MAX_GLOBSTARS} "**" segments: one "**" already matches any depth, so remove the extra ones`);
    }
  }
}
