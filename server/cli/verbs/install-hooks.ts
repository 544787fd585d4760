import { resolve } from 'node:path';
import { installHooks, repositoryRoot, uninstallHooks, type HookSelection } from '../../hooks/install.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { emit } from '../output.js';

const options = { root: { type: 'string' }, 'no-git': { type: 'boolean' }, 'no-claude': { type: 'boolean' }, 'no-codex': { type: 'boolean' }, shared: { type: 'boolean' } } as const;

function selection(values: { 'no-git'?: boolean; 'no-claude'?: boolean; 'no-codex'?: boolean; shared?: boolean }): HookSelection {
  const chosen = { git: !values['no-git'], claude: !values['no-claude'], codex: !values['no-codex'], claudeScope: values.shared ? ('shared' as const) : ('local' as const) };
  if (!chosen.git && !chosen.claude && !chosen.codex) throw new UsageError('--no-git, --no-claude and --no-codex together leave nothing to do');
  return chosen;
}

/**
 * `fleet install-hooks`: the git pre-commit hook and the Claude Code and Codex hooks, idempotently;
 * Claude Code's go into .claude/settings.local.json (absolute paths of this machine) unless --shared asks for settings.json.
 */
export async function installHooksVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, options, 'fleet install-hooks [--root DIR] [--no-git] [--no-claude] [--no-codex] [--shared]');
  const root = rootOf(values.root);
  const report = installHooks(root, home, selection(values));
  emit(values.json, { root, home, report }, () =>
    [...report, '', `Writes outside an agent's territory are now refused in ${root}.`, 'Escape hatch for the operator: FLEET_OVERRIDE="reason" (recorded as an event); git commit --no-verify skips every git hook.'].join('\n'),
  );
  return 0;
}

/** `fleet uninstall-hooks`: removes exactly what install-hooks put in (from both Claude Code settings files). */
export async function uninstallHooksVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, options, 'fleet uninstall-hooks [--root DIR] [--no-git] [--no-claude] [--no-codex]');
  const root = rootOf(values.root);
  const report = uninstallHooks(root, selection(values));
  emit(values.json, { root, home, report }, () => report.join('\n'));
  return 0;
}

function rootOf(root: string | undefined): string {
  try {
    return repositoryRoot(resolve(root ?? process.cwd()));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
