import { readFileSync } from 'node:fs';

/** A plane on another machine, reached over its `--listen` TLS endpoint with a service token (DESIGN §13). */
export interface RemotePlane {
  url: string;
  token: string;
  /** The CA that signed the plane's certificate (FLEET_CA), when the system's trust store does not know it. */
  ca?: Buffer;
}

/** Remote settings that cannot work: bad input, said with what to set instead. */
export class RemotePlaneError extends Error {}

/**
 * FLEET_URL (wss://HOST:PORT/, or https://… for the same listener), FLEET_TOKEN and FLEET_CA, if
 * FLEET_URL is set. Plain ws:// or http:// is refused here already: the listener speaks TLS only.
 */
export function remotePlane(env: NodeJS.ProcessEnv = process.env): RemotePlane | undefined {
  const raw = env.FLEET_URL?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemotePlaneError(`FLEET_URL=${raw} is not a URL: set it to the plane's listener, wss://HOST:PORT/`);
  }
  if (url.protocol !== 'wss:' && url.protocol !== 'https:') {
    throw new RemotePlaneError(`FLEET_URL=${raw}: a remote plane is reached over TLS only (wss://HOST:PORT/), never ${url.protocol.replace(':', '')}`);
  }
  url.protocol = 'wss:';
  url.pathname = '/';
  const token = env.FLEET_TOKEN?.trim();
  if (!token) throw new RemotePlaneError('FLEET_URL is set but FLEET_TOKEN is not: set it to the service token the operator created for this agent (`fleet token create --callsign X --role R`)');
  const caFile = env.FLEET_CA?.trim();
  if (!caFile) return { url: url.href, token };
  try {
    return { url: url.href, token, ca: readFileSync(caFile) };
  } catch (error) {
    throw new RemotePlaneError(`cannot read FLEET_CA ${caFile} (${(error as NodeJS.ErrnoException).code ?? String(error)}): set it to the PEM file of the CA that signed the plane's certificate`);
  }
}
