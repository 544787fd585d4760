import type { z } from 'zod';
import { hookCheck, hookCheckCommand } from '../../contracts/methods/hooks.js';
import { connectToPlane } from '../client/connect.js';
import { commandCheckParams, HOOK_CHECK_BATCH as BATCH, hookCheckParams, type CommandCheckRequest, type HookCheckRequest } from './hook-check-request.js';


export type HookVerdict = z.infer<typeof hookCheck.result>;
export type CommandVerdict = z.infer<typeof hookCheckCommand.result>;

/**
 * The one check every hook calls (fleet_hook_check: the plane's territory check for the writing
 * agent), in batches the method accepts, merged into one verdict.
 */
export async function runHookCheck(request: HookCheckRequest): Promise<HookVerdict> {
  const client = await connectToPlane({ home: request.home, client: `fleet-hook-${request.hook}` });
  try {
    let merged: HookVerdict | undefined;
    for (let start = 0; start < request.paths.length; start += BATCH) {
      const raw = await client.callRaw('fleet_hook_check', hookCheckParams(request, request.paths.slice(start, start + BATCH)));
      const verdict = hookCheck.result.parse(raw);
      merged = merged
        ? { ...verdict, allowed: merged.allowed && verdict.allowed, overridden: merged.overridden || verdict.overridden, results: [...merged.results, ...verdict.results] }
        : verdict;
    }
    return merged!;
  } finally {
    client.close();
  }
}

/** The shell command check (fleet_hook_check_command): the plane parses and judges the command. */
export async function runCommandCheck(request: CommandCheckRequest): Promise<CommandVerdict> {
  const client = await connectToPlane({ home: request.home, client: `fleet-hook-${request.hook}` });
  try {
    const raw = await client.callRaw('fleet_hook_check_command', commandCheckParams(request));
    return hookCheckCommand.result.parse(raw);
  } finally {
    client.close();
  }
}
