import { resolve } from 'node:path';
import { repositoryRoot } from '../../hooks/install.js';
import { initRepository, removeFromRepository } from '../../mcp/init.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { emit } from '../output.js';

const USAGE = 'fleet init [--remove] [--root DIR] [--no-claude] [--no-codex] [--no-instructions]';

/**
 * `fleet init`: the per-runtime set-up of a repository — the MCP server entries for Claude Code
 * (.mcp.json) and Codex (~/.codex/config.toml), and the instructions block in AGENTS.md and
 * CLAUDE.md. Idempotent; `--remove` takes it all out again.
 */
export async function initVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(
    argv,
    { remove: { type: 'boolean' }, root: { type: 'string' }, 'no-claude': { type: 'boolean' }, 'no-codex': { type: 'boolean' }, 'no-instructions': { type: 'boolean' } },
    USAGE,
  );
  let root: string;
  try {
    root = repositoryRoot(resolve(values.root ?? process.cwd()));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options = { root, home, env: process.env, claude: !values['no-claude'], codex: !values['no-codex'], instructions: !values['no-instructions'] };
  const report = values.remove ? removeFromRepository(options) : initRepository(options);
  emit(values.json, { root, home, report }, () =>
    values.remove
      ? report.join('\n')
      : [...report, '', 'Next: `fleet install-hooks` (refuse writes outside an agent\'s territory), then start an agent here: it joins the fleet through the fleet MCP tools.'].join('\n'),
  );
  return 0;
}
