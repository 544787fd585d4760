import { ConfigError, loadConfig } from '../../plane/config.js';
import { PlaneAlreadyRunningError } from '../../plane/processes/instance-lock.js';
import { startPlane } from '../../plane/plane.js';
import { ServiceTokensFileError } from '../../plane/remote/service-tokens.js';
import { NatsStartError } from '../../store/nats/nats-connect.js';
import { StoreCorruptError } from '../../store/store.js';
import { parseVerbArgs } from '../args.js';
import { EXIT, UsageError } from '../cli-error.js';

const USAGE = 'fleet serve [--home DIR] [--port N] [--store embedded|nats://HOST:PORT[,HOST:PORT…]] [--agent-ttl S] [--edge-ttl S] [--plane-death-ttl S] [--digest-interval S] [--stop-grace S] [--time-scale X] [--digest-webhook URL] [--listen ADDR:PORT --tls-cert FILE --tls-key FILE]';

/** Flags of `fleet serve` and the environment variables they override. */
const flagToEnv = {
  port: 'FLEET_PORT',
  store: 'FLEET_STORE',
  'agent-ttl': 'FLEET_AGENT_TTL',
  'digest-interval': 'FLEET_DIGEST_INTERVAL',
  'stop-grace': 'FLEET_STOP_GRACE',
  'time-scale': 'FLEET_TIME_SCALE',
  'edge-ttl': 'FLEET_EDGE_TTL',
  'plane-death-ttl': 'FLEET_PLANE_DEATH_TTL',
  listen: 'FLEET_LISTEN',
  'tls-cert': 'FLEET_TLS_CERT',
  'tls-key': 'FLEET_TLS_KEY',
  'digest-webhook': 'FLEET_DIGEST_WEBHOOK',
} as const;

export async function serve(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(
    argv,
    Object.fromEntries(Object.keys(flagToEnv).map((flag) => [flag, { type: 'string' }])) as Record<keyof typeof flagToEnv, { type: 'string' }>,
    USAGE,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: home };
  for (const [flag, name] of Object.entries(flagToEnv)) {
    const value = values[flag as keyof typeof flagToEnv];
    if (value !== undefined) env[name] = value;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const log = (message: string) => process.stderr.write(`[${new Date().toISOString()}] ${message}\n`);
  // Signals are handled from the start: one arriving while the plane starts ends it cleanly too.
  let plane: Awaited<ReturnType<typeof startPlane>> | undefined;
  let stopRequested = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopRequested = true;
      void plane?.shutdown();
    });
  }
  try {
    plane = await startPlane(config, log);
  } catch (error) {
    if (error instanceof PlaneAlreadyRunningError) {
      log(error.message);
      return EXIT.refused;
    }
    if (error instanceof ConfigError || error instanceof ServiceTokensFileError || error instanceof NatsStartError) {
      log(`refusing to start: ${error.message}`);
      return EXIT.badInput;
    }
    if (error instanceof StoreCorruptError) {
      log(`refusing to start: ${error.message}`);
      return EXIT.internal;
    }
    throw error;
  }
  if (stopRequested) void plane.shutdown();
  await plane.closed;
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
}
