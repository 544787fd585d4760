// Which files a tool call of another server writes, read from the call itself (a hook sees the
// tool's name and its input, not its schema): a tool writes unless its name says it only looks;
// its path arguments are the fields whose names say they hold a path, at any depth; a patch in
// any field names its files. So a server's new verb (`reformat_file`) or field (`targetPath`) is
// checked without being listed here. From node builtins only: the lean hook runs it.
import { patchTargets } from '../gate/patch-files.js';

/** A word of a tool's name that says it changes something: these win over a reading word (`search_and_replace`). */
const WRITING_WORDS = new Set(['write', 'edit', 'create', 'delete', 'remove', 'move', 'rename', 'update', 'patch', 'append', 'insert', 'replace', 'mkdir', 'save', 'put', 'upload', 'copy', 'format', 'reformat', 'fix', 'refactor', 'apply', 'set', 'add', 'modify', 'change', 'overwrite', 'truncate', 'touch', 'rm', 'mv', 'cp']);
/** A word that says the tool only looks (`get_file_problems`, `directory_tree`, `runTests`); a name with none of these is taken to write. */
const LOOKING_WORDS = new Set(['get', 'read', 'list', 'find', 'search', 'open', 'view', 'show', 'describe', 'inspect', 'lookup', 'query', 'fetch', 'count', 'stat', 'diff', 'grep', 'glob', 'tree', 'info', 'check', 'lint', 'analyze', 'explain', 'preview', 'validate', 'verify', 'test', 'navigate', 'think', 'problem', 'error', 'usage', 'reference', 'symbol', 'status', 'log']);
/** Words of a field's name that say it holds a file or folder (`filePath`, `target_dir`, `files`, `destination`). */
const PATH_NOUNS = new Set(['path', 'file', 'filename', 'dir', 'directory', 'folder', 'source', 'destination', 'target', 'uri']);
/** Words that make a path-named field a path of something other than a file. */
const OTHER_PATHS = new Set(['name', 'symbol', 'json', 'url', 'route', 'key']);
/** A field naming the project itself (`projectPath`): not a file written, but what relative paths are relative to. */
const PROJECT_FIELD = /^project(?:_?(?:path|dir|root|directory))?$/i;

/** Fields read at most in one input, and how deep (an edit's `replacements[].filePath` is two levels down). */
const MAX_FIELDS = 200;
const MAX_DEPTH = 4;

/** The words of a name: `replace_text_in_file`, `pathInProject`, `list-dir` → lower-case words, plurals made singular. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase().replace(/ies$/, 'y').replace(/(?<![su])s$/, ''));
}

/** The tool may write: its name has a writing word, or no word that says it only looks. */
export function toolMayWrite(name: string): boolean {
  const words = nameWords(name);
  return words.some((word) => WRITING_WORDS.has(word)) || !words.some((word) => LOOKING_WORDS.has(word));
}

/** The path a project-naming field gives (JetBrains' `projectPath`), if absolute. */
export function projectOf(input: Record<string, unknown>): string | undefined {
  const field = Object.keys(input).find((key) => PROJECT_FIELD.test(key));
  const value = field === undefined ? undefined : input[field];
  return typeof value === 'string' && value.startsWith('/') ? value : undefined;
}

/** The strings under path-naming fields, at any depth within the bounds, and the files patches in any field name. */
export function pathArguments(input: Record<string, unknown>): string[] {
  const found: string[] = [];
  let fields = 0;
  const visit = (value: unknown, pathField: boolean, depth: number): void => {
    if (fields++ > MAX_FIELDS || depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (pathField && value !== '') found.push(value);
      else if (looksLikePatch(value)) found.push(...patchTargets(value, { strip: 1 }));
    } else if (Array.isArray(value)) {
      for (const element of value) visit(element, pathField, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) visit(inner, namesPath(key), depth + 1);
    }
  };
  visit(input, false, 0);
  return found;
}

function namesPath(field: string): boolean {
  if (PROJECT_FIELD.test(field)) return false;
  const words = nameWords(field);
  // The last word says what it holds (`filePath`, `target_dir`, not `file_pattern`); `pathInProject` is a path first;
  // a path of something else is not a file's (`name_path`: Serena's symbol, `json_path`, `url_path`).
  return words.length > 0 && (PATH_NOUNS.has(words.at(-1)!) || words[0] === 'path') && !words.some((word) => OTHER_PATHS.has(word));
}

/** A Codex envelope or a unified diff. */
function looksLikePatch(text: string): boolean {
  return text.includes('*** Begin Patch') || /^(?:diff --git |\+\+\+ )/m.test(text);
}
