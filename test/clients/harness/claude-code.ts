// Claude Code run headless (`claude -p`) in a fleet checkout, its model the scripted server.
// What the run adds to what `fleet init` wrote (each one what a headless run needs, nothing the user lacks):
//   --allowedTools Write Edit Bash mcp__fleet   the permission allow-list a person grants at the prompts
//                                               (-p has no prompt: a tool not allowed is refused); the
//                                               fleet hooks decide before these rules apply.
//   ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY       the scripted model server, a dummy key.
//   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, DISABLE_AUTOUPDATER=1, DISABLE_TELEMETRY=1,
//   DISABLE_ERROR_REPORTING=1                   no traffic but the model's.
//   HTTPS_PROXY/HTTP_PROXY = the model server, NO_PROXY=127.0.0.1,localhost
//                                               anything meant for past loopback is recorded there and refused.
// Not needed, so not written: the project MCP server approval (`-p` starts .mcp.json's servers without
// the trust prompt), IS_SANDBOX (only --dangerously-skip-permissions asks for it as root).
import type { ClientRun } from './client-run.js';
import { runBounded } from './client-run.js';
import type { FleetCheckout } from './fleet-checkout.js';
import type { InstalledClient } from './installed-clients.js';
import type { ModelServer } from './model-server.js';

export const CLAUDE_ALLOWED_TOOLS = ['Write', 'Edit', 'Bash', 'mcp__fleet'];

export function claudeEnv(checkout: FleetCheckout, server: ModelServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...checkout.clientEnv(),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    HTTPS_PROXY: server.url,
    HTTP_PROXY: server.url,
    NO_PROXY: '127.0.0.1,localhost',
    ...extra,
  };
}

export function runClaude(client: InstalledClient, checkout: FleetCheckout, server: ModelServer, prompt: string, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ClientRun> {
  return runBounded(client.bin, ['-p', prompt, '--output-format', 'json', '--allowedTools', ...CLAUDE_ALLOWED_TOOLS], {
    cwd: checkout.repo,
    env: claudeEnv(checkout, server, options.env),
    timeoutMs: options.timeoutMs ?? 90_000,
  });
}
