// The three hook configurations a client session is timed under, switched in place in one checkout:
// fleet's hooks as `fleet init` installed them, `node -e 0` at the same events and matchers (what any
// hook costs at the least), and no hooks at all (what the client waits for the tool alone). Codex runs
// a hook only once trusted, so each switch that leaves hooks trusts them again as /hooks does.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isFleetHook, trustCodexHooks, type ListedHook } from '../../test/clients/harness/codex-hook-trust.js';
import type { FleetCheckout } from '../../test/clients/harness/fleet-checkout.js';
import { NOOP_HOOK_COMMAND, replaceHookCommands } from '../../test/clients/harness/hook-timing.js';

export const HOOK_CONFIGURATIONS = ['fleet', 'node -e 0', 'none'] as const;
export type HookConfiguration = (typeof HOOK_CONFIGURATIONS)[number];

/** The files that hold both clients' hooks: Claude Code's project-local settings, Codex's user hooks.json. */
function hookFiles(checkout: FleetCheckout): string[] {
  return [join(checkout.repo, '.claude', 'settings.local.json'), join(checkout.codexHome, 'hooks.json')];
}

export interface HookSwitch {
  /** Puts `configuration` in place for both clients; Codex's hooks trusted through `codexBin`'s app server. */
  apply(configuration: HookConfiguration): Promise<void>;
}

/** Remembers the hooks `fleet init` wrote (call it before any switch), and switches between the configurations. */
export function hookSwitch(checkout: FleetCheckout, codexBin: string | undefined, codexEnv: NodeJS.ProcessEnv): HookSwitch {
  const installed = new Map(hookFiles(checkout).map((file) => [file, readFileSync(file, 'utf8')]));
  const trust = async (select: (hook: ListedHook) => boolean) => {
    if (codexBin === undefined) return;
    const listed = (await trustCodexHooks(codexBin, checkout.repo, codexEnv, select)).filter(select);
    const untrusted = listed.filter((hook) => hook.trustStatus !== 'trusted');
    if (untrusted.length > 0) throw new Error(`Codex still lists ${untrusted.map((hook) => `${hook.key} as ${hook.trustStatus}`).join(', ')} after trusting them`);
  };
  return {
    apply: async (configuration) => {
      for (const [file, text] of installed) writeFileSync(file, text);
      if (configuration === 'fleet') return trust(isFleetHook);
      if (configuration === 'node -e 0') {
        replaceHookCommands(checkout);
        return trust((hook) => hook.command === NOOP_HOOK_COMMAND);
      }
      for (const file of hookFiles(checkout)) {
        const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        writeFileSync(file, `${JSON.stringify({ ...settings, hooks: {} }, null, 2)}\n`);
      }
    },
  };
}
