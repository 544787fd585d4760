import { identityFindings, type IdentityFinding } from './identity-rules.js';
import { analyzeShell, wordishTokens, type ScriptFile, type ShellFacts, type ShellWrite } from './shell-analysis.js';
import type { KnownVariables } from './shell-word.js';

/** What the plane needs of a command, small enough to hand across threads at once. */
export interface CommandAnalysis {
  /** The distinct writes it names, at most MAX_WRITES of them. */
  writes: ShellWrite[];
  /** How many distinct writes it names (more than `writes` holds when capped). */
  namedWrites: number;
  findings: IdentityFinding[];
  /** Script files the command runs (once each), at most MAX_SCRIPTS: the plane reads and analyses them. */
  scripts: ScriptFile[];
  /** Path-like words of what was not parsed (once each), at most MAX_TOKENS. */
  tokens: string[];
  parseError?: string;
}

export const MAX_WRITES = 500;
export const MAX_TOKENS = 500;
/** Script files read for one command, the scripts they run included (script-files.ts). */
export const MAX_SCRIPTS = 8;

/**
 * The pure part of the shell gate, all of it (it runs in the parser's thread): the writes a command
 * names and what it does as someone else. Only what needs the file system and the territory is left.
 */
export function analyzeCommand(command: string, cwd: string, known: KnownVariables, homes: readonly string[]): CommandAnalysis {
  return summarize(analyzeShell(command, cwd, known), homes);
}

/** A command the parser did not read (too slow, or its thread is busy): its tokens are all there is. */
export function unparsedCommand(command: string, why: string, homes: readonly string[]): CommandAnalysis {
  return summarize({ writes: [], commands: [], assignments: [], words: [], scripts: [], tokens: wordishTokens(command), parseError: why }, homes);
}

function summarize(facts: ShellFacts, homes: readonly string[]): CommandAnalysis {
  const writes = [...new Map(facts.writes.map((w) => [JSON.stringify(w), w])).values()];
  return {
    writes: writes.slice(0, MAX_WRITES),
    namedWrites: writes.length,
    findings: identityFindings(facts, homes),
    scripts: [...new Map(facts.scripts.map((script) => [`${script.path}\0${script.cwd}`, script])).values()].slice(0, MAX_SCRIPTS),
    tokens: [...new Set(facts.tokens)].slice(0, MAX_TOKENS),
    ...(facts.parseError !== undefined && { parseError: facts.parseError }),
  };
}
