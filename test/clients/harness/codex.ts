// Codex run headless (`codex exec`) in a fleet checkout, its model the scripted server.
// What the run adds to what `fleet init` wrote:
//   -c model_provider=scripted -c model_providers.scripted={base_url=…/v1, wire_api="responses"}
//                                  the scripted model server as a provider (command line, not config.toml).
//   -m gpt-5.5                     a model Codex knows: its metadata gives the apply_patch (freeform) and
//                                  tool_search tools a real session has (an unknown name gets neither).
//   --sandbox danger-full-access   no bubblewrap sandbox here; the fleet hooks are the gate under test.
//   -c check_for_update_on_startup=false, -c analytics.enabled=false   no traffic but the model's.
//   HTTPS_PROXY/HTTP_PROXY = the model server, NO_PROXY=127.0.0.1,localhost   as for Claude Code.
//   Hook trust: trustCodexHooks (codex-hook-trust.ts) trusts fleet's hooks as /hooks does.
import type { ClientRun } from './client-run.js';
import { runBounded } from './client-run.js';
import type { FleetCheckout } from './fleet-checkout.js';
import type { InstalledClient } from './installed-clients.js';
import type { ModelServer } from './model-server.js';
import type { ModelRequest, Wait } from './model-turn.js';

export const CODEX_MODEL = 'gpt-5.5';

export function codexEnv(checkout: FleetCheckout, server: ModelServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...checkout.clientEnv(), CODEX_HOME: checkout.codexHome, HTTPS_PROXY: server.url, HTTP_PROXY: server.url, NO_PROXY: '127.0.0.1,localhost', ...extra };
}

export function codexArgs(server: ModelServer): string[] {
  return [
    '-c', 'model_provider="scripted"',
    '-c', `model_providers.scripted={ name = "scripted", base_url = "${server.url}/v1", wire_api = "responses" }`,
    '-c', 'check_for_update_on_startup=false',
    '-c', 'analytics.enabled=false',
    '-m', CODEX_MODEL,
  ];
}

export function runCodex(client: InstalledClient, checkout: FleetCheckout, server: ModelServer, prompt: string, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ClientRun> {
  return runBounded(client.bin, ['exec', '--sandbox', 'danger-full-access', ...codexArgs(server), prompt], {
    cwd: checkout.repo,
    env: codexEnv(checkout, server, options.env),
    timeoutMs: options.timeoutMs ?? 90_000,
  });
}

/** Codex defers MCP tools behind tool_search, and adds a server's tools only once it answered tools/list. */
export function fleetToolsFound(request: ModelRequest): boolean {
  return request.results.some((result) => result.name === 'tool_search' && result.text.includes('"name":"mcp__fleet"'));
}

/** The script's first step for Codex: search the deferred tools until the fleet's are among them. */
export const searchFleetTools: Wait = {
  until: fleetToolsFound,
  meanwhile: { calls: [{ name: 'tool_search', input: { query: 'fleet', limit: 64 } }] },
  atMost: 40,
  waitingFor: 'the mcp__fleet tools in tool_search',
};
