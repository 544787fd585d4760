import { basename, resolve } from 'node:path';
import { absolutePath } from './real-path.js';
import { commandEffect, type NamedWrite, type PatchSource } from './command-writes.js';
import { programWrites, scriptLanguage, type Language } from './inline-programs.js';
import { patchTargets, type PatchReading } from './patch-files.js';
import { pipedOutput, stdinOf, type Stdin } from './stdin-feeds.js';
import { assignedDefault, elementKey, listWords, splicedList, withPositionals } from './parameter-expansion.js';
import { expandBraces, literalWord, readWord, type KnownVariables, type ShellWord } from './shell-word.js';
import { child, items, nodeType, parseShell, walkChildren, walkTree, type GoNode } from './syntax-tree.js';
import { Whereabouts } from './whereabouts.js';

/** A write the command names, with the directory it is relative to. */
export type ShellWrite = NamedWrite & { cwd: string };

/** A script file a command runs, and the directory it runs in; `byPath`: run by its path, so read only if a shell or a known interpreter would run it. */
export interface ScriptFile {
  path: string;
  cwd: string;
  byPath: boolean;
  /** Run by this language's interpreter (python3 x.py); a shell's when not given. */
  language?: Language;
  /** Not run but applied as a patch (git apply p.diff, patch -i p.diff): the files its headers name are written. */
  patch?: PatchReading;
  /** Its positional parameters, a shell script's (`bash x.sh a b`, `./x.sh a b`): its $1 is a. */
  arguments?: ShellWord[];
}

/** What makes reading a script file again tell nothing new: the same file, folder and way of applying it. */
export function scriptKey(script: ScriptFile): string {
  return `${script.path}\0${script.cwd}\0${JSON.stringify(script.patch ?? null)}\0${JSON.stringify(script.arguments?.map((word) => word.text) ?? null)}`;
}

/** Everything in a command the gate judges, found by a real shell parser. */
export interface ShellFacts {
  writes: ShellWrite[];
  /** Each simple command as it runs (prefix commands and `bash -c` scripts unwrapped). */
  commands: { argv: ShellWord[]; cwd: string }[];
  /** `NAME=value` wherever it is set: before a command, `export`, `env NAME=value`. */
  assignments: { name: string; value: ShellWord }[];
  /** Every word, with its directory: a word naming a protected file is refused whatever reads it. */
  words: { word: ShellWord; cwd: string }[];
  /** Script files it runs, for the plane to read (a path built at run time is not among them). */
  scripts: ScriptFile[];
  /** Set when the command (or a script inside it) does not parse: `tokens` is all that is known. */
  parseError?: string;
  tokens: string[];
}

/** Function calls whose bodies are read, and scripts inside scripts parsed, per command: `a(){ b;b; }; b(){ c;c; }…` and `eval` in a loop of folders multiply. */
const MAX_FUNCTION_CALLS = 32;
const MAX_NESTED_SCRIPTS = 16;
/** How deep `bash -c "bash -c '…'"` is followed; deeper scripts are read only as tokens. */
const MAX_SCRIPT_DEPTH = 4;
/** Redirection operators (mvdan/sh's RedirOperator) that write their word: > >> <> >& >| &> &>>. */
const WRITING_REDIRECTS = new Map([[54, '>'], [55, '>>'], [57, '<>'], [59, '>&'], [60, '>|'], [64, '&>'], [65, '&>>']]);
const DUPLICATE_OUT = 59;
/** BinaryCmd operators (mvdan/sh's BinCmdOperator): && and ||; `|` and `|&` run each side in a child process. */
const APPEND = 55;
const AND = 10;
const OR = 11;
const PIPE = 12;
const PIPE_ALL = 13;

/** Parses `command` as bash and collects its writes, commands, assignments and words. */
export function analyzeShell(command: string, cwd: string, known: KnownVariables): ShellFacts {
  const facts: ShellFacts = { writes: [], commands: [], assignments: [], words: [], scripts: [], tokens: [] };
  analyzeScript(command, cwd, known, facts, 0, new Map(), { scripts: MAX_NESTED_SCRIPTS, functionCalls: MAX_FUNCTION_CALLS });
  return facts;
}

/** What a whole command may spend on its nested scripts and function calls, however deep they are. */
interface Budget {
  scripts: number;
  functionCalls: number;
}

/** `written`: the files a `cat > FILE <<'EOF'` earlier in the command wrote, by absolute path: a script run later in it is that text. */
function analyzeScript(source: string, startCwd: string, known: KnownVariables, facts: ShellFacts, depth: number, written: Map<string, { text: string; appended: boolean }>, budget: Budget): void {
  let file: GoNode;
  try {
    file = parseShell(source);
  } catch (error) {
    facts.parseError ??= (error as Error).message;
    facts.tokens.push(...wordishTokens(source));
    return;
  }
  const where = new Whereabouts(startCwd, typeof known.HOME === 'string' ? known.HOME : undefined, (dir, previous) => {
    [variables.PWD, variables.OLDPWD] = [dir, previous];
    alternatives.delete('PWD');
    alternatives.delete('OLDPWD');
  });
  // The stdin of the statement being read: the script `bash <<'EOF'` runs, the patch `apply_patch` or `patch` applies.
  let stdin: Stdin | undefined;
  // What the left side of a pipe prints, for the statement on its right.
  let piped: Stdin | undefined;
  const read = (word: GoNode): ShellWord => readWord(word, variables);
  // $PWD is where the command runs; a variable the command sets stands for every value it may hold from then on
  // (a branch not taken, a subshell: each assignment adds one), as a `{a,b}` pattern.
  const variables: Record<string, string | ShellWord> = { ...known, PWD: startCwd };
  const alternatives = new Map<string, ShellWord[]>();
  const assign = (name: string, word: ShellWord): void => {
    const old = variables[name];
    const before = alternatives.get(name) ?? (old === undefined ? [] : [typeof old === 'string' ? literalWord(old) : old]);
    const values = before.some((w) => w.text === word.text) ? before : [...before, word];
    alternatives.set(name, values);
    variables[name] = loopWord(values);
  };
  // The positional parameters: a function call binds them to its arguments, `shift` and `set --` move them.
  const positionalKeys = () => Object.keys(variables).filter((key) => /^(\d+|#)$/.test(key) && key !== '0');
  const setPositionals = (words: readonly ShellWord[] | undefined): void => {
    for (const key of positionalKeys()) delete variables[key];
    if (words) Object.assign(variables, withPositionals({}, undefined, words));
  };
  const withArguments = (words: readonly ShellWord[] | undefined, run: () => void): void => {
    const saved = Object.fromEntries(positionalKeys().map((key) => [key, variables[key]!]));
    setPositionals(words);
    try {
      run();
    } finally {
      setPositionals(undefined);
      Object.assign(variables, saved);
    }
  };
  const changePositionals = (argv: ShellWord[]): void => {
    const name = argv[0]?.literal ? argv[0].text : undefined;
    const list = listWords(variables);
    if (name === 'shift' && list) {
      const by = argv[1] === undefined ? 1 : Number(argv[1].text);
      setPositionals(argv[1] === undefined || (argv[1].literal && Number.isInteger(by)) ? list.slice(by) : undefined);
    } else if (name === 'set') {
      // `set -- a b`, `set -e a b` set them; `set -e`, `set -o pipefail` do not.
      let at = 1;
      while (at < argv.length && /^[-+]/.test(argv[at]!.text) && argv[at]!.text !== '--') at += /^[-+]o$/.test(argv[at]!.text) ? 2 : 1;
      if (argv[at]?.text === '--') setPositionals(argv.slice(at + 1));
      else if (at < argv.length) setPositionals(argv.slice(at));
    }
  };
  const widenPositionals = (): void => {
    const list = listWords(variables);
    list?.forEach((_, i) => (variables[String(i + 1)] = loopWord(list.slice(i))));
  };
  // `NAME=value cmd`: the assignment holds for that command only.
  const prefixOnly = new Set<GoNode>();
  // One command in each folder it may run in: what it does is read once, where it does it for each folder.
  const runCommand = (argv: ShellWord[], level: number, folders: readonly string[]): void => {
    const effect = commandEffect(argv);
    const inEach = (write: NamedWrite): void => {
      for (const at of folders) facts.writes.push({ ...write, cwd: at });
    };
    for (const at of folders) facts.commands.push({ argv, cwd: at });
    effect.writes.forEach(inEach);
    if (effect.runs && level >= MAX_SCRIPT_DEPTH) {
      // Prefixes nested past the depth read (`git -C . -C . …`): what finally runs is unseen.
      inEach({ kind: 'worktree', via: `${argv[0]!.text} (nested past ${MAX_SCRIPT_DEPTH} prefixes)` });
    } else if (effect.runs) {
      const moved = effect.runsIn;
      const before = facts.writes.length;
      runCommand(effect.runs, level + 1, moved?.literal ? folders.map((at) => resolve(at, moved.text)) : folders);
      // A folder built at run time (`env -C "$D" rm x`): what the command writes there could be anywhere.
      if (moved && !moved.literal && facts.writes.length > before) inEach({ kind: 'worktree', via: `${argv[0]!.text} in ${moved.text}` });
    }
    const name = argv[0]?.text.replace(/.*\//, '') ?? '';
    // A script built at run time (`bash -c "…$(…)…"`) is parsed with its unknown parts as `*`; one that is nothing but
    // unknown (`sh -c "$CMD"`) could do anything in the worktree (not `eval "$(tool init)"`, which sets up this shell).
    if (effect.script) for (const at of folders) nested(effect.script.text, at, effect.scriptArguments ?? []);
    if (effect.script?.unanchored && effect.scriptArguments) inEach({ kind: 'worktree', via: `${name} -c ${effect.script.text}` });
    // `bash <<'EOF'`, `cat x.sh | sh`, `echo 'rm a' | bash`, `bash < x.sh`: the script it reads on stdin.
    if (effect.scriptOnStdin) codeOnStdin({ byPath: false }, name, folders);
    // `python3 -c '…'`, `node - <<'EOF'`: the files the program's write calls name.
    const program = effect.program;
    if (program?.code === 'stdin') codeOnStdin({ byPath: false, language: program.language }, name, folders);
    else if (program) programWrites(program.language, program.code, `${name} program`).forEach(inEach);
    if (effect.patch) applyPatches(effect.patch, folders);
    const file = effect.scriptFile;
    if (file?.word.literal) for (const at of folders) runScriptFile(file, absoluteTarget(file.word.text, at), at);
  };
  // Code a shell or an interpreter reads on stdin: the text the command holds, the files it feeds (read like script files),
  // or another command's output, which could do anything in the worktree. Nothing on stdin: the tool's own, empty.
  const codeOnStdin = (run: { byPath: false; language?: Language }, name: string, folders: readonly string[]): void => {
    const fed = stdin;
    if (fed === undefined) return;
    for (const at of folders) {
      if ('text' in fed && fed.text.unanchored) facts.writes.push({ kind: 'worktree', via: `${name} reading a script built at run time`, cwd: at });
      if ('text' in fed && run.language) programWrites(run.language, fed.text, `${name} program`).forEach((write) => facts.writes.push({ ...write, cwd: at }));
      else if ('text' in fed) nested(fed.text.text, at, []);
      else if ('files' in fed) for (const file of fed.files) if (file.literal) runScriptFile(run, absoluteTarget(file.text, at), at);
      if ('from' in fed || ('files' in fed && fed.files.some((file) => !file.literal))) facts.writes.push({ kind: 'worktree', via: `${name} reading ${'from' in fed ? fed.from : 'a file named at run time'}`, cwd: at });
    }
  };
  // Patches a command applies: the files their headers name, from the text the command holds, or from the patch files
  // (read by the plane, or from what the command wrote into them); a patch nobody can read before it runs may write anywhere.
  const applyPatches = ({ files, text: given, ...patch }: PatchSource, folders: readonly string[]): void => {
    const sources: Stdin = given ? { text: given } : files.length > 0 ? { files } : (stdin ?? { from: 'its terminal' });
    for (const at of folders) {
      const push = (write: NamedWrite) => facts.writes.push({ ...write, cwd: at });
      if ('text' in sources) {
        // Built at run time (a variable, a `$(…)` that may add a header): its names are patterns, and it may name others.
        const readable = sources.text.literal;
        if (!readable) push({ kind: 'worktree', via: patch.via });
        for (const path of patchTargets(sources.text.text, patch)) push({ kind: 'path', word: { text: path, literal: readable, glob: !readable, unanchored: false }, via: patch.via });
      } else if ('from' in sources) push({ kind: 'worktree', via: `${patch.via} reading ${sources.from}` });
      else for (const file of sources.files) {
        const path = file.literal ? absoluteTarget(file.text, at) : undefined;
        const text = path === undefined ? undefined : written.get(path);
        // Written earlier in this command by another command (`git diff > p; git apply -R p`): what is on disk now is not what will be applied.
        const madeHere = text === undefined && facts.writes.some((write) => write.kind === 'path' && write.word.literal && absoluteTarget(write.word.text, write.cwd) === path);
        if (path === undefined || madeHere) push({ kind: 'worktree', via: `${patch.via} ${file.text}` });
        else if (text === undefined || text.appended) facts.scripts.push({ path, cwd: at, byPath: false, patch });
        if (text !== undefined) for (const target of patchTargets(text.text, patch)) push({ kind: 'path', word: literalWord(target), via: patch.via });
      }
    }
  };
  // A script file the command runs: read by the plane, or, when the command itself writes it first, from that text
  // (not on disk yet, or not as it will be); appended to (`cat >> x.sh`), the plane reads what is on disk as well.
  const runScriptFile = (file: { byPath: boolean; language?: Language; arguments?: ShellWord[] }, path: string, at: string): void => {
    const text = written.get(path);
    const args = file.arguments && file.arguments.length > 0 && !file.language ? file.arguments : undefined;
    if (text === undefined || text.appended) facts.scripts.push({ path, cwd: at, byPath: file.byPath, ...(file.language && { language: file.language }), ...(args && { arguments: args }) });
    if (text === undefined) return;
    const language = scriptLanguage(path, text.text, file);
    if (language === 'shell') nested(text.text, at, [literalWord(path), ...(args ?? [])]);
    else if (language !== undefined) for (const write of programWrites(language, literalWord(text.text), `${language} script ${basename(path)}`)) facts.writes.push({ ...write, cwd: at });
  };
  // A script inside the command (`bash -c`, `eval`, a here-document, a script it writes): parsed in turn,
  // within the depth and the budget shared by the whole command (each is parsed once for every folder it may run in).
  // `positionals`: a new shell's $0 and arguments (`sh -c '…' NAME ARG…`); none for `eval`, which runs in this shell.
  const nested = (text: string, at: string, positionals?: readonly ShellWord[]): void => {
    const known = positionals ? withPositionals(variables, positionals[0], positionals.slice(1)) : variables;
    if (depth < MAX_SCRIPT_DEPTH && budget.scripts-- > 0) analyzeScript(text, at, known, facts, depth + 1, written, budget);
    else facts.tokens.push(...wordishTokens(text));
  };
  // Functions defined so far, by name: a call runs the body where it is called (its cd moves the caller), within the budget.
  const functions = new Map<string, GoNode>();
  const calling = new Set<string>();
  const walk = (node: GoNode, children: boolean): void => (children ? walkChildren(node, visit) : walkTree(node, visit));
  // A child process or a function's definition: its cd, and the functions it defines, end with it.
  const walkScoped = (node: GoNode, children: boolean): void => {
    const defined = new Map(functions);
    where.scoped(() => walk(node, children));
    functions.clear();
    for (const [name, body] of defined) functions.set(name, body);
  };
  // `a && b && c`; `certain`: it ran whole (`a && b || exit`).
  const walkChain = (node: GoNode, certain: boolean): void => where.chain(chainParts(node).map((part) => () => walk(part, false)), certain);
  const visit = (type: string, node: GoNode): boolean => {
    switch (type) {
      case 'Subshell':
      case 'CmdSubst':
      case 'ProcSubst':
        walkScoped(node, true);
        return false;
      case 'FuncDecl': {
        const name = child(node, 'Name')?.Value as string | undefined;
        const body = child(node, 'Body');
        // Read where it is defined too, scoped: it may be called in a way not seen here (`"$f"`, a trap); its $1 is not known there.
        withArguments(undefined, () => walkScoped(node, true));
        if (name !== undefined && body) functions.set(name, body);
        return false;
      }
      case 'IfClause': {
        // `if …; then cd a; else cd b; fi`: each branch from where the condition left (a cd in it may have failed);
        // without an else, the then may not run.
        const condition = items(node, 'Cond');
        where.maybe(() => condition.forEach((statement) => walk(statement, false)));
        const otherwise = child(node, 'Else');
        const then = items(node, 'Then');
        const branches = [{ run: () => then.forEach((statement) => walk(statement, false)), exits: lastExits(then) }];
        if (otherwise) branches.push({ run: () => walk(otherwise, false), exits: ifExits(otherwise) });
        where.branches(branches, condition.length > 0 && !otherwise); // a plain `else` has no condition: its body runs
        return false;
      }
      case 'CaseClause': {
        const word = child(node, 'Word');
        if (word) walk(word, false);
        where.branches(items(node, 'Items').map((item) => ({ run: () => items(item, 'Stmts').forEach((statement) => walk(statement, false)), exits: lastExits(items(item, 'Stmts')) })), true);
        return false;
      }
      case 'WhileClause':
      case 'ForClause':
        // A `shift` in the loop moves the positional parameters on each turn: from here on, $1 may be any of them.
        if (containsShift(node)) widenPositionals();
        where.maybe(() => walk(node, true));
        return false;
      case 'BinaryCmd': {
        const [left, right] = [child(node, 'X'), child(node, 'Y')];
        if (node.Op === PIPE || node.Op === PIPE_ALL) {
          // `cat <<'EOF' | python3 -`, `cat x.sh | sh`: what the left side prints is the right side's stdin.
          const fed = left && pipedOutput(left, read);
          if (left) walkScoped(left, false);
          piped = fed;
          if (right) walkScoped(right, false);
          piped = undefined;
        } else if (node.Op === OR && right && lastExits([right])) {
          // `cd x || exit`, `cd x && make || exit 1`: past this line the left ran whole.
          const chain = left && plainCommand(left);
          if (chain && nodeType(chain) === 'BinaryCmd' && chain.Op === AND) walkChain(chain, true);
          else if (left) walk(left, false);
          walkScoped(right, false);
        } else if (node.Op === OR) {
          // `cd x || …`: the left may fail (and leave the folder as it was); the right runs only then.
          where.either(() => left && walk(left, false), () => right && walk(right, false));
        } else {
          walkChain(node, false);
        }
        return false;
      }
      case 'CallExpr': {
        // Brace expansion is the shell's, of braces written in the word: a variable's several values stay one word.
        // `"$@"` and `"${a[@]}"` are one word per element.
        const argv = items(node, 'Args').flatMap((word) => splicedList(word, variables) ?? (writtenBraces(word) ? expandBraces(readWord(word, variables)) : [readWord(word, variables)]));
        if (argv.length > 0) for (const prefix of items(node, 'Assigns')) prefixOnly.add(prefix);
        runCommand(argv, 0, where.all());
        const name = argv[0]?.literal ? argv[0].text : undefined;
        const body = name === undefined ? undefined : functions.get(name);
        if (body && name !== undefined && !calling.has(name) && budget.functionCalls-- > 0) {
          calling.add(name);
          withArguments(argv.slice(1), () => walk(body, false));
          calling.delete(name);
        }
        where.change(argv);
        changePositionals(argv);
        break;
      }
      case 'Stmt': {
        // A statement's redirections open before its command runs: `{ cd sub && make; } > log` writes ./log.
        const redirects = items(node, 'Redirs');
        for (const redirect of redirects) walk(redirect, false);
        stdin = stdinOf(node, piped, read);
        piped = undefined; // the pipe feeds its own statement, not those inside it
        const command = child(node, 'Cmd');
        if (stdin && 'text' in stdin && command) rememberWritten(command, redirects, stdin.text.text);
        if (command && node.Background) walkScoped(command, false);
        else if (command) walk(command, false);
        return false;
      }
      case 'Redirect': {
        const op = WRITING_REDIRECTS.get(node.Op as number);
        const target = child(node, 'Word');
        const word = target && readWord(target, variables);
        // `2>&1`, `>&-`: duplicating or closing a descriptor writes no file.
        if (op && word && !(node.Op === DUPLICATE_OUT && /^(\d+|-)$/.test(word.text))) for (const at of where.all()) facts.writes.push({ kind: 'path', word, via: `redirection ${op}`, cwd: at });
        break;
      }
      case 'Assign': {
        const name = child(node, 'Name')?.Value as string | undefined;
        const value = child(node, 'Value');
        if (name === undefined) break;
        const array = child(node, 'Array');
        if (array && !prefixOnly.has(node)) {
          // `a=(x y)`: each element, and $a is the first.
          const elements = items(array, 'Elems').map((element) => child(element, 'Value')).filter((word) => word !== undefined).map((word) => readWord(word, variables));
          elements.forEach((element, i) => assign(elementKey(name, i), element));
          assign(elementKey(name, '#'), literalWord(String(elements.length)));
          if (elements[0]) assign(name, elements[0]);
          break;
        }
        const word = value ? readWord(value, variables) : literalWord('');
        facts.assignments.push({ name, value: word });
        if (!prefixOnly.has(node)) assign(name, word);
        break;
      }
      case 'WordIter': {
        // `for f in a b*; do … "$f" …`: the loop variable stands for the words it iterates over.
        const name = child(node, 'Name')?.Value as string | undefined;
        // `for f; do` iterates over the positional parameters.
        const written = items(node, 'Items');
        const words = written.length > 0 ? written.flatMap((word) => splicedList(word, variables) ?? [readWord(word, variables)]) : (listWords(variables) ?? []);
        if (name !== undefined && words.length > 0) {
          alternatives.set(name, words);
          variables[name] = loopWord(words);
        }
        break;
      }
      case 'Word':
        facts.words.push({ word: readWord(node, variables), cwd: where.cwd });
        break;
      case 'ParamExp': {
        // `: "${OUT:=dist}"` sets OUT when the command had not: later words read it.
        const assigned = assignedDefault(node, variables);
        if (assigned) assign(assigned.name, read(assigned.word));
        break;
      }
    }
    return true;
  };
  /** `cat > FILE <<'EOF'` and `tee FILE <<'EOF'`: FILE's text (or what is appended to it: `>>`, `tee -a`), should the command run it later. */
  function rememberWritten(command: GoNode, redirects: GoNode[], text: string): void {
    if (nodeType(command) !== 'CallExpr') return;
    const args = items(command, 'Args').map((word) => readWord(word, variables));
    const targets: { word: ShellWord; appended: boolean }[] = [];
    if (printsStdin(args)) {
      for (const redirect of redirects) {
        const target = WRITING_REDIRECTS.has(redirect.Op as number) ? child(redirect, 'Word') : undefined;
        if (target) targets.push({ word: readWord(target, variables), appended: redirect.Op === APPEND });
      }
    } else if (args[0]?.text === 'tee') {
      const appended = args.some((arg) => arg.text === '-a' || arg.text === '--append');
      for (const arg of args.slice(1)) if (!arg.text.startsWith('-')) targets.push({ word: arg, appended });
    }
    for (const { word, appended } of targets) if (word.literal) written.set(absoluteTarget(word.text, where.cwd), { text, appended });
  }
  try {
    walkTree(file, visit);
  } catch (error) {
    // Nested past the stack (hundreds of `|` or `$(`): read as tokens, like a command that does not parse.
    if (!(error instanceof RangeError)) throw error;
    facts.parseError ??= 'nested too deeply to follow';
    facts.tokens.push(...wordishTokens(source));
  }
}

/** `cat` or `cat -`: it prints its stdin (here, its here-document) and nothing else. */
function printsStdin(args: readonly ShellWord[]): boolean {
  return args[0]?.text === 'cat' && args.every((arg, i) => i === 0 || arg.text === '-');
}

/** The command of a statement with nothing around it (no redirection, `&` or `!`). */
function plainCommand(statement: GoNode): GoNode | undefined {
  return statement.Background || statement.Negated || items(statement, 'Redirs').length > 0 ? undefined : child(statement, 'Cmd');
}

/** `a && b && c` as its parts: mvdan/sh nests it as ((a && b) && c), each side a statement. */
function chainParts(node: GoNode): GoNode[] {
  const parts: GoNode[] = [];
  for (let head: GoNode | undefined = node; head; ) {
    const [left, right]: (GoNode | undefined)[] = [child(head, 'X'), child(head, 'Y')];
    if (right) parts.unshift(right);
    const inner: GoNode | undefined = left && plainCommand(left);
    if (inner && nodeType(inner) === 'BinaryCmd' && inner.Op === AND) head = inner;
    else {
      if (left) parts.unshift(left);
      head = undefined;
    }
  }
  return parts;
}

/** The last of `statements` ends the shell: `exit`, or a `{ …; exit 1; }` block ending so. */
function lastExits(statements: readonly GoNode[]): boolean {
  const command = statements.length > 0 ? child(statements[statements.length - 1]!, 'Cmd') : undefined;
  const type = command && nodeType(command);
  if (type === 'Block') return lastExits(items(command!, 'Stmts'));
  if (type !== 'CallExpr') return false;
  const name = items(command!, 'Args')[0];
  const parts = name ? items(name, 'Parts') : [];
  // Not `return`: in a function it ends the function, and the caller goes on where it was.
  return parts.length === 1 && nodeType(parts[0]) === 'Lit' && parts[0]!.Value === 'exit';
}

/** Every branch of an if (its elifs and else) ends the shell; one without an else may not run at all. */
function ifExits(clause: GoNode): boolean {
  const otherwise = child(clause, 'Else');
  const certain = items(clause, 'Cond').length === 0;
  return lastExits(items(clause, 'Then')) && (certain || (otherwise !== undefined && ifExits(otherwise)));
}

/** A `shift` inside the node (a loop over the arguments). */
function containsShift(node: GoNode): boolean {
  let found = false;
  walkTree(node, (type, inner) => {
    if (type === 'CallExpr' && !found) {
      const name = items(inner, 'Args')[0];
      const parts = name ? items(name, 'Parts') : [];
      found = parts.length === 1 && nodeType(parts[0]) === 'Lit' && parts[0]!.Value === 'shift';
    }
    return !found;
  });
  return found;
}

/** One word stands for itself; several become a `{a,b}` pattern (the claim glob syntax). */
function loopWord(words: ShellWord[]): ShellWord {
  if (words.length === 1) return words[0]!;
  if (words.some((w) => w.unanchored || /[{},]/.test(w.text))) return { text: '*', literal: false, glob: true, unanchored: true };
  return { text: `{${words.map((w) => w.text).join(',')}}`, literal: false, glob: true, unanchored: false };
}

/** An unquoted `{` written in the word (`f{,.bak}`), not one a variable's value brings. */
function writtenBraces(word: GoNode): boolean {
  return items(word, 'Parts').some((part) => nodeType(part) === 'Lit' && (part.Value as string).includes('{'));
}

/** What a command that does not parse still shows: its path-like tokens (once each), quotes and operators stripped. */
export function wordishTokens(source: string): string[] {
  return [...new Set(source.split(/[\s'"`;&|<>()$]+/))].filter((t) => /[/.]/.test(t) && t !== '/dev/null');
}

/** A path word made absolute against the directory it was written in; its `..` are kept for realPath to take as the kernel does. */
export function absoluteTarget(text: string, cwd: string): string {
  return absolutePath(cwd, text);
}
