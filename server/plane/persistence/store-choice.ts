import { FLEET_NAME_PATTERN } from '../../store/nats/nats-names.js';

/** Which store the plane runs on (DESIGN §13): the embedded default, or a NATS JetStream cluster. */
export type StoreChoice =
  | { kind: 'embedded' }
  | { kind: 'nats'; servers: string[]; fleet: string; credsFile?: string; clockSkewBoundMs: number; startTimeoutSeconds: number };

export class StoreChoiceError extends Error {}

const DEFAULT_CLOCK_SKEW_BOUND_S = 2;
/** Machines that boot together: the plane waits this long for its cluster to come up. */
const DEFAULT_START_TIMEOUT_S = 60;
/** Start-up waits at most an hour: a longer wait is a misconfiguration. */
const MAX_START_TIMEOUT_S = 3_600;

/** FLEET_STORE (`embedded`, or `nats://HOST:PORT[,HOST:PORT…]`), FLEET_NAME, FLEET_NATS_CREDS, FLEET_MAX_CLOCK_SKEW, FLEET_NATS_START_TIMEOUT. */
export function storeChoice(env: NodeJS.ProcessEnv): StoreChoice {
  const raw = env.FLEET_STORE ?? '';
  if (raw === '' || raw === 'embedded') return { kind: 'embedded' };
  const servers = raw.split(',').map((s) => s.trim());
  for (const server of servers) {
    let url: URL | undefined;
    try {
      url = new URL(server);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'nats:' || url.hostname === '' || url.pathname.replace('/', '') !== '') {
      throw new StoreChoiceError(`FLEET_STORE=${raw}: "${server}" is not nats://HOST:PORT: give \`embedded\` or a comma-separated list of nats://HOST:PORT URLs`);
    }
  }
  const fleet = env.FLEET_NAME || 'default';
  if (!FLEET_NAME_PATTERN.test(fleet)) throw new StoreChoiceError(`FLEET_NAME=${fleet}: use 1-64 letters, digits, "_" or "-" (it names a JetStream stream and subjects)`);
  const skewRaw = env.FLEET_MAX_CLOCK_SKEW;
  const skew = skewRaw === undefined || skewRaw === '' ? DEFAULT_CLOCK_SKEW_BOUND_S : Number(skewRaw);
  if (!Number.isFinite(skew) || skew <= 0) throw new StoreChoiceError(`FLEET_MAX_CLOCK_SKEW=${skewRaw} is not a positive number of seconds`);
  const startRaw = env.FLEET_NATS_START_TIMEOUT;
  const start = startRaw === undefined || startRaw === '' ? DEFAULT_START_TIMEOUT_S : Number(startRaw);
  if (!Number.isFinite(start) || start <= 0 || start > MAX_START_TIMEOUT_S) {
    throw new StoreChoiceError(`FLEET_NATS_START_TIMEOUT=${startRaw} is not a number of seconds between 0 and ${MAX_START_TIMEOUT_S}: it bounds how long start-up waits for the NATS cluster`);
  }
  return { kind: 'nats', servers, fleet, clockSkewBoundMs: skew * 1000, startTimeoutSeconds: start, ...(env.FLEET_NATS_CREDS && { credsFile: env.FLEET_NATS_CREDS }) };
}
