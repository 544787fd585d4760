import { resolve } from 'node:path';
import { DEFAULT_AGENT_TTL_SECONDS, DEFAULT_EDGE_TTL_SECONDS, DEFAULT_PLANE_DEATH_TTL_SECONDS, DEFAULT_PORT } from '../../contracts/index.js';
import { defaultHome } from '../home/default-home.js';
import { parseWebhookUrl } from './digest/digest-webhook.js';
import { storeChoice, StoreChoiceError, type StoreChoice } from './persistence/store-choice.js';

/** Every setting an operator or a test needs, from the environment (flags of `fleet serve` override). */
export interface PlaneConfig {
  home: string;
  /** 0 picks any free port; a taken port falls back to a free one. */
  port: number;
  agentTtlMs: number;
  digestIntervalMs: number;
  stopGraceMs: number;
  /** Tests run the clock faster: 10 makes a 120 s TTL pass in 12 s. */
  timeScale: number;
  /** The agent TTL of tier `edge` (FLEET_EDGE_TTL). */
  edgeTtlMs: number;
  /** On a shared log: how long an agent whose plane went silent is held `stalled` before it expires (FLEET_PLANE_DEATH_TTL). */
  planeDeathTtlMs: number;
  /** `--listen`: the TLS endpoint beyond loopback for remote agents (DESIGN §13), with its certificate and key files. */
  listen?: { host: string; port: number; certFile: string; keyFile: string };
  /** FLEET_DIGEST_WEBHOOK: each published digest is POSTed there as JSON. */
  digestWebhook?: URL;
  store: StoreChoice;
  /** Tests only: milliseconds added to the plane's clock, to show a skewed machine (FLEET_CLOCK_OFFSET). */
  clockOffsetMs: number;
}

export class ConfigError extends Error {}

const MAX_DIGEST_INTERVAL_S = 300;

export { defaultHome };

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name}=${raw} is not a positive number of seconds`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlaneConfig {
  const portRaw = env.FLEET_PORT;
  const port = portRaw === undefined || portRaw === '' ? DEFAULT_PORT : Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`FLEET_PORT=${portRaw} is not a port number (0-65535; 0 means any free port)`);
  const digest = seconds(env, 'FLEET_DIGEST_INTERVAL', MAX_DIGEST_INTERVAL_S);
  if (digest > MAX_DIGEST_INTERVAL_S) throw new ConfigError(`FLEET_DIGEST_INTERVAL=${digest} is above the ${MAX_DIGEST_INTERVAL_S} s maximum: the operator's digest never comes less often`);
  const webhook = env.FLEET_DIGEST_WEBHOOK ? parseWebhookUrl(env.FLEET_DIGEST_WEBHOOK) : undefined;
  if (typeof webhook === 'string') throw new ConfigError(webhook);
  return {
    home: defaultHome(env),
    port,
    agentTtlMs: seconds(env, 'FLEET_AGENT_TTL', DEFAULT_AGENT_TTL_SECONDS) * 1000,
    digestIntervalMs: digest * 1000,
    stopGraceMs: seconds(env, 'FLEET_STOP_GRACE', 30) * 1000,
    timeScale: seconds(env, 'FLEET_TIME_SCALE', 1),
    edgeTtlMs: seconds(env, 'FLEET_EDGE_TTL', DEFAULT_EDGE_TTL_SECONDS) * 1000,
    planeDeathTtlMs: seconds(env, 'FLEET_PLANE_DEATH_TTL', DEFAULT_PLANE_DEATH_TTL_SECONDS) * 1000,
    ...listenConfig(env),
    ...(webhook !== undefined && { digestWebhook: webhook }),
    store: chosenStore(env),
    clockOffsetMs: Number(env.FLEET_CLOCK_OFFSET ?? 0) || 0,
  };
}

function chosenStore(env: NodeJS.ProcessEnv): StoreChoice {
  try {
    return storeChoice(env);
  } catch (error) {
    if (error instanceof StoreChoiceError) throw new ConfigError(error.message);
    throw error;
  }
}

/** FLEET_LISTEN=ADDR:PORT needs FLEET_TLS_CERT and FLEET_TLS_KEY: beyond loopback the plane never speaks without TLS. */
function listenConfig(env: NodeJS.ProcessEnv): Pick<PlaneConfig, 'listen'> {
  const raw = env.FLEET_LISTEN?.trim();
  if (!raw) return {};
  const colon = raw.lastIndexOf(':');
  const host = raw.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = Number(raw.slice(colon + 1));
  if (colon <= 0 || host === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`--listen ${raw} is not ADDR:PORT (e.g. 0.0.0.0:8443, or [::]:8443 for IPv6)`);
  }
  const certFile = env.FLEET_TLS_CERT?.trim();
  const keyFile = env.FLEET_TLS_KEY?.trim();
  if (!certFile || !keyFile) {
    throw new ConfigError(`--listen ${raw} serves beyond loopback, which the plane does only with TLS: pass --tls-cert FILE and --tls-key FILE (PEM; docs/multi-machine.md shows how to make them)`);
  }
  return { listen: { host, port, certFile: resolve(certFile), keyFile: resolve(keyFile) } };
}
