import { NatsStartError } from './nats-connect.js';

/** Between two attempts while the cluster forms; short, as a forming cluster answers within seconds. */
const RETRY_PAUSE_MS = 500;
/** A step that has not succeeded after this is logged as a wait, then every PROGRESS_EVERY_MS: a long wait shows progress without flooding the log. */
const FIRST_PROGRESS_MS = 1_000;
const PROGRESS_EVERY_MS = 5_000;

/**
 * Start-up's bounded patience with a cluster that is still coming up (machines that boot
 * together): a step is retried while the servers are unreachable, JetStream is not enabled yet
 * or times out, or another plane is creating the same stream, and the wait is logged. A
 * NatsStartError (refused credentials, a stream of another format) is final at once; so is the
 * step's last failure once the budget is spent, worded by the caller with what to check.
 */
export class StartBudget {
  readonly #deadline: number;
  readonly #startedAt = Date.now();

  constructor(
    readonly seconds: number,
    private readonly log: (message: string) => void,
  ) {
    this.#deadline = this.#startedAt + seconds * 1000;
  }

  /** Seconds spent waiting so far. */
  get elapsedSeconds(): number {
    return (Date.now() - this.#startedAt) / 1000;
  }

  async retry<T>(waitingFor: string, step: () => Promise<T>, giveUp: (last: Error) => NatsStartError): Promise<T> {
    let last: Error | undefined;
    const progress = () => this.log(`store: waiting for ${waitingFor}${last ? ` (${last.message})` : ''}: ${Math.round(this.elapsedSeconds)} s of at most ${this.seconds} s`);
    let timer = setTimeout(function tick(this: void) {
      progress();
      timer = setTimeout(tick, PROGRESS_EVERY_MS);
    }, FIRST_PROGRESS_MS);
    try {
      for (;;) {
        try {
          return await step();
        } catch (error) {
          if (error instanceof NatsStartError) throw error;
          last = error as Error;
          if (Date.now() >= this.#deadline) throw giveUp(last);
          await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_PAUSE_MS, Math.max(0, this.#deadline - Date.now()))));
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
