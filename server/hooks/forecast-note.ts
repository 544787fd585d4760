import type { ForecastConflict } from '../../contracts/index.js';

const MAX_NOTED = 10;

/**
 * The note an agent reads after touching files its branch is forecast to conflict on (DESIGN §14),
 * from the forecast conflicts the plane answered with: PostToolUse's after a shell or MCP call
 * (with what changed), Claude Code's PreToolUse's for a file tool it lets through (with the check).
 * It rides on additionalContext or a block's reason, never as permissionDecision "allow" (DESIGN §16).
 */
export function explainForecast(conflicts: readonly ForecastConflict[]): string {
  const lines = ['Fleet conflict forecast: merging your branch would conflict in files you just touched (nothing was blocked):'];
  for (const conflict of conflicts.slice(0, MAX_NOTED)) {
    const other = conflict.otherCallsign === undefined ? `the integration target ${conflict.otherBranch}` : `${conflict.otherCallsign}'s branch ${conflict.otherBranch}`;
    lines.push(`  ${conflict.paths.join(', ')}: with ${other}`);
  }
  if (conflicts.length > MAX_NOTED) lines.push(`  … and ${conflicts.length - MAX_NOTED} more (fleet_agent_resume lists them)`);
  lines.push('Coordinate before going on: message the other agent (fleet_message_send), keep your change to those files small, or leave them to whoever lands first.');
  return lines.join('\n');
}
