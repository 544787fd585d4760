// The building block for measuring what hooks cost an agent through a real client: how long the client
// took between the end of the model's reply that made a call and the request carrying the call's result
// (the tool's own run plus every hook at its matchers), and a way to put `node -e 0` hooks at the same
// matchers, the baseline to compare against. The bench does the statistics.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FleetCheckout } from './fleet-checkout.js';
import type { ModelRequest } from './model-turn.js';

export interface ToolCallWait {
  callId: string;
  name: string;
  ms: number;
}

/** Every call the scripted model made whose result came back, with the client's wait, in order. */
export function toolCallWaits(requests: ModelRequest[]): ToolCallWait[] {
  const waits: ToolCallWait[] = [];
  for (const [index, request] of requests.entries()) {
    if (request.repliedAt === undefined) continue;
    for (const callId of request.replyCallIds) {
      const answered = requests.slice(index + 1).find((later) => later.results.some((result) => result.callId === callId));
      const result = answered?.results.find((r) => r.callId === callId);
      if (answered && result) waits.push({ callId, name: result.name, ms: answered.receivedAt - request.repliedAt });
    }
  }
  return waits;
}

/** A hook that only starts Node: what any hook costs at the least. */
export const NOOP_HOOK_COMMAND = `'${process.execPath}' -e 0`;

/**
 * Rewrites every hook command `fleet init` installed (Claude Code's .claude/settings.local.json, Codex's
 * $CODEX_HOME/hooks.json) to `command`, keeping events, matchers and timeouts. Codex then needs its
 * hooks trusted again (trustCodexHooks with a select for `command`): their hash changed.
 */
export function replaceHookCommands(checkout: FleetCheckout, command = NOOP_HOOK_COMMAND): void {
  for (const file of [join(checkout.repo, '.claude', 'settings.local.json'), join(checkout.codexHome, 'hooks.json')]) {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    for (const groups of Object.values(settings.hooks)) for (const group of groups) for (const hook of group.hooks) hook.command = command;
    writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  }
}
