import type { ShellWord } from './shell-word.js';

/** A command's arguments split the way its own option parser would. */
export interface CommandLine {
  positionals: ShellWord[];
  /** Options as written (`-t`, `--target-directory`), with their value when they take one (the last, if repeated). */
  options: Map<string, ShellWord | true>;
  /** Every value each option was given, in order (`curl -o a URL -o b URL`). */
  values: Map<string, ShellWord[]>;
  /** Short flags given anywhere, clustered or not (`-pi` sets p and i). */
  flags: Set<string>;
}

/**
 * Splits `args` (without the command name): `--` ends options; a short option listed in
 * `withValue` takes the rest of its cluster or the next word; a long one `=value` or the next word.
 */
export function parseCommandLine(args: readonly ShellWord[], withValue: readonly string[] = []): CommandLine {
  const line: CommandLine = { positionals: [], options: new Map(), values: new Map(), flags: new Set() };
  const setOption = (name: string, value: ShellWord | true) => {
    line.options.set(name, value);
    if (value !== true) line.values.set(name, [...(line.values.get(name) ?? []), value]);
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = word.text;
    if (text === '--') {
      line.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!word.literal || !text.startsWith('-') || text === '-') {
      line.positionals.push(word);
    } else if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text : text.slice(0, eq);
      if (eq >= 0) setOption(name, { ...word, text: text.slice(eq + 1) });
      else if (withValue.includes(name) && i + 1 < args.length) setOption(name, args[++i]!);
      else setOption(name, true);
    } else {
      for (let c = 1; c < text.length; c++) {
        const flag = text[c]!;
        line.flags.add(flag);
        if (!withValue.includes(`-${flag}`)) continue;
        const rest = text.slice(c + 1);
        const value = rest !== '' ? { ...word, text: rest } : args[++i];
        if (value) setOption(`-${flag}`, value);
        break;
      }
    }
  }
  return line;
}
