import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Credential } from '../core/context.js';
import { homePaths } from '../home/paths.js';
import { isAlive } from '../plane/processes/process-identity.js';
import { HandshakeRefusedError, PlaneClient } from './plane-client.js';
import { explainRemoteFailure, remotePlane, RemotePlaneError } from './remote-plane.js';

const discoverySchema = z.object({ port: z.number().int(), socket: z.string().optional(), pid: z.number().int(), version: z.string() });
export type Discovery = z.infer<typeof discoverySchema>;

const START_TIMEOUT_MS = 15_000;
const POLL_MS = 25;
/** A running plane at its connection limit gets this long to free a place before the client gives up, saying why. */
const FULL_PLANE_WAIT_MS = 2_000;

/** The running plane of a home, from plane.json and the token file, if its process is alive. */
export function readDiscovery(home: string): { discovery: Discovery; token: string } | undefined {
  const paths = homePaths(home);
  try {
    const discovery = discoverySchema.parse(JSON.parse(readFileSync(paths.discovery, 'utf8')));
    if (!isAlive(discovery.pid)) return undefined;
    return { discovery, token: readFileSync(paths.token, 'utf8').trim() };
  } catch {
    return undefined;
  }
}

export interface ConnectOptions {
  home: string;
  client: string;
  /**
   * What to present: the plane token (the default: agents, hooks, the MCP bridge, plain reads) or
   * the operator credential, which only the person's tools use.
   */
  credential?: Credential;
  /** Start a plane when none is running (the default for every client). */
  autoStart?: boolean;
  /** Extra environment for a plane this call starts (FLEET_PORT, FLEET_AGENT_TTL…). */
  env?: NodeJS.ProcessEnv;
  /** The script whose `serve` verb starts a plane; bundles (the extension) pass their own. */
  cliEntry?: string;
}

/**
 * Connects to the home's plane, starting one that outlives this process when none runs — or, with
 * FLEET_URL set, to a plane on another machine with the service token in FLEET_TOKEN.
 */
export async function connectToPlane(options: ConnectOptions): Promise<PlaneClient> {
  const remote = remotePlane();
  if (remote) {
    if (options.credential === 'operator') {
      throw new RemotePlaneError('this verb acts as the operator, who is never remote: run it at the plane\'s machine (FLEET_URL is set, and a service token never acts as the operator)');
    }
    return PlaneClient.connectRemote(remote, options.client).catch((error: unknown) => {
      throw explainRemoteFailure(remote, error);
    });
  }
  let existing = await tryConnect(options);
  // A live plane refusing for want of room: starting another would only lose the lock race.
  if (existing instanceof HandshakeRefusedError && existing.status === 503) existing = await waitForRoom(options, existing);
  if (existing instanceof PlaneClient) return existing;
  if (options.autoStart === false) throw new NoPlaneError(options.home);
  const child = startDetachedPlane(options.home, options.env, options.cliEntry ?? fileURLToPath(new URL('../cli/main.js', import.meta.url)));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const client = await tryConnect(options);
    if (client instanceof PlaneClient) {
      // Another starter won the race: ours must not boot later and take a home nobody asked for.
      if (readDiscovery(options.home)?.discovery.pid !== child.pid && child.exitCode === null) child.kill('SIGTERM');
      return client;
    }
    // A second starter loses the lock race and exits; the winner's plane.json appears shortly.
    if (child.exitCode !== null && child.exitCode !== 0 && !readDiscovery(options.home)) break;
  }
  throw new Error(`no plane came up on FLEET_HOME ${options.home} within ${START_TIMEOUT_MS / 1000} s: see ${homePaths(options.home).log}`);
}

/** The running plane's connection; its refusal, or nothing, when it is not (yet) taking this client. */
async function tryConnect({ home, client, credential }: ConnectOptions): Promise<PlaneClient | HandshakeRefusedError | undefined> {
  const found = readDiscovery(home);
  if (!found) return undefined;
  try {
    const secret = credential === 'operator' ? readOperatorToken(home) : found.token;
    return await PlaneClient.connect(found.discovery, secret, client);
  } catch (error) {
    // A plane that is starting or stopping can refuse for a moment (stale token, closed port).
    if (error instanceof HandshakeRefusedError) return error;
    if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') return undefined;
    throw error;
  }
}

/**
 * Retries a full plane briefly (a client may close meanwhile), then fails with the plane's own
 * reason; nothing when the plane went away meanwhile (the caller may start one).
 */
async function waitForRoom(options: ConnectOptions, refusal: HandshakeRefusedError): Promise<PlaneClient | undefined> {
  const deadline = Date.now() + FULL_PLANE_WAIT_MS;
  let last = refusal;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 4));
    const attempt = await tryConnect(options);
    if (!(attempt instanceof HandshakeRefusedError)) return attempt;
    last = attempt;
  }
  throw new Error(`the plane on FLEET_HOME ${options.home} has no room for this client: ${last.reason}`);
}

/** Only the person's account can read it (0600): an operator verb run elsewhere fails here, saying why. */
function readOperatorToken(home: string): string {
  const path = homePaths(home).operatorToken;
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new Error(`cannot read the operator credential ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}): operator verbs run as the user who started the plane; a plane started before operator credentials existed needs \`fleet shutdown\` and a restart`);
  }
}

function startDetachedPlane(home: string, env: NodeJS.ProcessEnv | undefined, cli: string) {
  const paths = homePaths(home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const logFd = openSync(paths.log, 'a', 0o600);
  const child = spawn(process.execPath, [cli, 'serve', '--home', home], {
    // detached = setsid(): the plane leads a session of its own, so no client is its ancestor
    // (it outlives the window that started it, and a signal to a client's group never reaches it).
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, ...env, FLEET_HOME: home },
  });
  child.unref();
  return child;
}

export class NoPlaneError extends Error {
  constructor(home: string) {
    super(`no plane is running on FLEET_HOME ${home}: start one with \`fleet serve\``);
  }
}
