import { resolve } from 'node:path';
import { repositoryRoot } from '../../hooks/install.js';
import { initRepository, removeFromRepository } from '../../mcp/init.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { emit } from '../output.js';

const USAGE = 'fleet init [--remove] [--root DIR] [--no-claude] [--no-codex] [--no-instructions] [--no-hooks] [--no-git]';

/**
 * `fleet init`: the per-runtime set-up of a repository — the MCP server entries for Claude Code
 * (.mcp.json, nothing machine-specific in it) and Codex (~/.codex/config.toml), the instructions
 * block in AGENTS.md and CLAUDE.md, and every hook `fleet install-hooks` writes (Claude Code, Codex,
 * git pre-commit). Idempotent; `--remove` takes it all out again.
 */
export async function initVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(
    argv,
    {
      remove: { type: 'boolean' },
      root: { type: 'string' },
      'no-claude': { type: 'boolean' },
      'no-codex': { type: 'boolean' },
      'no-instructions': { type: 'boolean' },
      'no-hooks': { type: 'boolean' },
      'no-git': { type: 'boolean' },
    },
    USAGE,
  );
  let root: string;
  try {
    root = repositoryRoot(resolve(values.root ?? process.cwd()));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options = {
    root,
    home,
    env: process.env,
    claude: !values['no-claude'],
    codex: !values['no-codex'],
    instructions: !values['no-instructions'],
    hooks: !values['no-hooks'],
    git: !values['no-git'],
  };
  const report = values.remove ? removeFromRepository(options) : initRepository(options);
  emit(values.json, { root, home, report }, () =>
    values.remove
      ? report.join('\n')
      : [...report, '', 'Next: start an agent here: it joins the fleet through the fleet MCP tools, and the hooks refuse its writes outside its territory.'].join('\n'),
  );
  return 0;
}
