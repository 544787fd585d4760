/**
 * A claim pattern that matches exactly one file path, whatever characters its name has: glob
 * characters are written inside a class (`[id].tsx` → `[[]id].tsx`, `a*b` → `a[*]b`), the form the
 * plane's pattern rules ask for (they refuse backslash escapes), and a leading `#` likewise.
 */
export function literalPattern(path: string): string {
  return path
    .split('/')
    .map((segment) => segment.replace(/[*?[{}(]/g, (char) => `[${char}]`).replace(/^#/, '[#]'))
    .join('/');
}
