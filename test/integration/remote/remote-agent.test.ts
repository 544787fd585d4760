// DESIGN §13: a remote agent reaches the plane over the TLS listener with a service token, which
// acts only as its agent and never as the operator; wrong, revoked and expired tokens are refused.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import type { ErrorName } from '../../../contracts/index.js';
import { HandshakeRefusedError, PlaneCallError, type PlaneClient } from '../../../server/client/plane-client.js';
import { runCli } from '../../support/run-cli.js';
import { within } from '../../support/within.js';
import { connectRemote, createToken, remotePlaneForFile } from '../../support/remote-plane.js';

// Plane time runs 30× faster, so a token's expiry comes within the test (agents here are edge: 600 s plane time = 20 s).
const TIME_SCALE = 30;

const file = remotePlaneForFile({ FLEET_TIME_SCALE: String(TIME_SCALE) });

async function refusal(call: Promise<unknown>, name: ErrorName, message: RegExp): Promise<void> {
  const error = await call.then(
    () => assert.fail(`expected ${name}, the call succeeded`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof PlaneCallError, String(error));
  assert.equal(error.errorName, name, error.message);
  assert.match(error.message, message);
}

async function handshakeRefusal(connecting: Promise<PlaneClient>, message: RegExp): Promise<void> {
  const error = await connecting.then(
    (client) => {
      client.close();
      return assert.fail('the listener accepted the connection');
    },
    (e: unknown) => e,
  );
  assert.ok(error instanceof HandshakeRefusedError, String(error));
  assert.equal(error.status, 401);
  assert.match(error.reason, message);
}

test('a remote agent joins over the listener with its service token, as edge with its token\'s role, claims by scope (no checkout on the plane\'s machine), and re-attaches after a reconnect', async () => {
  const { token } = await createToken(file.remote, 'ORION', 'builder');
  const first = await connectRemote(file.remote, token);
  const joined = await first.call('fleet_agent_join', { callsign: 'ORION', runtime: 'ci' });
  // The repository's portable id, as the remote agent knows it from its own clone.
  execFileSync('git', ['-C', file.root, 'config', 'fleet.scope', 'github.com/acme/app']);
  const claim = await first.call('fleet_claim_path', { patterns: ['src/**'], scope: 'https://github.com/acme/app.git' });
  assert.equal(claim.granted, true);
  first.close();

  const local = await file.remote.plane.connect();
  try {
    const { agents } = await local.call('fleet_roster', {});
    const orion = agents.find((agent) => agent.callsign === 'ORION');
    assert.equal(orion?.role, 'builder');
    assert.equal(orion?.tier, 'edge');
    const check = await local.call('fleet_check_path', { paths: ['src/a.ts'], root: file.root });
    assert.deepEqual(check.results[0]!.holders.map((h) => h.callsign), ['ORION']);
  } finally {
    local.close();
  }

  // No session token kept: the service token alone continues ORION, claims and all.
  const second = await connectRemote(file.remote, token);
  try {
    const again = await second.call('fleet_agent_join', { callsign: 'ORION', runtime: 'ci' });
    assert.equal(again.rejoined, true);
    assert.equal(again.agentId, joined.agentId);
    const resumed = await second.call('fleet_agent_resume', {});
    assert.equal(resumed.claims.length, 1);
  } finally {
    second.close();
  }
});

test('a service token acts only as its agent: another callsign, another role, the operator role, local pids and operator methods are refused', async () => {
  const { token } = await createToken(file.remote, 'VEGA', 'worker');
  const client = await connectRemote(file.remote, token);
  try {
    // Before joining it may read, never change anything as "an unjoined client".
    await client.call('fleet_status', {});
    await refusal(client.call('fleet_control_set', { state: 'pause' }), 'NOT_JOINED', /acts only as its agent: call fleet_agent_join \{"callsign": "VEGA"\}/);
    await refusal(client.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'ci' }), 'FORBIDDEN', /acts only as VEGA, not ATLAS/);
    await refusal(client.call('fleet_agent_join', { callsign: 'VEGA', runtime: 'ci', role: 'rte' }), 'FORBIDDEN', /role worker, not rte/);
    await refusal(client.call('fleet_agent_join', { callsign: 'VEGA', runtime: 'ci', role: 'operator' }), 'FORBIDDEN', /role worker, not operator/);
    await refusal(client.call('fleet_agent_join', { callsign: 'VEGA', runtime: 'ci', pid: process.pid }), 'INVALID_PARAMS', /pid names something on your machine/);
    await client.call('fleet_agent_join', { callsign: 'VEGA', runtime: 'ci' });
    await refusal(client.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'ci' }), 'FORBIDDEN', /acts only as VEGA, not ATLAS/);
    // It may pull the brake, as itself; releasing it is the operator's, who is never file.remote.
    const paused = await client.call('fleet_control_set', { state: 'pause', reason: 'remote brake' });
    assert.equal(paused.setBy, 'VEGA');
    await refusal(client.call('fleet_control_set', { state: 'run' }), 'FORBIDDEN', /only the operator moves the fleet switch/);
    const resumed = await runCli(['resume'], { home: file.remote.plane.home, cwd: file.root });
    assert.equal(resumed.code, 0, resumed.stderr);
    await refusal(client.call('fleet_token_list', {}), 'FORBIDDEN', /operator only/);
    await refusal(client.call('fleet_token_create', { callsign: 'VEGA', role: 'rte' }), 'FORBIDDEN', /operator only/);
    await refusal(client.call('fleet_claim_force_release', { claimIds: ['cl_x'], reason: 'taking over' }), 'FORBIDDEN', /rte or the operator/);
  } finally {
    client.close();
  }
});

test('wrong tokens, the plane token, the operator credential and no token at all are refused at the handshake, saying why', async () => {
  const { token } = await createToken(file.remote, 'LYRA');
  await handshakeRefusal(connectRemote(file.remote, `${token.slice(0, -4)}AAAA`), /not a service token of this plane/);
  await handshakeRefusal(connectRemote(file.remote, 'fst.tok_nothing.secret'), /not a service token of this plane/);
  await handshakeRefusal(connectRemote(file.remote, file.remote.plane.token), /plane token and the operator credential are never accepted here/);
  await handshakeRefusal(connectRemote(file.remote, file.remote.plane.operatorToken), /never accepted here/);
  const bare = new WebSocket(file.remote.url, { ca: file.remote.tls.ca });
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    bare.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    bare.once('open', () => reject(new Error('an upgrade without a token was accepted')));
  });
  assert.equal(answer.status, 401);
  assert.match(answer.body, /missing "Authorization: Bearer <service token>"/);
});

test('a revoked token is refused at once: on the open connection\'s next call, and at any new handshake', async () => {
  const { token, id } = await createToken(file.remote, 'DENEB');
  const client = await connectRemote(file.remote, token);
  try {
    await client.call('fleet_agent_join', { callsign: 'DENEB', runtime: 'ci' });
    await client.call('fleet_claim_path', { patterns: ['README.md'], root: file.root });
    const revoked = await runCli(['token', 'revoke', '--callsign', 'DENEB', '--json'], { home: file.remote.plane.home, cwd: file.root });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.deepEqual((JSON.parse(revoked.stdout) as { revoked: string[] }).revoked, [id]);
    await refusal(client.call('fleet_agent_heartbeat', {}), 'SERVICE_TOKEN_INVALID', new RegExp(`service token ${id} \\(DENEB\\) was revoked`));
    await refusal(client.call('fleet_release_path', { patterns: ['README.md'], root: file.root }), 'SERVICE_TOKEN_INVALID', /was revoked/);
  } finally {
    client.close();
  }
  await handshakeRefusal(connectRemote(file.remote, token), /was revoked at/);
  const listed = await runCli(['token', 'list', '--json'], { home: file.remote.plane.home, cwd: file.root });
  const entry = (JSON.parse(listed.stdout) as { tokens: { id: string; status: string }[] }).tokens.find((t) => t.id === id);
  assert.equal(entry?.status, 'revoked');
});

test('an expired token is refused: the open connection once its time is up, then any new handshake', async () => {
  const ttlSeconds = 90; // 3 s of real time at the test's time scale
  const { token, id } = await createToken(file.remote, 'RIGEL', 'worker', ttlSeconds);
  const client = await connectRemote(file.remote, token);
  try {
    await client.call('fleet_agent_join', { callsign: 'RIGEL', runtime: 'ci' });
    // Waits on the plane's own answer (no fixed sleep): calls succeed until the expiry, then refuse.
    const expired = (async () => {
      for (;;) {
        try {
          await client.call('fleet_control_get', {});
        } catch (error) {
          return error;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const error = await within(expired, 30_000, `token ${id} expiring`);
    assert.ok(error instanceof PlaneCallError && error.errorName === 'SERVICE_TOKEN_INVALID', String(error));
    assert.match(error.message, new RegExp(`service token ${id} \\(RIGEL\\) expired at`));
  } finally {
    client.close();
  }
  await handshakeRefusal(connectRemote(file.remote, token), /expired at/);
});

test("a remote agent's command never makes the plane read a script file on its own disk, nor say what is there", async () => {
  // A file on the plane's machine, too large to read: a local caller is told so; a remote one hears nothing of it.
  const script = join(file.root, 'plane-side.sh');
  writeFileSync(script, `# ${'x'.repeat(70 * 1024)}\n`);
  const { token } = await createToken(file.remote, 'ALTAIR', 'worker');
  const client = await connectRemote(file.remote, token);
  const local = await file.remote.plane.connect('test-local');
  try {
    await client.call('fleet_agent_join', { callsign: 'ALTAIR', runtime: 'ci' });
    const remote = await client.call('fleet_hook_check_command', { hook: 'claude-pre-tool-use', command: `bash ${script}`, cwd: file.root });
    assert.deepEqual(remote.notes.filter((note) => note.includes('plane-side.sh')), []);
    const near = await local.call('fleet_hook_check_command', { hook: 'claude-pre-tool-use', command: `bash ${script}`, cwd: file.root });
    assert.ok(near.notes.some((note) => /plane-side\.sh is larger than 64 KiB/.test(note)), near.notes.join('\n'));
  } finally {
    client.close();
    local.close();
  }
});
