import { existsSync } from 'node:fs';
import { hookFrontBeside, hookLauncherBeside } from './launcher.js';

export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The command a runtime runs for one hook event: the lean runner's launcher beside `launcher`
 * (FLEET_HOME/bin/fleet-hook VERB --home H …), else, for a CLI bundle that has none beside it,
 * `fleet hook VERB …`. Both the installed commands of before are recognised by their ` VERB --home `.
 */
export function hookCommand(launcher: string, verb: string, args: string): string {
  const lean = hookLauncherBeside(launcher);
  return existsSync(lean) ? `${shellQuote(lean)} ${verb} ${args}` : `${shellQuote(launcher)} hook ${verb} ${args}`;
}

/**
 * A PreToolUse hook that cannot be run (its launcher gone with FLEET_HOME, or not executable by the
 * agent's Unix user) fails with 126 or 127, which Claude Code and Codex take as "allow". So the
 * installed PreToolUse command checks first and blocks (exit 2: both runtimes refuse the tool call
 * and show stderr), saying how to get the hooks back or take them out. Where the hook front is
 * installed beside the lean runner, the command runs it first (it answers a tool call in a fraction
 * of a Node start, and runs the runner itself for anything unusual), while it and bash are there.
 */
export function failClosed(command: string, launcher: string, settings: string): string {
  const lean = hookLauncherBeside(launcher);
  const runner = existsSync(lean) ? lean : launcher;
  const why = `fleet: the fleet hook ${runner} cannot be run by this user (FLEET_HOME removed, or owned by another user), so this tool call is refused. Run fleet install-hooks again, or remove the fleet hooks (fleet uninstall-hooks, or delete the entries naming ${runner} from ${settings}).`;
  const front = hookFrontBeside(launcher);
  const runsLean = `${shellQuote(lean)} `;
  const fast = runner === lean && existsSync(front) && command.startsWith(runsLean) ? `[ -x ${shellQuote(front)} ] && [ -x /bin/bash ] && exec ${shellQuote(front)} ${command.slice(runsLean.length)}; ` : '';
  // The event is read first (cat): a runtime still writing it must not meet a closed pipe.
  return `[ -x ${shellQuote(runner)} ] || { cat >/dev/null; echo ${shellQuote(why)} >&2; exit 2; }; ${fast}exec ${command}`;
}
