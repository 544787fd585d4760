import { readFile } from 'node:fs/promises';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Dispatch } from '../../transport/connection.js';
import { RemoteListener } from '../../transport/remote-listener.js';
import type { ThrottledLog } from '../../transport/throttled-log.js';
import type { WsEndpoint } from '../../transport/ws-endpoint.js';
import { ConfigError, type PlaneConfig } from '../config.js';
import type { ServiceTokens } from './service-tokens.js';

/** The running `--listen` door: its port, and how the plane's shutdown ends it. */
export interface RemoteDoor {
  port: number;
  stopAccepting(): void;
  close(): Promise<void>;
}

/** Reads the certificate and key: a missing file or a key that does not fit the certificate refuses start-up, naming them. */
export async function loadTlsIdentity(listen: NonNullable<PlaneConfig['listen']>): Promise<SecureContext> {
  const read = async (file: string, what: string) => {
    try {
      return await readFile(file);
    } catch (error) {
      throw new ConfigError(`cannot read the TLS ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}): --tls-cert and --tls-key name PEM files`);
    }
  };
  const [cert, key] = [await read(listen.certFile, 'certificate'), await read(listen.keyFile, 'key')];
  try {
    return createSecureContext({ cert, key, minVersion: 'TLSv1.2' });
  } catch (error) {
    throw new ConfigError(`the TLS certificate ${listen.certFile} and key ${listen.keyFile} cannot serve (${(error as Error).message}): pass a PEM certificate and its own private key`);
  }
}

/** Opens the TLS listener: WebSocket JSON-RPC into the endpoint, MCP at /mcp, service tokens only. */
export async function openRemoteDoor(
  listen: NonNullable<PlaneConfig['listen']>,
  secureContext: SecureContext,
  endpoint: WsEndpoint,
  tokens: ServiceTokens,
  dispatch: Dispatch,
  edgeTtlSeconds: number,
  notices: ThrottledLog,
  log: (message: string) => void,
): Promise<RemoteDoor> {
  // The MCP SDK's server side loads only for a plane that listens: every other start stays as quick as before.
  const { HttpMcpService } = await import('../../mcp/http-mcp.js');
  const mcp = new HttpMcpService(dispatch, edgeTtlSeconds, log);
  const listener = new RemoteListener(
    endpoint,
    { host: listen.host, port: listen.port, secureContext, authenticate: (bearer) => tokens.authenticate(bearer), mcp: (request, response, credential) => mcp.handle(request, response, credential), log },
    notices,
  );
  let port;
  try {
    port = await listener.listen();
  } catch (error) {
    throw new ConfigError(`cannot listen on ${listen.host}:${listen.port} (${(error as Error).message}): pick an address of this machine and a free port for --listen`);
  }
  return {
    port,
    stopAccepting: () => listener.stopAccepting(),
    close: async () => {
      await mcp.close();
      await listener.close();
    },
  };
}
