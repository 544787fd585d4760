import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '../../contracts/index.js';
import { after, before } from 'node:test';
import { PlaneClient } from '../../server/client/plane-client.js';
import { makeRepo } from './git-repo.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from './plane-process.js';

/** A throwaway CA and a server certificate it signed, for 127.0.0.1 and localhost (made with openssl, as an operator would). */
export interface TestCa {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  ca: Buffer;
}

export function makeTestCa(): TestCa {
  const dir = tempHome('fleet-tls-');
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=fleet test CA');
  openssl('req', ...ec, '-keyout', 'plane.key', '-out', 'plane.csr', '-subj', '/CN=localhost');
  writeFileSync(file('san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', 'plane.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'plane.pem', '-days', '2', '-extfile', 'san.cnf');
  return { dir, caFile: file('ca.pem'), certFile: file('plane.pem'), keyFile: file('plane.key'), ca: readFileSync(file('ca.pem')) };
}

/** A real plane serving `--listen 127.0.0.1:0` with the test CA's certificate. */
export interface RemotePlane {
  plane: PlaneProcess;
  tls: TestCa;
  listenPort: number;
  /** wss://localhost:PORT/ (the certificate names localhost and 127.0.0.1). */
  url: string;
  mcpUrl: string;
}

export async function startRemotePlane(env: NodeJS.ProcessEnv = {}): Promise<RemotePlane> {
  const tls = makeTestCa();
  const plane = await startPlaneProcess({ env: { FLEET_LISTEN: '127.0.0.1:0', FLEET_TLS_CERT: tls.certFile, FLEET_TLS_KEY: tls.keyFile, ...env } });
  const discovery = JSON.parse(readFileSync(join(plane.home, 'plane.json'), 'utf8')) as { listen: { port: number } };
  const listenPort = discovery.listen.port;
  return { plane, tls, listenPort, url: `wss://localhost:${listenPort}/`, mcpUrl: `https://localhost:${listenPort}/mcp` };
}

/** The operator creates a service token; returns the token (shown once) and its id. */
export async function createToken(remote: RemotePlane, callsign: string, role: Exclude<Role, 'operator'> = 'worker', ttlSeconds?: number): Promise<{ token: string; id: string }> {
  const operator = await remote.plane.connectAsOperator();
  try {
    const created = await operator.call('fleet_token_create', { callsign, role, ...(ttlSeconds !== undefined && { ttlSeconds }) });
    return { token: created.token, id: created.info.id };
  } finally {
    operator.close();
  }
}

/** A remote agent's connection over the listener, trusting the test CA. */
export function connectRemote(remote: RemotePlane, token: string): Promise<PlaneClient> {
  return PlaneClient.connectRemote({ url: remote.url, token, ca: remote.tls.ca }, 'remote-test');
}

/** Stops the plane and removes its home and its certificates. */
export async function stopRemotePlane(remote: RemotePlane): Promise<void> {
  await remote.plane.stop();
  removeHome(remote.plane.home);
  removeHome(remote.tls.dir);
}

/** One listening plane and one repository for a whole test file, started before its tests and removed after them. */
export function remotePlaneForFile(env: NodeJS.ProcessEnv = {}): { readonly remote: RemotePlane; readonly root: string } {
  const fixture = {} as { remote: RemotePlane; root: string };
  before(async () => {
    fixture.root = makeRepo();
    fixture.remote = await startRemotePlane(env);
  });
  after(async () => {
    await stopRemotePlane(fixture.remote);
    removeHome(fixture.root);
  });
  return fixture;
}
