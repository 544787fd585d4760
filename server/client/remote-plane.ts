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

/** Certificate failures a private CA or a wrong name causes (node's TLS error codes). */
const UNTRUSTED = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/** A failure to reach a remote plane, said with what to check. */
export function explainRemoteFailure(remote: RemotePlane, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code !== undefined && UNTRUSTED.has(code)) {
    return new RemotePlaneError(`${remote.url} presented a certificate this machine does not trust (${message}): set FLEET_CA to the PEM file of the CA that signed it, and dial a name the certificate was made for`);
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') {
    return new RemotePlaneError(`nothing answers at FLEET_URL ${remote.url} (${message}): is a plane serving --listen there, and is the port open to this machine?`);
  }
  return error;
}
