import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { MAX_SCRIPTS, MAX_TOKENS, MAX_WRITES, type CommandAnalysis } from './command-analysis.js';
import { programWrites, scriptLanguage, type Language } from './inline-programs.js';
import { patchTargets, type PatchReading } from './patch-files.js';
import { scriptKey, type ScriptFile, type ShellWrite } from './shell-analysis.js';
import { withPositionals } from './parameter-expansion.js';
import { literalWord, type KnownVariables } from './shell-word.js';

/** A script file larger than this is not read (the note says so): scripts an agent writes to run are far smaller. */
export const MAX_SCRIPT_FILE_BYTES = 64 * 1024;
/** Reading scripts stops past this (each parse may take up to the parser's 3 s): the hook must answer within 10 s. */
const SCRIPTS_BUDGET_MS = 4_000;

/** Analyses a shell script in its folder, with these variables known. */
type Analyze = (script: string, cwd: string, known: KnownVariables) => Promise<CommandAnalysis>;

/**
 * The command's analysis with the script files it runs (bash x.sh, source x.sh, ./x.sh that a
 * shell runs; python3 x.py, node x.js, perl, ruby, or ./x.py by its `#!`) read and analysed in
 * turn, and the shell scripts those run, up to MAX_SCRIPTS: an agent that writes a script in its
 * own folder and runs it is judged by what the script writes.
 */
export async function withScriptFiles(command: CommandAnalysis, known: KnownVariables, analyze: Analyze): Promise<{ analysis: CommandAnalysis; notes: string[] }> {
  const notes: string[] = [];
  const read = new Set<string>();
  const queue = [...command.scripts];
  const deadline = Date.now() + SCRIPTS_BUDGET_MS;
  let analysis = command;
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    // The same script run from two folders writes different files: each is read (a patch, for each way it is applied).
    const key = scriptKey(script);
    if (read.has(key)) continue;
    if (read.size >= MAX_SCRIPTS || Date.now() > deadline) {
      notes.push(`The command runs more script files than the gate reads (${MAX_SCRIPTS}, within ${SCRIPTS_BUDGET_MS / 1000} s): ${script.path} and any after it were not read.`);
      break;
    }
    read.add(key);
    if (script.patch) {
      const patch = readPatch(script, script.patch);
      if (typeof patch === 'string') notes.push(`${script.path} (${script.patch.via}) ${patch}: it may write any file of the worktree.`);
      analysis = withWrites(analysis, typeof patch === 'string' ? [{ kind: 'worktree', via: `${script.patch.via} ${basename(script.path)}`, cwd: script.cwd }] : patch);
      continue;
    }
    const text = readScript(script);
    if (text === 'too large') notes.push(`${script.path} is larger than ${MAX_SCRIPT_FILE_BYTES / 1024} KiB: what it writes was not checked.`);
    if (typeof text !== 'object') continue;
    const inner = text.language ? programAnalysis(text.language, text.source, script) : await analyze(text.source, script.cwd, script.arguments ? withPositionals(known, undefined, script.arguments) : known);
    if (inner.parseError !== undefined) notes.push(`The script ${script.path} was not parsed (${inner.parseError}): only the paths its words name were checked.`);
    queue.push(...inner.scripts);
    analysis = {
      ...withWrites(analysis, inner.writes, inner.namedWrites),
      findings: [...analysis.findings, ...inner.findings],
      tokens: [...new Set([...analysis.tokens, ...inner.tokens])].slice(0, MAX_TOKENS),
    };
  }
  return { analysis, notes };
}

/** The command's analysis when the plane reads nothing (a remote agent's files are on its machine): a patch file it applies may write anything in the worktree. */
export function withoutReading(command: CommandAnalysis): CommandAnalysis {
  return withWrites(command, command.scripts.flatMap((script) => (script.patch ? [{ kind: 'worktree' as const, via: `${script.patch.via} ${basename(script.path)}`, cwd: script.cwd }] : [])));
}

function withWrites(analysis: CommandAnalysis, writes: ShellWrite[], named = writes.length): CommandAnalysis {
  return { ...analysis, writes: [...analysis.writes, ...writes].slice(0, MAX_WRITES), namedWrites: analysis.namedWrites + named };
}

/** A patch file is read up to this size (patches are larger than scripts); past it, or unreadable, it may write anything. */
const MAX_PATCH_FILE_BYTES = 1024 * 1024;

/** The files a patch file's headers name, as writes where it is applied; or why it was not read. */
function readPatch(script: ScriptFile, reading: PatchReading): ShellWrite[] | string {
  let fd: number;
  try {
    fd = openSync(script.path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'is not a regular file';
    if (stat.size > MAX_PATCH_FILE_BYTES) return `is larger than ${MAX_PATCH_FILE_BYTES / 1024 / 1024} MiB`;
    const buffer = Buffer.alloc(stat.size);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, stat.size, 0)).toString('utf8');
    return patchTargets(text, reading).map((path) => ({ kind: 'path', word: literalWord(path), via: reading.via, cwd: script.cwd }));
  } catch (error) {
    return `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  } finally {
    closeSync(fd);
  }
}

/** A Python, JavaScript, Perl or Ruby script's writes (inline-programs.ts), as a command's analysis. */
function programAnalysis(language: Language, source: string, script: ScriptFile): CommandAnalysis {
  const writes = programWrites(language, literalWord(source), `${language} script ${basename(script.path)}`).map((write) => ({ ...write, cwd: script.cwd }));
  return { writes, namedWrites: writes.length, findings: [], scripts: [], tokens: [] };
}

/**
 * The file's text, and its language when an interpreter other than a shell runs it: a text file
 * within the size limit; run by its path (`byPath`), one without `#!` (a shell runs it) or whose
 * `#!` names a shell or a known interpreter. Undefined when there is none to read: missing, a
 * folder, a pipe (never waited on), a binary, a language the gate does not read.
 */
function readScript({ path, byPath, language }: ScriptFile): { source: string; language?: Language } | 'too large' | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const head = Buffer.alloc(Math.min(stat.size, 256));
    readSync(fd, head, 0, head.length, 0);
    if (head.includes(0)) return undefined;
    const start = head.toString('utf8');
    const runBy = scriptLanguage(path, start, { byPath, ...(language && { language }) });
    if (runBy === undefined) return undefined;
    if (stat.size > MAX_SCRIPT_FILE_BYTES) return 'too large';
    const buffer = Buffer.alloc(stat.size);
    const source = buffer.subarray(0, readSync(fd, buffer, 0, stat.size, 0));
    return source.includes(0) ? undefined : { source: source.toString('utf8'), ...(runBy !== 'shell' && { language: runBy }) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
