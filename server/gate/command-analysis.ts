import { identityFindings, type IdentityFinding } from './identity-rules.js';
import { analyzeShell, scriptKey, wordishTokens, type ScriptFile, type ShellFacts, type ShellWrite } from './shell-analysis.js';
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
 * The shell gate's reading of a command (it runs in the parser's thread): the writes a command names
 * and what it does as someone else (for a local command, what it runs is read from disk: the fleet
 * CLI by its real path, git's aliases). Only the territory and the writes' places on disk are left.
 */
export function analyzeCommand(command: string, cwd: string, known: KnownVariables, homes: readonly string[], local = false): CommandAnalysis {
  return summarize(analyzeShell(command, cwd, known), homes, local);
}

/** A command the parser did not read (too slow, or its thread is busy): its tokens are all there is. */
export function unparsedCommand(command: string, why: string, homes: readonly string[]): CommandAnalysis {
  return summarize({ writes: [], commands: [], assignments: [], words: [], scripts: [], tokens: wordishTokens(command), parseError: why }, homes);
}

/** `local`: the command runs on the plane's machine, so identity rules may read what it runs (identity-rules.ts). */
function summarize(facts: ShellFacts, homes: readonly string[], local = false): CommandAnalysis {
  const writes = [...new Map(facts.writes.map((w) => [JSON.stringify(w), w])).values()];
  return {
    writes: writes.slice(0, MAX_WRITES),
    namedWrites: writes.length,
    findings: identityFindings(facts, homes, local),
    scripts: [...new Map(facts.scripts.map((script) => [scriptKey(script), script])).values()].slice(0, MAX_SCRIPTS),
    tokens: [...new Set(facts.tokens)].slice(0, MAX_TOKENS),
    ...(facts.parseError !== undefined && { parseError: facts.parseError }),
  };
}
