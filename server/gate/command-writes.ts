import { isAbsolute } from 'node:path';
import { parseCommandLine, type CommandLine } from './command-line.js';
import { programOf, type Language, type ProgramSource } from './inline-programs.js';
import type { PatchReading } from './patch-files.js';
import { literalWord, type ShellWord } from './shell-word.js';

/** One write a command names: a path (or pattern), or the whole worktree (a branch switch). */
export type NamedWrite =
  | { kind: 'path'; word: ShellWord; via: string }
  /** A lone `git checkout X`: a path if X exists, else a branch (the whole worktree). */
  | { kind: 'path-or-branch'; word: ShellWord; via: string }
  | { kind: 'worktree'; via: string }
  /** What a symbolic link made at `link` (a file name or a folder) points to: writing through the link writes there. */
  | { kind: 'link-target'; word: ShellWord; link: ShellWord; via: string };

/** What a command does that the gate cares about: its writes, and commands it runs in turn. */
export interface CommandEffect {
  writes: NamedWrite[];
  /** A command it runs (xargs rm …, sudo cp …, find -exec …): analysed like any other. */
  runs?: ShellWord[];
  /** The folder `runs` runs in, when the prefix moves it (env -C DIR, sudo -D DIR, git -C DIR). */
  runsIn?: ShellWord;
  /** A script it runs (bash -c '…', eval …): parsed and analysed in turn. */
  script?: ShellWord;
  /** A new shell's $0 and arguments for `script` (`sh -c '…' NAME ARG…`); absent when it runs in this shell (eval, trap). */
  scriptArguments?: ShellWord[];
  /**
   * A script file it runs (bash x.sh, source x.sh, ./x.sh; python3 x.py in `language`): read and
   * analysed by the plane; `byPath`: run by its path, so read only if its `#!` names a shell or a known language.
   */
  scriptFile?: { word: ShellWord; byPath: boolean; language?: Language; arguments?: ShellWord[] };
  /** A shell that reads its script from stdin (`bash <<'EOF'`, `sh -s <<< '…'`): the here-document is analysed. */
  scriptOnStdin?: boolean;
  /** A program it hands an interpreter (python3 -c '…', node -e '…', or on stdin): its write calls are read. */
  program?: Exclude<ProgramSource, { file: ShellWord }>;
  /** Patches it applies (git apply p.diff, patch -p1 -i p.diff, apply_patch '…'): the files their headers name are written. */
  patch?: PatchSource;
}

/** A patch given as text (apply_patch's argument), as files, or neither: read from stdin. */
export type PatchSource = PatchReading & { files: ShellWord[]; text?: ShellWord };

const NONE: CommandEffect = { writes: [] };
/** Writes anywhere in the worktree: a branch, a patch or an archive decides which files (unseen here). */
const ANYWHERE = (via: string): CommandEffect => ({ writes: [{ kind: 'worktree', via }] });
const path = (via: string) => (word: ShellWord): NamedWrite => ({ kind: 'path', word, via });
// An empty word names no file (`sed -i '' -e …`: BSD sed's empty backup suffix); read as a path it would be the folder itself.
const all = (via: string, words: ShellWord[]): CommandEffect => ({ writes: words.filter((word) => word.text !== '').map(path(via)) });

/** Destination of cp/mv/install/ln: `-t DIR`, else the last operand. */
function destination(line: CommandLine): ShellWord | undefined {
  const target = line.options.get('-t') ?? line.options.get('--target-directory');
  return typeof target === 'object' ? target : line.positionals.length > 1 ? line.positionals.at(-1) : undefined;
}

/**
 * Skips a prefix command's own options, and the operands it takes before the command it runs;
 * `chdir` names its options that move where that command runs.
 */
function runsAfter(args: ShellWord[], withValue: string[], operands = 0, chdir: string[] = []): CommandEffect {
  let i = 0;
  let runsIn: ShellWord | undefined;
  while (i < args.length && args[i]!.literal && args[i]!.text.startsWith('-') && args[i]!.text !== '--') {
    const text = args[i]!.text;
    // `--chdir=DIR`, `-CDIR`, or the option and DIR as two words.
    const joined = chdir.find((name) => (name.startsWith('--') ? text.startsWith(`${name}=`) : text.startsWith(name) && text.length > name.length));
    if (joined) runsIn = { ...args[i]!, text: text.slice(joined.length + (joined.startsWith('--') ? 1 : 0)) };
    else if (chdir.includes(text)) runsIn = args[i + 1];
    i += withValue.includes(text) ? 2 : 1;
  }
  if (args[i]?.text === '--') i++;
  i += operands;
  return args.length > i ? { writes: [], runs: args.slice(i), ...(runsIn && { runsIn }) } : NONE;
}

const GIT = literalWord('git');

const GIT_WORKTREE_WIDE = new Set(['merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'bisect']);
/** A word that names a commit, not a file: HEAD, HEAD~2, main^, @{1}, a hex id. */
const REVISION = /^(?:HEAD|FETCH_HEAD|ORIG_HEAD|@)(?:[~^]\d*)*$|[~^]\d*$|@\{|^[0-9a-f]{7,40}$/;

/** `git stash list|show`, `git apply --check|--stat`, `git bisect log|view`: these look and change nothing. */
function readsOnly(sub: string, rest: ShellWord[]): boolean {
  const first = rest[0]?.text;
  if (sub === 'stash') return first === 'list' || first === 'show';
  if (sub === 'bisect') return first === 'log' || first === 'view' || first === 'visualize';
  if (sub === 'apply') return rest.some((w) => ['--check', '--stat', '--numstat', '--summary'].includes(w.text)) && !rest.some((w) => w.text === '--apply');
  return false;
}

/** The folder `git clone URL` makes when none is named: the URL's last part without `.git`. */
function repositoryFolder(url: ShellWord): ShellWord {
  return { ...url, text: url.text.replace(/\/+$/, '').replace(/.*[/:]/, '').replace(/\.git$/, '') };
}

function git(args: ShellWord[]): CommandEffect {
  let i = 0;
  // Global options before the subcommand: -C DIR, -c NAME=VALUE, --git-dir and --work-tree take a value.
  while (i < args.length && args[i]!.text.startsWith('-')) {
    // `git -C DIR …` is git run in DIR (a later -C is relative to it).
    if (args[i]!.text === '-C' && args[i + 1]) return { writes: [], runs: [GIT, ...args.slice(0, i), ...args.slice(i + 2)], runsIn: args[i + 1] };
    i += ['-c', '--git-dir', '--work-tree'].includes(args[i]!.text) ? 2 : 1;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  const via = `git ${sub}`;
  const line = parseCommandLine(rest, ['-s', '--source', '-b', '-B', '--orphan', '-e', '--exclude', '-m', '-U']);
  const hasSeparator = rest.some((w) => w.text === '--');
  switch (sub) {
    case 'checkout': {
      if (hasSeparator) {
        const at = rest.findIndex((w) => w.text === '--');
        return all(via, rest.slice(at + 1));
      }
      // `git checkout -b NEW` starts a branch where HEAD is: no file changes (with a start point, the worktree may).
      if (line.positionals.length === 0) return line.options.has('-b') || line.options.has('-B') ? NONE : ANYWHERE(via);
      if (line.positionals.length === 1 && line.options.size === 0) return { writes: [{ kind: 'path-or-branch', word: line.positionals[0]!, via }] };
      // `git checkout TREE PATH…`: the first operand names a commit (HEAD~2, a sha: only the paths), or may be a path itself.
      const [tree, ...paths] = line.positionals;
      return { writes: [...(REVISION.test(tree!.text) ? [] : [{ kind: 'worktree' as const, via }]), ...paths.map(path(via))] };
    }
    case 'restore': {
      const stagedOnly = line.options.has('--staged') || line.flags.has('S') ? line.options.has('--worktree') || line.flags.has('W') : true;
      return stagedOnly ? all(via, line.positionals) : NONE;
    }
    case 'reset':
      return line.options.has('--hard') || line.options.has('--merge') || line.options.has('--keep') ? ANYWHERE(`${via} --hard`) : NONE;
    case 'clean':
      if (line.flags.has('n') || line.options.has('--dry-run')) return NONE;
      return line.positionals.length > 0 ? all(via, line.positionals) : ANYWHERE(via);
    case 'switch':
      // `git switch -c NEW` starts a branch where HEAD is.
      return (line.options.has('-c') || line.options.has('-C') || line.flags.has('c') || line.flags.has('C')) && line.positionals.length <= 1 ? NONE : ANYWHERE(via);
    case 'stash': {
      // `git stash push [-m MSG] [--] PATH…` resets only those paths.
      const push = rest[0]?.text === 'push' ? parseCommandLine(rest.slice(1), ['-m', '--message', '--pathspec-from-file']) : undefined;
      if (push && push.positionals.length > 0) return all(`${via} push`, push.positionals);
      return readsOnly(sub, rest) ? NONE : ANYWHERE(via);
    }
    case 'rm':
    case 'mv':
      return all(via, line.positionals);
    case 'clone': {
      const [url, dir] = parseCommandLine(rest, ['-b', '--branch', '-o', '--origin', '-c', '--config', '--depth', '--reference', '--template', '-j', '--jobs', '--filter', '-u', '--upload-pack', '--separate-git-dir', '--shallow-since', '--shallow-exclude']).positionals;
      return url ? all(via, [dir ?? repositoryFolder(url)]) : NONE;
    }
    case 'worktree': {
      const add = parseCommandLine(rest.slice(1), ['-b', '-B', '--reason']);
      return rest[0]?.text === 'add' && add.positionals[0] ? all(`${via} add`, [add.positionals[0]]) : NONE;
    }
    case 'submodule': {
      // `git submodule add URL [PATH]` makes PATH; update, init, deinit and sync change what is checked out.
      const add = parseCommandLine(rest.slice(1), ['-b', '--branch', '--name', '--reference', '--depth']);
      if (rest[0]?.text === 'add') return add.positionals[0] ? all(`${via} add`, [add.positionals[1] ?? repositoryFolder(add.positionals[0])]) : NONE;
      // `foreach CMD` runs CMD in each submodule (a folder not known here: written to, that is anywhere).
      const command = rest.slice(1).filter((w) => w.text !== '--recursive');
      if (rest[0]?.text === 'foreach' && command.length > 0) {
        // One word is a script for sh (`git submodule foreach 'rm -rf build'`).
        return { writes: [], runs: command.length === 1 ? [literalWord('sh'), literalWord('-c'), command[0]!] : command, runsIn: { text: '*', literal: false, glob: true, unanchored: true } };
      }
      return rest[0] && ['update', 'deinit'].includes(rest[0].text) ? ANYWHERE(`${via} ${rest[0].text}`) : NONE;
    }
    case 'apply':
    case 'am': {
      if (readsOnly(sub, rest)) return NONE;
      // `git am --continue|--skip|--abort` applies (or undoes) what an earlier run left: anywhere.
      if (rest.some((w) => ['--continue', '--skip', '--abort', '--quit', '--resolved', '-r'].includes(w.text))) return ANYWHERE(via);
      // `-p2`, `--directory=DIR`; the patches named, else stdin (git am: mailboxes, whose patches read alike).
      const patchLine = parseCommandLine(rest, ['-C', '--exclude', '--include', '--whitespace', '--build-fake-ancestor']);
      const strip = rest.map((w) => /^-p(\d+)$/.exec(w.text)?.[1]).find((n) => n !== undefined);
      const prefix = patchLine.options.get('--directory');
      return { writes: [], patch: { files: patchLine.positionals, strip: strip === undefined ? 1 : Number(strip), ...(typeof prefix === 'object' && { prefix: prefix.text }), via } };
    }
    case 'format-patch':
    case 'archive': {
      const out = optionValues(parseCommandLine(rest, ['-o', '--output', '--output-directory', '--format', '--prefix', '-v', '--reroll-count']), ['-o', '--output', '--output-directory']);
      return all(via, out);
    }
    default:
      return sub !== undefined && GIT_WORKTREE_WIDE.has(sub) && !readsOnly(sub, rest) ? ANYWHERE(via) : NONE;
  }
}

/** `sed -i` / `perl -i`: the files after the script (or all operands when -e/-f gave it). */
function inPlace(name: string, args: ShellWord[]): CommandEffect {
  const line = parseCommandLine(args, ['-e', '-f', '--expression', '--file', '-l', '-I', '-M', '-m']);
  // `-li` (perl's -l takes a value) is in place too; `-MList::Util` and `-Istrict` are not.
  const inPlaceFlag = line.flags.has('i') || [...line.options.keys()].some((o) => o.startsWith('--in-place')) || args.some((w) => /^-(?![MmIeEf])[a-zA-Z]*i/.test(w.text));
  if (!inPlaceFlag) return NONE;
  const scriptGiven = line.options.has('-e') || line.options.has('-f') || line.options.has('--expression') || line.options.has('--file') || line.flags.has('e') || line.flags.has('E') && name === 'perl';
  return all(`${name} -i`, scriptGiven ? line.positionals : line.positionals.slice(1));
}

/** find … -delete, or -exec/-execdir/-ok CMD {} ;: its matches under the start points are written. */
function find(args: ShellWord[]): CommandEffect {
  const starts: ShellWord[] = [];
  for (const word of args) {
    if (word.text.startsWith('-') || word.text === '(' || word.text === '!') break;
    starts.push(word);
  }
  // `-path './src/web/*'` (not negated) says which of them; else everything under the start points.
  const paths = args.flatMap((w, i) => (['-path', '-wholename'].includes(w.text) && args[i + 1] && !['!', '-not'].includes(args[i - 1]?.text ?? '') ? [{ ...args[i + 1]!, glob: true }] : []));
  const under = paths.length > 0 ? paths : (starts.length > 0 ? starts : [HERE]).map((w) => ({ ...w, text: `${w.text.replace(/\/+$/, '')}/**`, glob: true }));
  if (args.some((w) => w.text === '-delete')) return all('find -delete', under);
  const exec = args.findIndex((w) => ['-exec', '-execdir', '-ok', '-okdir'].includes(w.text));
  if (exec < 0) return NONE;
  const end = args.findIndex((w, i) => i > exec && (w.text === ';' || w.text === '+'));
  const inner = args.slice(exec + 1, end < 0 ? undefined : end);
  // `{}` is each match, inside a word too (`-exec sh -c 'rm "{}"' \;`).
  return { writes: [], runs: inner.flatMap((w) => (w.text === '{}' ? under : w.text.includes('{}') ? under.map((u) => ({ ...w, text: w.text.split('{}').join(u.text), literal: false, glob: true })) : [w])) };
}

/** xargs CMD ARGS: CMD runs on words from stdin, which the gate cannot see (`-I R` marks where). */
function xargs(args: ShellWord[]): CommandEffect {
  const effect = runsAfter(args, ['-I', '-n', '-P', '-L', '-l', '-d', '-E', '-e', '-s', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs']);
  if (!effect.runs) return effect;
  const at = args.findIndex((w) => w.text.startsWith('-I'));
  const replace = at < 0 ? undefined : args[at]!.text.length > 2 ? args[at]!.text.slice(2) : args[at + 1]?.text;
  if (replace === undefined) return { writes: [], runs: [...effect.runs, { text: '*', literal: false, glob: true, unanchored: true }] };
  // Inside a script (`sh -c 'prettier --write {}'`), the input is a variable nothing sets: unknown where it points, once parsed.
  const fill = (w: ShellWord): ShellWord =>
    /\s/.test(w.text) ? { ...w, text: w.text.split(replace).join('"$XARGS_INPUT"'), literal: false } : { text: w.text.split(replace).join('*'), literal: false, glob: true, unanchored: w.unanchored || w.text.startsWith(replace) };
  return { writes: [], runs: effect.runs.map((w) => (w.text.includes(replace) ? fill(w) : w)) };
}

/** `bash -c 'script'`, or `bash FILE` (its first operand; none, or `-s`: the script is its stdin, read when a here-document gives it). */
function shell(args: ShellWord[]): CommandEffect {
  const at = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text));
  if (at >= 0) return args[at + 1] ? { writes: [], script: args[at + 1]!, scriptArguments: args.slice(at + 2) } : NONE;
  const line = parseCommandLine(args, ['-o', '-O', '+O', '--rcfile', '--init-file']);
  const file = line.flags.has('s') ? undefined : line.positionals[0];
  // The words after the file are its positional parameters.
  return file ? { writes: [], scriptFile: { word: file, byPath: false, arguments: args.slice(args.indexOf(file) + 1) } } : { writes: [], scriptOnStdin: true };
}

/** `source FILE` / `. FILE`: the file runs in this shell. */
const sourced: Rule = (args) => (args[0] ? { writes: [], scriptFile: { word: args[0], byPath: false, arguments: args.slice(1) } } : NONE);

type Rule = (args: ShellWord[], name: string) => CommandEffect;

/** The folder a tool works on when it is given no path: where it runs. */
const HERE = literalWord('.');

/**
 * A formatter or fixer: it rewrites its operands (files or whole folders, the current one when none
 * is given) when `writing` says its options ask for it (`--write`, `--fix`, `-i`; or unless `--check`).
 */
const rewrites = (withValue: string[], writing: (line: CommandLine) => boolean) => (args: ShellWord[], name: string): CommandEffect => {
  const line = parseCommandLine(args, withValue);
  return writing(line) ? all(name, line.positionals.length > 0 ? line.positionals : [HERE]) : NONE;
};
const unlessOption = (...names: string[]) => (line: CommandLine) => !names.some((name) => line.options.has(name) || (name.length === 2 && line.flags.has(name[1]!)));
const withOption = (...names: string[]) => (line: CommandLine) => !unlessOption(...names)(line);

/** `ruff format|check …` and `biome format|check|lint …`: the subcommand decides, then as a formatter. */
const subcommands = (rules: Record<string, Rule>): Rule => (args, name) => {
  const sub = args[0]?.literal ? args[0].text : undefined;
  const rule = sub !== undefined && Object.hasOwn(rules, sub) ? rules[sub]! : undefined;
  return rule ? rule(args.slice(1), `${name} ${sub}`) : NONE;
};

/** `pnpm exec eslint …`, `uv run black …`: the runner's subcommand, then `rest` finds the tool it runs. */
const runnerOf = (subs: string[], rest: Rule): Rule => (args, name) => (args[0]?.literal && subs.includes(args[0].text) ? rest(args.slice(1), name) : NONE);
const runsTool = (withValue: string[]): Rule => (args) => runsAfter(args, withValue);

/** `python -m black …`: the module runs as its command would. */
function python(args: ShellWord[]): CommandEffect {
  const at = args.findIndex((w) => w.text === '-m');
  return at >= 0 && args.length > at + 1 ? { writes: [], runs: args.slice(at + 1) } : NONE;
}

/** `go fmt ./...` rewrites the packages it names (`X/...` is the folder X), here when none. */
const goFmt: Rule = (args, name) => {
  const packages = parseCommandLine(args, ['-mod', '-modfile']).positionals.map((w) => ({ ...w, text: w.text.replace(/\/?\.\.\.$/, '') || '.' }));
  return all(name, packages.length > 0 ? packages : [HERE]);
};

/** `npx prettier --write …` (the tool is analysed as itself), or `npx -c 'script'`. */
function npx(args: ShellWord[]): CommandEffect {
  // npx's own options come before the tool (`npx eslint -c cfg.js --fix` is eslint's -c).
  const tool = args.findIndex((w, i) => !w.text.startsWith('-') && !['-c', '--call', '-p', '--package', '-w', '--workspace'].includes(args[i - 1]?.text ?? ''));
  const call = optionValues(parseCommandLine(tool < 0 ? args : args.slice(0, tool), ['-c', '--call', '-p', '--package', '-w', '--workspace']), ['-c', '--call'])[0];
  return call ? { writes: [], script: call } : runsAfter(args, ['-p', '--package', '-w', '--workspace']);
}

/** Every value the options `names` were given (`curl -o a URL -o b URL`); `-` is stdout, no file. */
function optionValues(line: CommandLine, names: string[]): ShellWord[] {
  return names.flatMap((name) => line.values.get(name) ?? []).filter((value) => value.text !== '-');
}

/** `word` inside the folder a download option named (a relative path), else as it is. */
function inFolder(dir: ShellWord | true | undefined, word: ShellWord): ShellWord {
  return typeof dir === 'object' && !isAbsolute(word.text) ? { ...word, text: `${dir.text.replace(/\/+$/, '')}/${word.text}` } : word;
}

/** The file a download names itself after: the URL's last path segment, in `dir`. */
function remoteName(url: ShellWord, dir: ShellWord | true | undefined): ShellWord | undefined {
  const name = url.text.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '').split('/').at(-1);
  if (!name || !/^[a-z]+:\/\//i.test(url.text)) return undefined;
  return inFolder(dir, { ...url, text: name });
}

/** curl: `-o FILE` each, and `-O` a file named after each URL (in `--output-dir`). */
function curl(args: ShellWord[]): CommandEffect {
  const line = parseCommandLine(args, ['-o', '--output', '--output-dir', '-d', '--data', '-H', '--header', '-u', '--user', '-X', '--request', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie', '-c', '--cookie-jar', '-F', '--form', '-T', '--upload-file', '-w', '--write-out', '-m', '--max-time', '--connect-timeout', '-x', '--proxy']);
  const dir = line.options.get('--output-dir');
  const named = line.flags.has('O') || line.options.has('--remote-name') || line.options.has('--remote-name-all');
  const remote = named ? line.positionals.map((url) => remoteName(url, dir)).filter((w) => w !== undefined) : [];
  return all('curl', [...optionValues(line, ['-o', '--output']).map((file) => inFolder(dir, file)), ...optionValues(line, ['-c', '--cookie-jar']), ...remote]);
}

/** wget: `-O FILE`, else a file named after each URL (in `-P DIR`). */
function wget(args: ShellWord[]): CommandEffect {
  const line = parseCommandLine(args, ['-O', '--output-document', '-P', '--directory-prefix', '-o', '--output-file', '-a', '--append-output', '-U', '--user-agent', '--header', '-e', '--execute', '-t', '--tries', '-T', '--timeout']);
  const logs = optionValues(line, ['-o', '--output-file', '-a', '--append-output']);
  const document = line.options.get('-O') ?? line.options.get('--output-document');
  if (typeof document === 'object') return all('wget', [...logs, ...(document.text === '-' ? [] : [document])]);
  const dir = line.options.get('-P') ?? line.options.get('--directory-prefix');
  return all('wget', [...logs, ...line.positionals.map((url) => remoteName(url, dir)).filter((w) => w !== undefined)]);
}

/** `sort -o FILE` writes FILE (often one of its inputs: `sort -o f f`). */
function sort(args: ShellWord[]): CommandEffect {
  return all('sort -o', optionValues(parseCommandLine(args, ['-o', '--output', '-k', '--key', '-t', '--field-separator', '-S', '--buffer-size', '-T', '--temporary-directory']), ['-o', '--output']));
}

/** gawk's `-i inplace` (`--include=inplace`): the files after the program text (none when `-f` gave it). */
function awk(args: ShellWord[], name: string): CommandEffect {
  const line = parseCommandLine(args, ['-i', '--include', '-f', '--file', '-v', '--assign', '-F', '--field-separator']);
  const includes = [...(line.values.get('-i') ?? []), ...(line.values.get('--include') ?? [])];
  if (!includes.some((include) => /^inplace(\.awk)?$/.test(include.text))) return NONE;
  const programGiven = line.options.has('-f') || line.options.has('--file');
  return all(`${name} -i inplace`, (programGiven ? line.positionals : line.positionals.slice(1)).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text)));
}

const operands = (withValue: string[] = []) => (args: ShellWord[], name: string): CommandEffect => all(name, parseCommandLine(args, withValue).positionals);

/** The file (or folder) an output option names: `gcc -o app`, `tsc --outDir dist`, `esbuild --outfile=x.js`. */
const outputs = (names: string[], withValue: string[] = []) => (args: ShellWord[], name: string): CommandEffect => all(name, optionValues(parseCommandLine(args, [...names, ...withValue]), names));

/**
 * gzip, bzip2, xz, zstd and their un-: each file's (de)compressed twin is written beside it (`a.json`
 * ⇄ `a.json.gz`) and the file itself removed, unless kept (`-k`; zstd keeps it unless `--rm`);
 * nothing when written to stdout, tested or listed.
 */
const compressor = (suffix: string, keeps = false, decompresses = false): Rule => (args, name) => {
  const line = parseCommandLine(args, ['-S', '--suffix', '-b', '-T', '--threads', '-o', '--output']);
  if (['c', 't', 'l'].some((flag) => line.flags.has(flag)) || ['--stdout', '--to-stdout', '--test', '--list'].some((option) => line.options.has(option))) return NONE;
  const ending = optionValues(line, ['-S', '--suffix'])[0]?.text ?? suffix;
  const decompress = decompresses || line.flags.has('d') || line.options.has('--decompress') || line.options.has('--uncompress');
  const kept = keeps ? !line.options.has('--rm') : line.flags.has('k') || line.options.has('--keep');
  const twins = line.positionals.map((file) => ({ ...file, text: decompress ? (file.text.endsWith(ending) ? file.text.slice(0, -ending.length) : file.text) : file.text + ending }));
  const named = optionValues(line, ['-o', '--output']);
  return all(name, [...(kept ? [] : line.positionals), ...(named.length > 0 ? named : twins)]);
};

/** Each writing command the gate knows, by name. Anything else names no write (its redirections still do). */
const RULES: Record<string, Rule> = {
  tee: operands(),
  rm: operands(),
  rmdir: operands(),
  unlink: operands(),
  shred: operands(['-n', '-s']),
  touch: operands(['-r', '-d', '-t']),
  mkdir: operands(['-m']),
  truncate: operands(['-s', '-r', '--size', '--reference']),
  mv: (args) => {
    const line = parseCommandLine(args, ['-t', '--target-directory', '-S', '--suffix']);
    const dest = destination(line);
    return all('mv', [...line.positionals, ...(dest && !line.positionals.includes(dest) ? [dest] : [])]);
  },
  cp: (args) => {
    const line = parseCommandLine(args, ['-t', '--target-directory', '-S', '--suffix']);
    const dest = destination(line);
    // `cp -l` makes hard links: the copies are the sources' own files.
    const linked = line.flags.has('l') || line.options.has('--link') ? line.positionals.filter((w) => w !== dest) : [];
    return all('cp', [...(dest ? [dest] : []), ...linked]);
  },
  install: (args) => {
    const line = parseCommandLine(args, ['-t', '--target-directory', '-m', '-o', '-g', '-S', '--mode', '--owner', '--group']);
    // `install -d DIR…` makes each folder.
    if (line.flags.has('d') || line.options.has('--directory')) return all('install -d', line.positionals);
    return all('install', [destination(line)].filter((w) => w !== undefined));
  },
  ln: (args) => {
    const line = parseCommandLine(args, ['-t', '--target-directory', '-S', '--suffix']);
    const first = line.positionals[0];
    const given = destination(line);
    // `ln -s TARGET` alone makes a link named after the target, here.
    const dest = given ?? (first && { ...first, text: first.text.replace(/.*\//, '') });
    if (!dest) return NONE;
    const sources = given ? line.positionals.filter((w) => w !== given) : [first!];
    // A link is a door: a write through it lands on what it names (a hard link shares the file itself).
    const symbolic = line.flags.has('s') || line.options.has('--symbolic');
    // `ln -sr` takes its targets as written from here (it makes them relative to the link itself).
    const fromHere = line.flags.has('r') || line.options.has('--relative');
    const doors: NamedWrite[] = !symbolic
      ? sources.map(path('ln (a hard link)'))
      : fromHere ? sources.map(path('ln -s'))
      : sources.map((word) => ({ kind: 'link-target', word, link: dest, via: 'ln -s' }));
    return { writes: [path('ln')(dest), ...doors] };
  },
  link: (args) => all('link', parseCommandLine(args).positionals),
  rsync: (args) => {
    const line = parseCommandLine(args, ['-e', '--rsh', '-f', '--filter', '--exclude', '--include', '-T', '--temp-dir']);
    const local = line.positionals.filter((w) => !/^[^/]*:/.test(w.text));
    const dest = line.positionals.at(-1);
    const moved = line.options.has('--remove-source-files') ? local.slice(0, -1) : [];
    return all('rsync', [...moved, ...(dest && local.includes(dest) && line.positionals.length > 1 ? [dest] : [])]);
  },
  chmod: (args, name) => {
    // `chmod -x f` and `chmod -w a b`: a mode that looks like an option is the mode; with --reference there is none.
    const mode = name === 'chmod' ? args.findIndex((w) => /^-[rwxXst]+$/.test(w.text)) : -1;
    const line = parseCommandLine(mode < 0 ? args : args.filter((_, i) => i !== mode), ['--reference']);
    return all(name, mode >= 0 || line.options.has('--reference') ? line.positionals : line.positionals.slice(1));
  },
  dd: (args) => ({ writes: args.filter((w) => w.text.startsWith('of=')).map((w) => path('dd of=')({ ...w, text: w.text.slice(3) })) }),
  patch: (args) => {
    const line = parseCommandLine(args, ['-i', '-d', '-D', '-F', '-r', '-B', '-V', '-z', '-Y', '-o', '-p', '--input', '--output', '--directory']);
    if (line.options.has('--dry-run')) return NONE;
    const out = line.options.get('-o') ?? line.options.get('--output');
    if (typeof out === 'object') return all('patch -o', [out]);
    // `patch a.c fix.diff` patches a.c; else the files the patch names (`-i FILE`, or stdin).
    if (line.positionals.length > 0) return all('patch', line.positionals.slice(0, 1));
    const input = line.options.get('-i') ?? line.options.get('--input');
    const strip = line.options.get('-p') ?? line.options.get('--strip');
    const into = line.options.get('-d') ?? line.options.get('--directory');
    const count = typeof strip === 'object' && /^\d+$/.test(strip.text) ? Number(strip.text) : undefined;
    return { writes: [], patch: { files: typeof input === 'object' ? [input] : [], ...(count !== undefined && { strip: count }), ...(typeof into === 'object' && { prefix: into.text }), via: 'patch' } };
  },
  // Unpacking into a folder (-C DIR, -d DIR) writes anything inside it; into the cwd, the archive decides what (unseen).
  tar: (args) => {
    const line = parseCommandLine(args, ['-C', '--directory', '-f', '--file', '-T', '--files-from', '-X', '--exclude-from', '-b', '-H', '--format']);
    // `tar xzf …`: the old form bundles the operation letters in the first word, without a dash.
    const bundled = args[0]?.literal && /^[A-Za-z]+$/.test(args[0].text) ? args[0].text : '';
    const extracting = line.flags.has('x') || line.options.has('--extract') || line.options.has('--get') || bundled.includes('x');
    const toStdout = line.flags.has('O') || line.options.has('--to-stdout') || bundled.includes('O');
    const into = line.options.get('-C') ?? line.options.get('--directory');
    // `tar -czf out.tgz src`, `tar czf out.tgz src`: creating (or adding to) an archive writes the archive.
    const creating = ['c', 'r', 'u', 'A'].some((op) => line.flags.has(op) || bundled.includes(op)) || ['--create', '--append', '--update', '--concatenate'].some((op) => line.options.has(op));
    const archive = optionValues(line, ['-f', '--file'])[0] ?? (bundled.includes('f') ? line.positionals[1] : undefined);
    if (creating) return archive && archive.text !== '-' ? all('tar -c', [archive]) : NONE;
    if (!extracting || toStdout) return NONE;
    return typeof into === 'object' ? all('tar -x', [into]) : ANYWHERE('tar -x');
  },
  unzip: (args) => {
    const line = parseCommandLine(args, ['-d']);
    // -l, -v, -Z list; -t tests; -p prints: none of them writes a file.
    if (['l', 'v', 'Z', 't', 'p'].some((flag) => line.flags.has(flag))) return NONE;
    const into = line.options.get('-d');
    return typeof into === 'object' ? all('unzip -d', [into]) : ANYWHERE('unzip');
  },
  git,
  // `gh pr checkout 42` switches the worktree to the pull request's branch.
  gh: (args) => (args[0]?.text === 'pr' && args[1]?.text === 'checkout' ? ANYWHERE('gh pr checkout') : NONE),
  // In-place editors: `sort f | sponge f`, `sd OLD NEW FILE…`, `yq -i EXPR FILE`, `dos2unix FILE…`.
  sponge: operands(),
  sd: (args, name) => {
    const line = parseCommandLine(args, ['-f', '--flags', '-n', '--max-replacements']);
    return line.flags.has('p') || line.options.has('--preview') ? NONE : all(name, line.positionals.slice(2));
  },
  yq: (args, name) => {
    const line = parseCommandLine(args, ['-p', '--input-format', '-o', '--output-format', '--indent', '-I', '--from-file', '--expression']);
    const given = line.options.has('--from-file') || line.options.has('--expression');
    return line.flags.has('i') || line.options.has('--inplace') ? all(`${name} -i`, given ? line.positionals : line.positionals.slice(1)) : NONE;
  },
  dos2unix: operands(),
  unix2dos: operands(),
  gzip: compressor('.gz'),
  gunzip: compressor('.gz', false, true),
  bzip2: compressor('.bz2'),
  bunzip2: compressor('.bz2', false, true),
  xz: compressor('.xz'),
  unxz: compressor('.xz', false, true),
  zstd: compressor('.zst', true),
  unzstd: compressor('.zst', true, true),
  // `zip out.zip files…` writes the archive.
  zip: (args, name) => (args.some((w) => w.text === '-sf' || w.text === '--show-files') ? NONE : all(name, parseCommandLine(args, ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-Z']).positionals.slice(0, 1))),
  // `mktemp -t X` and `--tmpdir` make the file in $TMPDIR (/tmp here), `-p DIR` in DIR; else where it runs.
  mktemp: (args, name) => {
    const line = parseCommandLine(args, ['-p', '--suffix']);
    const dir = line.options.get('-p') ?? (line.flags.has('t') || line.options.has('--tmpdir') ? literalWord('/tmp') : undefined);
    return all(name, line.positionals.map((template) => inFolder(dir, template)));
  },
  mkfifo: operands(['-m', '--mode']),
  mknod: (args, name) => all(name, parseCommandLine(args, ['-m', '--mode']).positionals.slice(0, 1)),
  // Build tools with an output path.
  gcc: outputs(['-o'], ['-I', '-L', '-l', '-D', '-U', '-x', '-MF', '-MT', '-include']),
  rustc: outputs(['-o', '--out-dir'], ['--crate-name', '--edition', '--crate-type', '-L', '-l', '--cfg', '--emit', '--target']),
  javac: outputs(['-d', '-s', '-h'], ['-cp', '-classpath', '--class-path', '-sourcepath', '--source-path', '-encoding', '--release', '-source', '-target', '-processorpath']),
  tsc: outputs(['--outDir', '--outFile', '--declarationDir', '--tsBuildInfoFile'], ['-p', '--project', '--target', '--module', '--lib', '--jsx', '--moduleResolution']),
  esbuild: outputs(['--outfile', '--outdir', '--metafile']),
  iconv: outputs(['-o', '--output'], ['-f', '--from-code', '-t', '--to-code']),
  pandoc: outputs(['-o', '--output'], ['-f', '--from', '-r', '--read', '-t', '--to', '-w', '--write', '--template', '-M', '--metadata', '-V', '--variable']),
  openssl: (args) => ({ writes: args.flatMap((w, i) => (['-out', '-keyout'].includes(w.text) && args[i + 1] ? [path('openssl')(args[i + 1]!)] : [])) }),
  sed: (args) => inPlace('sed', args),
  perl: (args) => inPlace('perl', args),
  find,
  xargs,
  env: (args) => runsAfter(args.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text)), ['-u', '--unset', '-C', '--chdir', '-S'], 0, ['-C', '--chdir']),
  sudo: (args) => runsAfter(args, ['-u', '-g', '-C', '-D', '--chdir', '-h', '-p', '-r', '-t', '-U', '--user', '--group'], 0, ['-D', '--chdir']),
  nice: (args) => runsAfter(args, ['-n', '--adjustment']),
  timeout: (args) => runsAfter(args, ['-s', '-k', '--signal', '--kill-after'], 1),
  nohup: (args) => runsAfter(args, []),
  time: (args) => runsAfter(args, ['-f', '-o']),
  command: (args) => runsAfter(args, []),
  exec: (args) => runsAfter(args, ['-a']),
  builtin: (args) => runsAfter(args, []),
  stdbuf: (args) => runsAfter(args, ['-i', '-o', '-e']),
  eval: (args) => (args.length > 0 ? { writes: [], script: args.reduce((a, w) => ({ text: `${a.text} ${w.text}`, literal: a.literal && w.literal, glob: false, unanchored: false })) } : NONE),
  // `trap 'rm -f "$tmp"' EXIT`: the script runs when the shell gets the signal (or exits).
  trap: (args) => (args.length >= 2 && args[0]!.text !== '-' ? { writes: [], script: args[0]! } : NONE),
  curl,
  wget,
  sort,
  awk,
  gawk: awk,
  // Formatters and fixers that rewrite files in place.
  prettier: rewrites(['--config', '--ignore-path', '--plugin', '--parser', '--log-level', '--cache-location', '--stdin-filepath'], withOption('--write', '-w')),
  eslint: rewrites(['-c', '--config', '--ext', '--rule', '--plugin', '--parser', '-f', '--format', '-o', '--output-file', '--ignore-pattern', '--rulesdir', '--cache-location', '--max-warnings', '--env', '--global', '--parser-options', '--resolve-plugins-relative-to'], withOption('--fix')),
  gofmt: rewrites(['-r'], withOption('-w')),
  goimports: rewrites(['-local'], withOption('-w')),
  'clang-format': rewrites(['--style', '--assume-filename', '--lines', '--offset', '--length'], withOption('-i')),
  autopep8: rewrites(['--select', '--ignore', '--max-line-length', '--global-config', '-a'], withOption('-i', '--in-place')),
  rustfmt: rewrites(['--edition', '--config-path', '--emit', '--config', '--color'], unlessOption('--check')),
  black: rewrites(['-l', '--line-length', '-t', '--target-version', '--include', '--exclude', '--extend-exclude', '--force-exclude', '--config', '--stdin-filename'], unlessOption('--check', '--diff', '-c', '--code')),
  isort: rewrites(['--settings-path', '--sp', '--profile', '-l', '--line-length', '--skip', '-s', '--src'], unlessOption('--check', '--check-only', '-c', '--diff', '--stdout', '-d')),
  ruff: subcommands({
    format: rewrites(['--config', '--line-length', '--target-version', '--exclude', '--stdin-filename'], unlessOption('--check', '--diff')),
    check: rewrites(['--config', '--select', '--ignore', '--extend-select', '--exclude', '--line-length', '--target-version', '--output-format', '--stdin-filename'], withOption('--fix', '--unsafe-fixes')),
  }),
  biome: subcommands({
    format: rewrites(['--config-path'], withOption('--write', '--fix', '--apply')),
    lint: rewrites(['--config-path'], withOption('--write', '--fix', '--apply', '--apply-unsafe')),
    check: rewrites(['--config-path'], withOption('--write', '--fix', '--apply', '--apply-unsafe')),
  }),
  go: subcommands({
    fmt: goFmt,
    fix: goFmt,
    build: outputs(['-o'], ['-tags', '-ldflags', '-gcflags', '-mod', '-modfile', '-p']),
    mod: (rest, via) => (['tidy', 'edit', 'init'].includes(rest[0]?.text ?? '') ? all(`${via} ${rest[0]!.text}`, GO_MANIFESTS) : NONE),
    get: (_rest, via) => all(via, GO_MANIFESTS),
  }),
  shfmt: rewrites(['-i', '--indent', '-ln', '--language-dialect'], withOption('-w', '--write')),
  gofumpt: rewrites(['-lang', '-modpath'], withOption('-w')),
  yapf: rewrites(['--style', '-e', '--exclude', '-p', '--parallel', '-l', '--lines'], withOption('-i', '--in-place')),
  autoflake: rewrites(['--imports', '--exclude'], withOption('-i', '--in-place')),
  rubocop: rewrites(['-c', '--config', '--only', '--except', '-f', '--format', '-o', '--out', '-r', '--require'], withOption('-a', '-A', '--autocorrect', '--autocorrect-all', '--auto-correct', '--auto-correct-all', '-x', '--fix-layout')),
  stylelint: rewrites(['-c', '--config', '--config-basedir', '--ignore-path', '-f', '--formatter', '-o', '--output-file', '--custom-syntax'], withOption('--fix')),
  // terraform's options are single-dash words (`-check`), not clusters of flags.
  terraform: subcommands({ fmt: (rest, via) => (rest.some((w) => /^--?check(=true)?$|^--?write=false$/.test(w.text)) ? NONE : all(via, rest.filter((w) => !w.text.startsWith('-')).concat(rest.some((w) => !w.text.startsWith('-')) ? [] : [HERE]))) }),
  deno: subcommands({ fmt: rewrites(['--config', '--ext', '--ignore'], unlessOption('--check')), lint: rewrites(['--config', '--rules-tags', '--ignore'], withOption('--fix')) }),
  dprint: subcommands({ fmt: rewrites(['-c', '--config', '--excludes', '--includes'], () => true) }),
  // `pre-commit run` runs every hook of the repository, and its formatters rewrite what they like.
  'pre-commit': subcommands({ run: () => ANYWHERE('pre-commit run') }),
  'golangci-lint': subcommands({ run: (rest, via) => (rest.some((w) => w.text === '--fix') ? ANYWHERE(`${via} --fix`) : NONE) }),
  // `cargo fmt` formats every crate of the workspace, whose root may be above here (`cargo +nightly fmt` too).
  cargo: (args, name) =>
    subcommands({
      fmt: (rest, via) => (rest.some((w) => w.text === '--check') ? NONE : ANYWHERE(via)),
      // `cargo fix` and `cargo clippy --fix` edit every crate's sources, as fmt does.
      fix: (_rest, via) => ANYWHERE(via),
      clippy: (rest, via) => (rest.some((w) => w.text === '--fix') ? ANYWHERE(`${via} --fix`) : NONE),
      ...Object.fromEntries(['add', 'remove', 'rm'].map((sub) => [sub, (_rest: ShellWord[], via: string) => all(via, manifests('Cargo.toml', 'Cargo.lock'))])),
      ...Object.fromEntries(['update', 'generate-lockfile'].map((sub) => [sub, (_rest: ShellWord[], via: string) => all(via, manifests('Cargo.lock'))])),
    })(args[0]?.text.startsWith('+') ? args.slice(1) : args, name),
  // Runners of a project's tools: the tool after them is analysed as itself.
  python,
  python3: python,
  npx,
  pnpx: npx,
  bunx: runsTool(['-p', '--package']),
  uvx: runsTool(['--with', '--from', '--python', '-p']),
  npm: changesManifest({ manifest: ['install', 'i', 'in', 'add', 'uninstall', 'un', 'unlink', 'remove', 'rm', 'r', 'update', 'up', 'upgrade', 'version'], lock: ['dedupe', 'prune'] }, 'package.json', ['package-lock.json'], runnerOf(['exec', 'x'], npx)),
  pnpm: changesManifest({ manifest: ['add', 'remove', 'rm', 'un', 'uninstall', 'install', 'i', 'update', 'up', 'upgrade'], lock: [] }, 'package.json', ['pnpm-lock.yaml'], binOrRunner(['exec', 'dlx'], runsTool(['--filter', '-F', '--package']))),
  yarn: changesManifest({ manifest: ['add', 'remove', 'upgrade', 'up'], lock: ['install', ''] }, 'package.json', ['yarn.lock'], binOrRunner(['exec', 'dlx', 'run'], runsTool(['-p', '--package']))),
  bun: changesManifest({ manifest: ['add', 'a', 'remove', 'rm', 'install', 'i', 'update'], lock: [] }, 'package.json', ['bun.lock', 'bun.lockb'], binOrRunner(['x', 'run'], runsTool([]))),
  bundle: runnerOf(['exec'], runsTool([])),
  pipenv: runnerOf(['run'], runsTool([])),
  conda: runnerOf(['run'], runsTool(['-n', '--name', '-p', '--prefix'])),
  mise: runnerOf(['exec', 'x'], runsTool(['-C', '--cd', '-E', '--env'])),
  // Helpers agents call through npx: the command after cross-env's assignments, shx's Unix tools, rimraf and mkdirp.
  'cross-env': (args) => runsAfter(args.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text)), []),
  shx: (args) => runsAfter(args, []),
  rimraf: operands(),
  mkdirp: operands(['-m', '--mode']),
  flock: (args) => runsAfter(args, ['-w', '--timeout', '-E', '--conflict-exit-code'], 1),
  setsid: (args) => runsAfter(args, []),
  uv: changesManifest({ manifest: ['add', 'remove'], lock: ['lock', 'sync'] }, 'pyproject.toml', ['uv.lock'], runnerOf(['run'], runsTool(['--with', '--python', '-p', '--project', '--directory', '--package']))),
  poetry: changesManifest({ manifest: ['add', 'remove'], lock: ['lock', 'update', 'install'] }, 'pyproject.toml', ['poetry.lock'], runnerOf(['run'], runsTool(['-C', '--directory', '-P', '--project']))),
  pipx: runnerOf(['run'], runsTool(['--spec', '--python'])),
  // Codex applies a patch its model runs through the shell, as its apply_patch tool would: the argument, else stdin.
  apply_patch: (args, name) => ({ writes: [], patch: { files: [], ...(args[0] && { text: args[0] }), strip: 0, via: name } }),
  source: sourced,
  '.': sourced,
  bash: shell,
  sh: shell,
  zsh: shell,
  dash: shell,
  ksh: shell,
};
RULES.chown = RULES.chmod!;
RULES.applypatch = RULES.apply_patch!;
RULES.chgrp = RULES.chmod!;
RULES.doas = RULES.sudo!;
RULES.gtimeout = RULES.timeout!;
for (const compiler of ['cc', 'c++', 'g++', 'clang', 'clang++']) RULES[compiler] = RULES.gcc!;

/** A project's manifest and lock file, where the command runs (its root may be above: the watcher sees the rest). */
function manifests(...files: string[]): ShellWord[] {
  return files.map(literalWord);
}
const GO_MANIFESTS = manifests('go.mod', 'go.sum');
/** The package managers' options that take a value, so that it is not read as the subcommand or a package. */
const MANAGER_OPTIONS_WITH_VALUE = ['--prefix', '-C', '--dir', '-w', '--workspace', '--filter', '--cwd', '--registry', '--tag', '--omit', '--include', '--loglevel', '--cache', '--userconfig', '-F', '--python', '--project', '--directory'];

/**
 * A package manager's subcommands that change the project's manifest and lock file (`npm install x`,
 * `yarn add`), or the lock file only (`npm install` of what the manifest says, `uv sync`, bare
 * `yarn`: the subcommand ''); else `otherwise`. A global install (`-g`) changes neither, nor do
 * `--version` and `--help`.
 */
function changesManifest(subs: { manifest: string[]; lock: string[] }, manifest: string, locks: string[], otherwise: Rule): Rule {
  return (args, name) => {
    if (args.some((w) => ['-g', '--global', '-v', '--version', '-h', '--help', '--dry-run'].includes(w.text))) return otherwise(args, name);
    const line = parseCommandLine(args, MANAGER_OPTIONS_WITH_VALUE);
    const sub = line.positionals[0]?.text ?? '';
    // In another package's folder: `npm install --prefix web x`, `-w web`, `--workspace=web`.
    const at = optionValues(line, ['--prefix', '-C', '--dir', '-w', '--workspace', '--filter', '--cwd'])[0];
    const files = (...names: string[]) => manifests(...names).map((file) => inFolder(at, file));
    // `npm install` with no package installs what the manifest lists, and `--no-save` records nothing: only the lock file changes.
    const lockOnly = subs.lock.includes(sub) || (['install', 'i', 'in', 'add'].includes(sub) && (line.positionals.length === 1 || line.options.has('--no-save')));
    if (lockOnly) return line.options.has('--no-save') ? NONE : all(`${name} ${sub || 'install'}`, files(...locks));
    // `npm pkg set|delete`, `npm audit fix`, `npm init`: the manifest (the lock file too for audit fix).
    const edits = (sub === 'pkg' && ['set', 'delete'].includes(line.positionals[1]?.text ?? '')) || sub === 'init' || (sub === 'audit' && line.positionals[1]?.text === 'fix');
    return subs.manifest.includes(sub) || (name === 'npm' && edits) ? all(`${name} ${sub}`, files(manifest, ...locks)) : otherwise(args, name);
  };
}

/** A package manager that runs a project's bin by its bare name (`yarn prettier --write`): only the formatters the table knows, since its other first words are its own subcommands (`pnpm rm` removes a package). */
function binOrRunner(subs: string[], rest: Rule): Rule {
  const runner = runnerOf(subs, rest);
  return (args, name) => (args[0]?.literal && FORMATTERS.has(args[0].text) ? { writes: [], runs: args } : runner(args, name));
}
const FORMATTERS = new Set(['prettier', 'eslint', 'black', 'isort', 'ruff', 'biome', 'stylelint', 'rubocop', 'autopep8', 'yapf', 'autoflake', 'dprint', 'shfmt']);

/** The effect of one command: `argv[0]` is looked up by its base name (`/bin/rm` is rm). */
export function commandEffect(argv: readonly ShellWord[]): CommandEffect {
  const [name, ...args] = argv;
  if (!name?.literal) return NONE;
  // `/bin/rm` is rm; `prettier@3` (after npx) is prettier.
  const base = name.text.replace(/.*\//, '').replace(/(.)@.*$/, '$1');
  const rule = Object.hasOwn(RULES, base) ? RULES[base] : undefined;
  const program = programOf(argv);
  if (program && 'file' in program) return { ...(rule ? rule(args, base) : NONE), scriptFile: { word: program.file, byPath: false, language: program.language } };
  if (program) return { ...(rule ? rule(args, base) : NONE), program };
  if (rule) return rule(args, base);
  // `./build.sh`, `scripts/x`: a file run by its path is read if it is a shell script.
  return name.text.includes('/') ? { writes: [], scriptFile: { word: name, byPath: true, arguments: args } } : NONE;
}
