import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_AGENT_TTL_SECONDS, DEFAULT_PORT, fleetHome } from '../../contracts/index.js';
import { storeChoice, StoreChoiceError, type StoreChoice } from './store-choice.js';

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
  store: StoreChoice;
  /** Tests only: milliseconds added to the plane's clock, to show a skewed machine (FLEET_CLOCK_OFFSET). */
  clockOffsetMs: number;
}

export class ConfigError extends Error {}

const MAX_DIGEST_INTERVAL_S = 300;

export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(fleetHome(env.FLEET_HOME, homedir()));
}

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
  return {
    home: defaultHome(env),
    port,
    agentTtlMs: seconds(env, 'FLEET_AGENT_TTL', DEFAULT_AGENT_TTL_SECONDS) * 1000,
    digestIntervalMs: digest * 1000,
    stopGraceMs: seconds(env, 'FLEET_STOP_GRACE', 30) * 1000,
    timeScale: seconds(env, 'FLEET_TIME_SCALE', 1),
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
