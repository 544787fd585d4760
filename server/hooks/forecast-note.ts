import { isAbsolute, relative, resolve } from 'node:path';
import type { ForecastConflict } from '../../contracts/index.js';
import type { OpenHookPlane } from './hook-plane.js';
import { worktreeRoot } from './git.js';

const MAX_NOTED = 10;

/**
 * The note an agent reads after touching files its branch is forecast to conflict on (DESIGN §14):
 * asks the plane for the forecast conflicts of this worktree's write-set among `touched` (absolute,
 * or relative to cwd). Undefined when there are none, or outside a repository. The note rides on
 * PostToolUse's additionalContext (or a block's reason), never on an allow (DESIGN §16).
 */
export async function forecastNote(cwd: string, touched: readonly string[], open: OpenHookPlane, client: string): Promise<string | undefined> {
  const root = touched.length > 0 ? worktreeRoot(cwd) : undefined;
  if (root === undefined) return undefined;
  const paths = touched.map((path) => relative(root, isAbsolute(path) ? path : resolve(cwd, path))).filter((path) => path !== '' && !path.startsWith('..'));
  if (paths.length === 0) return undefined;
  const plane = await open(client);
  try {
    const { conflicts } = await plane.call('fleet_conflicts', { worktree: root, paths: paths.slice(0, 500) });
    return conflicts.length === 0 ? undefined : explainForecast(conflicts);
  } finally {
    plane.close();
  }
}

function explainForecast(conflicts: ForecastConflict[]): string {
  const lines = ['Fleet conflict forecast: merging your branch would conflict in files you just touched (nothing was blocked):'];
  for (const conflict of conflicts.slice(0, MAX_NOTED)) {
    const other = conflict.otherCallsign === undefined ? `the integration target ${conflict.otherBranch}` : `${conflict.otherCallsign}'s branch ${conflict.otherBranch}`;
    lines.push(`  ${conflict.paths.join(', ')}: with ${other}`);
  }
  if (conflicts.length > MAX_NOTED) lines.push(`  … and ${conflicts.length - MAX_NOTED} more (fleet_agent_resume lists them)`);
  lines.push('Coordinate before going on: message the other agent (fleet_message_send), keep your change to those files small, or leave them to whoever lands first.');
  return lines.join('\n');
}
