// DESIGN §13: a cloud runtime adds the plane as an HTTP MCP server (/mcp on the TLS listener) with
// its service token; the official SDK client sees the stdio bridge's tools and acts only as its agent.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { buildToolCatalog } from '../../../server/mcp/tool-catalog.js';
import { runCli } from '../../support/run-cli.js';
import type { McpClientReport } from './mcp-http-client.js';
import { createToken, remotePlaneForFile } from '../../support/remote-plane.js';

const CLIENT = fileURLToPath(new URL('./mcp-http-client.js', import.meta.url));

const file = remotePlaneForFile();

/** Runs the SDK client as its own process; `trustCa: false` leaves the test CA out of its trust store. */
function mcpClient(token: string, calls: { name: string; arguments?: Record<string, unknown> }[], trustCa = true): Promise<McpClientReport> {
  const env = { ...process.env, ...(trustCa && { NODE_EXTRA_CA_CERTS: file.remote.tls.caFile }) };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLIENT, JSON.stringify({ url: file.remote.mcpUrl, token, calls })], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the MCP client failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as McpClientReport);
    });
  });
}

test('the SDK client over Streamable HTTP sees the bridge\'s tool catalog and works as its token\'s agent, joined on its first call', async () => {
  const { token } = await createToken(file.remote, 'NOVA', 'builder');
  execFileSync('git', ['-C', file.root, 'config', 'fleet.scope', 'github.com/acme/app']);
  const report = await mcpClient(token, [
    { name: 'fleet_claim_path', arguments: { patterns: ['src/**'], scope: 'git@github.com:acme/app.git' } },
    { name: 'fleet_agent_join', arguments: { callsign: 'ATLAS', runtime: 'claude-code' } },
    { name: 'fleet_control_set', arguments: { state: 'pause', reason: 'cloud brake' } },
    { name: 'fleet_control_set', arguments: { state: 'run' } },
    { name: 'fleet_roster', arguments: {} },
  ]);
  assert.equal(report.connectError, undefined);
  assert.deepEqual(report.tools, [...buildToolCatalog().keys()]);
  assert.match(report.instructions ?? '', /^You reach this fleet over HTTP as NOVA, the agent of your service token/);
  const [claim, otherCallsign, brake, resume, roster] = report.results!;
  assert.equal(claim!.isError, false, claim!.text);
  assert.equal(claim!.structured?.granted, true);
  assert.equal(otherCallsign!.isError, true);
  assert.match(otherCallsign!.text, /^FORBIDDEN: this service token acts only as NOVA, not ATLAS/);
  // A model can always pull the brake, as its agent, never release it.
  assert.equal(brake!.structured?.setBy, 'NOVA');
  assert.equal(resume!.isError, true);
  assert.match(resume!.text, /^FORBIDDEN: only the operator moves the fleet switch/);
  const agents = roster!.structured?.agents as { callsign: string; runtime: string; role: string; tier: string }[];
  assert.deepEqual(agents.filter((a) => a.callsign === 'NOVA').map((a) => [a.runtime, a.role, a.tier]), [['cloud-agent-test', 'builder', 'edge']]);
  assert.ok(!agents.some((a) => a.callsign === 'ATLAS'));

  const resumed = await runCli(['resume'], { home: file.remote.plane.home, cwd: file.root });
  assert.equal(resumed.code, 0, resumed.stderr);
  // The claim is the fleet's: a local agent sees NOVA holding it.
  const local = await file.remote.plane.connect();
  try {
    const check = await local.call('fleet_check_path', { paths: ['src/a.ts'], root: file.root });
    assert.deepEqual(check.results[0]!.holders.map((h) => h.callsign), ['NOVA']);
  } finally {
    local.close();
  }
});

test('over MCP, wrong and revoked tokens are refused before any session, and the plane\'s certificate must be trusted', async () => {
  const { token } = await createToken(file.remote, 'SIRIUS');
  const wrong = await mcpClient(`${token.slice(0, -4)}AAAA`, []);
  assert.match(wrong.connectError ?? '', /not a service token of this plane/);

  const untrusted = await mcpClient(token, [], false);
  assert.match(untrusted.connectError ?? '', /certificate/);

  const revoked = await runCli(['token', 'revoke', '--callsign', 'SIRIUS'], { home: file.remote.plane.home, cwd: file.root });
  assert.equal(revoked.code, 0, revoked.stderr);
  const after = await mcpClient(token, []);
  assert.match(after.connectError ?? '', /was revoked/);
});
