import type { Params, Result } from '../../contracts/index.js';
import type { OpenHookPlane } from './hook-plane.js';
import { commandCheckParams, HOOK_CHECK_BATCH as BATCH, hookCheckParams, type CommandCheckRequest, type HookCheckRequest } from './hook-check-request.js';

export type HookVerdict = Result<'fleet_hook_check'>;
export type CommandVerdict = Result<'fleet_hook_check_command'>;

/**
 * The one check every hook calls (fleet_hook_check: the plane's territory check for the writing
 * agent), in batches the method accepts, merged into one verdict.
 */
export async function runHookCheck(request: HookCheckRequest, open: OpenHookPlane): Promise<HookVerdict> {
  const plane = await open(`fleet-hook-${request.hook}`);
  try {
    let merged: HookVerdict | undefined;
    for (let start = 0; start < request.paths.length; start += BATCH) {
      const verdict = await plane.call('fleet_hook_check', hookCheckParams(request, request.paths.slice(start, start + BATCH)) as Params<'fleet_hook_check'>);
      merged = merged
        ? { ...verdict, allowed: merged.allowed && verdict.allowed, overridden: merged.overridden || verdict.overridden, results: [...merged.results, ...verdict.results] }
        : verdict;
    }
    return merged!;
  } finally {
    plane.close();
  }
}

/** The shell command check (fleet_hook_check_command): the plane parses and judges the command. */
export async function runCommandCheck(request: CommandCheckRequest, open: OpenHookPlane): Promise<CommandVerdict> {
  const plane = await open(`fleet-hook-${request.hook}`);
  try {
    return await plane.call('fleet_hook_check_command', commandCheckParams(request) as Params<'fleet_hook_check_command'>);
  } finally {
    plane.close();
  }
}
