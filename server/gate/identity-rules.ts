import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { isMethodName, methods, type MethodName } from '../../contracts/method-table.js';
import { parseCommandLine } from './command-line.js';
import { fleetCliArguments } from './fleet-cli.js';
import { aliasBudget, environmentBypasses, gitHookBypasses } from './git-hook-bypass.js';
import type { ShellFacts } from './shell-analysis.js';
import type { ShellWord } from './shell-word.js';
import { ASK_OPERATOR } from './ask-operator.js';

/** A command refused for who it acts as, not for where it writes. */
export interface IdentityRefusal {
  what: string;
  instead: string;
}

/**
 * What the rules find before the writer is known (they run beside the parser): a finding with
 * `actingAs` is a refusal only when that callsign is not the writer's.
 */
export interface IdentityFinding {
  what: string;
  instead: string;
  actingAs?: string;
}

/** The refusals for this writer; with no writer known, `--as X` cannot be judged as someone else's. */
export function refusalsFor(findings: readonly IdentityFinding[], writer: string | undefined): IdentityRefusal[] {
  return findings
    .filter((f) => f.actingAs === undefined || (writer !== undefined && f.actingAs !== writer))
    .map((f) => ({ what: f.actingAs === undefined ? f.what : `${f.what}: you are ${writer}`, instead: f.actingAs === undefined ? f.instead : f.instead.replace('{writer}', writer!) }));
}

/** What an agent may touch in FLEET_HOME: the launcher, and where the plane listens. */
const HOME_FILES_FOR_AGENTS = ['bin', 'plane.json'];

/**
 * Which method a CLI verb calls (its authority comes from the method table, never from here).
 * A verb run without `--as` connects as the operator.
 */
const VERB_METHODS: Record<string, MethodName | Record<string, MethodName>> = {
  pause: 'fleet_control_set',
  drain: 'fleet_control_set',
  resume: 'fleet_control_set',
  stop: 'fleet_control_set',
  shutdown: 'fleet_plane_shutdown',
  work: {
    decide: 'fleet_work_update',
    complete: 'fleet_work_update',
    verify: 'fleet_work_update',
    add: 'fleet_work_add',
    pull: 'fleet_work_pull',
    plan: 'fleet_work_update',
    clarify: 'fleet_work_update',
    answer: 'fleet_work_update',
    configure: 'fleet_work_configure',
  },
  build: { configure: 'fleet_build_configure', verify: 'fleet_build_verify' },
  token: { create: 'fleet_token_create', list: 'fleet_token_list', revoke: 'fleet_token_revoke' },
};


/**
 * What in a command acts as the operator, as another agent, or past the hooks. `homes` is
 * FLEET_HOME as given and as its real path: its credentials are not an agent's to read. `local`:
 * the command runs on the plane's machine, so the programs it runs and the repository's git
 * configuration may be read to tell what it does (a remote agent's are judged by their words).
 */
export function identityFindings(facts: ShellFacts, homes: readonly string[], local = false): IdentityFinding[] {
  const findings: IdentityFinding[] = [];
  const settings = [...facts.assignments, ...facts.words.flatMap(({ word }) => assignmentWord(word))];
  for (const { name, value } of settings) {
    if (name === 'FLEET_OVERRIDE') {
      findings.push({ what: 'setting FLEET_OVERRIDE (the operator\'s escape hatch)', instead: `claim the path, wait for it (fleet claim --wait) or ask its holder for a handoff; if it truly must go through, ${ASK_OPERATOR}` });
    } else if (name === 'FLEET_AS') {
      findings.push({ what: `setting FLEET_AS=${value.text}`, instead: 'act as yourself (FLEET_AS={writer}, or no FLEET_AS at all)', actingAs: value.text });
    }
  }
  const lookups = aliasBudget();
  const gitConfig = facts.assignments.filter(({ name }) => name.startsWith('GIT_CONFIG_')).map(({ name, value }) => ({ name, value: value.text }));
  findings.push(...environmentBypasses(gitConfig));
  for (const { argv, cwd } of facts.commands) {
    findings.push(...fleetFindings(fleetCliArguments(argv, cwd, homes, local)));
    if (basename(argv[0]?.text ?? '') === 'git') findings.push(...gitHookBypasses(argv, cwd, gitConfig, local, lookups));
  }
  const words = [...facts.words, ...facts.tokens.map((text) => ({ word: { text, literal: true, glob: false, unanchored: false }, cwd: undefined }))];
  for (const { word, cwd } of words) {
    const file = protectedHomeFile(word, cwd, homes);
    if (file !== undefined) {
      findings.push({ what: `naming ${file} in FLEET_HOME (the plane's credentials and sessions are not an agent's to read or copy)`, instead: 'use your own identity: the MCP tools, or fleet … --as YOUR_CALLSIGN' });
    }
  }
  return dedupe(findings);
}

function assignmentWord(word: ShellWord): { name: string; value: ShellWord }[] {
  const match = /^(FLEET_AS|FLEET_OVERRIDE)=(.*)$/s.exec(word.text);
  return match ? [{ name: match[1]!, value: { ...word, text: match[2]! } }] : [];
}

/** What the fleet CLI run with `args` does as someone else (none when the command is not the CLI). */
function fleetFindings(args: ShellWord[] | undefined): IdentityFinding[] {
  if (!args) return [];
  const line = parseCommandLine(args, ['--as', '--home', '--reason', '--params', '--json', '--root', '--callsign', '--runtime', '--role']);
  const [verb, sub] = line.positionals.map((w) => w.text);
  const as = line.options.get('--as');
  const command = ['fleet', ...args.map((w) => w.text)].join(' ').slice(0, 120);
  const refusals: IdentityFinding[] = [];
  if (typeof as === 'object') refusals.push({ what: `\`${command}\` acts as ${as.text}`, instead: 'run it as yourself: --as {writer}', actingAs: as.text });
  if (verb === 'uninstall-hooks' || (verb === 'init' && line.options.has('--remove'))) {
    refusals.push({ what: `\`${command}\` takes the fleet's write gate out`, instead: ASK_OPERATOR });
  }
  const entry = verb !== undefined ? (verb === 'call' ? sub : Object.hasOwn(VERB_METHODS, verb) ? VERB_METHODS[verb] : undefined) : undefined;
  const method = typeof entry === 'string' ? entry : entry && sub !== undefined && Object.hasOwn(entry, sub) ? entry[sub] : undefined;
  if (method === undefined || !isMethodName(method)) return refusals;
  const spec = methods[method];
  if (spec.access === 'operator') {
    refusals.push({ what: `\`${command}\` calls ${method}, which only the operator may call`, instead: ASK_OPERATOR });
  } else if (as === undefined && spec.mutates) {
    refusals.push({
      what: `\`${command}\` acts as the operator (no --as): ${method} changes the fleet`,
      instead: verb === 'call' || verb === 'work' || verb === 'build' ? 'add --as YOUR_CALLSIGN (the plane then decides by your role), or use the MCP tool' : `an agent may pull the brake with the fleet_control_set MCP tool (toward pause/stop only); anything else: ${ASK_OPERATOR}`,
    });
  }
  return refusals;
}

function protectedHomeFile(word: ShellWord, cwd: string | undefined, homes: readonly string[]): string | undefined {
  if (word.unanchored || (cwd === undefined && !isAbsolute(word.text))) return undefined;
  const literal = word.glob ? word.text.replace(/[*?[{].*$/s, '') : word.text;
  const absolute = cwd === undefined ? resolve(literal) : resolve(cwd, literal);
  for (const home of homes) {
    const inside = relative(home, absolute);
    if (inside === '' && !word.glob) continue;
    if (inside.startsWith('..') || isAbsolute(inside)) continue;
    const first = inside.split(sep)[0]!;
    if (inside !== '' && HOME_FILES_FOR_AGENTS.includes(first)) continue;
    return inside === '' ? word.text : inside;
  }
  return undefined;
}

function dedupe(refusals: IdentityFinding[]): IdentityFinding[] {
  const seen = new Set<string>();
  return refusals.filter((r) => !seen.has(r.what) && seen.add(r.what));
}
