// One timed client session: the scripted model joins the fleet through the real MCP bridge, claims a
// file of its own, then makes N tool calls the gate allows, alternating the shell (`ls src`) and the
// client's file tool on that file (Claude Code's Write, Codex's apply_patch). What is timed is the
// client's wait per call (hook-timing.ts). A session whose calls were not all allowed and answered
// measured something else, so it throws, saying what the model was told.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runClaude } from '../../test/clients/harness/claude-code.js';
import { describeRun, type ClientRun } from '../../test/clients/harness/client-run.js';
import { runCodex, searchFleetTools } from '../../test/clients/harness/codex.js';
import type { FleetCheckout } from '../../test/clients/harness/fleet-checkout.js';
import { toolCallWaits } from '../../test/clients/harness/hook-timing.js';
import type { ClientId, InstalledClient } from '../../test/clients/harness/installed-clients.js';
import type { ModelServer } from '../../test/clients/harness/model-server.js';
import { lastAgentRequest, resultOf, scriptOf, type ModelRequest, type Step, type ToolCall } from '../../test/clients/harness/model-turn.js';

/** What the session's calls were: the shell or the file tool. */
export type CallKind = 'shell' | 'file';

export interface TimedSession {
  run: ClientRun;
  /** The client's wait per call, in milliseconds, by kind, in call order. */
  waits: Record<CallKind, number[]>;
  /** The agent loop's requests, in order (Codex's first one says whether the fleet's tools were in yet). */
  agentRequests: ModelRequest[];
}

const SHELL_COMMAND = 'ls src';
const fileText = (version: number) => `export const version = ${version};\n`;

interface ClientScript {
  /** The tool names the client's results carry for the shell and the file tool. */
  tools: Record<CallKind, string>;
  /** The steps up to a granted claim on `file`: finding the fleet tools, joining, claiming. */
  join(callsign: string, file: string): Step[];
  shell(): ToolCall;
  /** The file tool taking `file` from version - 1 to version. */
  write(checkout: FleetCheckout, file: string, version: number): ToolCall;
  start(client: InstalledClient, checkout: FleetCheckout, server: ModelServer, prompt: string, timeoutMs: number): Promise<ClientRun>;
  /** Whether the call's result says it was refused or failed. */
  refused(text: string, isError: boolean): boolean;
}

const CLIENT_SCRIPTS: Record<ClientId, ClientScript> = {
  'claude-code': {
    tools: { shell: 'Bash', file: 'Write' },
    join: (callsign, file) => [
      { calls: [{ name: 'ToolSearch', input: { query: 'select:mcp__fleet__fleet_agent_join,mcp__fleet__fleet_claim_path', max_results: 5 } }] },
      { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign, runtime: 'claude-code' } }] },
      { calls: [{ name: 'mcp__fleet__fleet_claim_path', input: { patterns: [file] } }] },
    ],
    shell: () => ({ name: 'Bash', input: { command: SHELL_COMMAND, description: 'list src' } }),
    write: (checkout, file, version) => ({ name: 'Write', input: { file_path: join(checkout.repo, file), content: fileText(version) } }),
    start: (client, checkout, server, prompt, timeoutMs) => runClaude(client, checkout, server, prompt, { timeoutMs }),
    refused: (_text, isError) => isError,
  },
  codex: {
    tools: { shell: 'exec_command', file: 'apply_patch' },
    join: (callsign, file) => [
      searchFleetTools,
      { calls: [{ name: 'mcp__fleet__fleet_agent_join', input: { callsign, runtime: 'codex' } }] },
      { calls: [{ name: 'mcp__fleet__fleet_claim_path', input: { patterns: [file] } }] },
    ],
    shell: () => ({ name: 'exec_command', input: { cmd: SHELL_COMMAND } }),
    write: (_checkout, file, version) => ({
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Update File: ${file}\n@@\n-${fileText(version - 1)}+${fileText(version)}*** End Patch\n`,
    }),
    start: (client, checkout, server, prompt, timeoutMs) => runCodex(client, checkout, server, prompt, { timeoutMs }),
    // Codex answers a refused or failed call in its output text, never with an error flag.
    refused: (text) => /blocked by|error|failed/i.test(text),
  },
};

/** Bound on one session: start-up, the fleet tools found, N calls each with its hooks, on a busy machine. */
const sessionTimeoutMs = (calls: number) => 120_000 + calls * 15_000;

/**
 * Runs one session of `calls` tool calls as `callsign`, on `file` (relative to the repository, created
 * here at version 0). `server` is shared across sessions: only the requests this session made are read.
 */
export async function timedSession(client: InstalledClient, checkout: FleetCheckout, server: ModelServer, callsign: string, file: string, calls: number): Promise<TimedSession> {
  const script = CLIENT_SCRIPTS[client.id];
  writeFileSync(join(checkout.repo, file), fileText(0));
  const steps: Step[] = script.join(callsign, file);
  let version = 0;
  for (let call = 0; call < calls; call++) steps.push({ calls: [call % 2 === 0 ? script.shell() : script.write(checkout, file, ++version)] });
  steps.push({ text: 'done' });

  const first = server.requests.length;
  server.play(scriptOf(steps));
  const run = await script.start(client, checkout, server, `join the fleet as ${callsign} and work on ${file}`, sessionTimeoutMs(calls));
  const requests = server.requests.slice(first);
  const fail = (what: string) => new Error(`${client.id} session ${callsign}: ${what}\n${describeRun(run)}`);
  const agentRequests = requests.filter((request) => request.main);
  if (agentRequests.length === 0) throw fail('the model server received no request of the agent loop');
  const last = lastAgentRequest(agentRequests);

  const claimed = resultOf(last, 'mcp__fleet__fleet_claim_path');
  if (!claimed?.text.includes('"granted":true')) throw fail(`its claim on ${file} was not granted: ${claimed?.text ?? 'no result'}`);
  const kindOf = new Map<string, CallKind>([[script.tools.shell, 'shell'], [script.tools.file, 'file']]);
  const timed = last.results.filter((result) => kindOf.has(result.name));
  if (timed.length !== calls) throw fail(`${timed.length} of its ${calls} shell and file calls came back`);
  const refused = timed.find((result) => script.refused(result.text, result.isError));
  if (refused) throw fail(`its ${refused.name} call was not allowed or failed; the model read: ${refused.text}`);
  const written = readFileSync(join(checkout.repo, file), 'utf8');
  if (written !== fileText(version)) throw fail(`${file} holds ${JSON.stringify(written)} after its writes, not ${JSON.stringify(fileText(version))}`);

  const waits: Record<CallKind, number[]> = { shell: [], file: [] };
  const timedIds = new Set(timed.map((result) => result.callId));
  for (const wait of toolCallWaits(requests)) if (timedIds.has(wait.callId)) waits[kindOf.get(wait.name)!].push(wait.ms);
  if (waits.shell.length + waits.file.length !== calls) throw fail(`the waits of ${waits.shell.length + waits.file.length} of its ${calls} calls were found`);
  return { run, waits, agentRequests };
}
