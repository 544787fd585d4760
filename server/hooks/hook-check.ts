import type { z } from 'zod';
import { hookCheck, hookCheckCommand } from '../../contracts/methods/hooks.js';
import { connectToPlane } from '../client/connect.js';

export type HookVerdict = z.infer<typeof hookCheck.result>;
export type CommandVerdict = z.infer<typeof hookCheckCommand.result>;

export interface HookCheckRequest {
  home: string;
  hook: 'git-pre-commit' | 'claude-pre-tool-use' | 'claude-post-tool-use' | 'codex-pre-tool-use';
  root: string;
  paths: string[];
  /** FLEET_AS, when the writer says who it is. */
  callsign?: string;
  /** Where the write happens, to find the agent that registered this worktree at join. */
  worktree?: string;
  /** The writer is certainly an agent: finding none refuses the write. */
  agentOnly?: boolean;
  /** FLEET_OVERRIDE: the operator's reason for writing anyway. */
  override?: string;
}

const BATCH = 1000;

/**
 * The one check every hook calls (fleet_hook_check: the plane's territory check for the writing
 * agent), in batches the method accepts, merged into one verdict.
 */
export async function runHookCheck(request: HookCheckRequest): Promise<HookVerdict> {
  const client = await connectToPlane({ home: request.home, client: `fleet-hook-${request.hook}` });
  try {
    let merged: HookVerdict | undefined;
    for (let start = 0; start < request.paths.length; start += BATCH) {
      const raw = await client.callRaw('fleet_hook_check', {
        paths: request.paths.slice(start, start + BATCH),
        root: request.root,
        hook: request.hook,
        ...(request.callsign !== undefined && { callsign: request.callsign }),
        ...(request.worktree !== undefined && { worktree: request.worktree }),
        ...(request.override !== undefined && { override: request.override }),
        ...(request.agentOnly && { agentOnly: true }),
      });
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

export interface CommandCheckRequest {
  home: string;
  hook: 'claude-pre-tool-use' | 'codex-pre-tool-use';
  command: string;
  /** The session's directory: relative paths resolve here, and it finds the writing agent. */
  cwd: string;
  callsign?: string;
  agentOnly?: boolean;
  override?: string;
}

/** The shell command check (fleet_hook_check_command): the plane parses and judges the command. */
export async function runCommandCheck(request: CommandCheckRequest): Promise<CommandVerdict> {
  const client = await connectToPlane({ home: request.home, client: `fleet-hook-${request.hook}` });
  try {
    const raw = await client.callRaw('fleet_hook_check_command', {
      command: request.command,
      cwd: request.cwd,
      hook: request.hook,
      ...(request.callsign !== undefined && { callsign: request.callsign }),
      ...(request.override !== undefined && { override: request.override }),
      ...(request.agentOnly && { agentOnly: true }),
    });
    return hookCheckCommand.result.parse(raw);
  } finally {
    client.close();
  }
}

/** FLEET_AS and FLEET_OVERRIDE as the hooks read them (empty means unset). */
export function hookEnvironment(env: NodeJS.ProcessEnv): { callsign?: string; override?: string } {
  const callsign = env.FLEET_AS?.trim();
  const override = env.FLEET_OVERRIDE?.trim();
  return { ...(callsign && { callsign }), ...(override && { override }) };
}
