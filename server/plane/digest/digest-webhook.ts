import type { Digest } from '../../../contracts/index.js';

export interface WebhookLimits {
  /** Each POST is abandoned after this long. */
  timeoutMs: number;
  /** Tries per digest, the first included. */
  attempts: number;
  /** Wait before the second try; doubled for each further one. */
  backoffMs: number;
  /** Deliveries under way at once; a digest published beyond that is dropped (and logged). */
  maxInFlight: number;
}

export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = { timeoutMs: 5_000, attempts: 3, backoffMs: 1_000, maxInFlight: 4 };

/**
 * FLEET_DIGEST_WEBHOOK: each published digest POSTed as JSON to a URL of the operator's choice
 * (the heartbeat goes to where the operator is). Delivery runs beside the plane and never blocks
 * it: bounded by a timeout, a few retries for network faults, 5xx and 429, and a cap on deliveries
 * under way; a failure is logged (with the URL's origin only: webhook URLs often carry a secret).
 */
export class DigestWebhook {
  private inFlight = 0;
  private readonly origin: string;

  constructor(
    private readonly url: URL,
    private readonly log: (message: string) => void,
    private readonly limits: WebhookLimits = DEFAULT_WEBHOOK_LIMITS,
  ) {
    this.origin = url.origin;
  }

  /** Starts delivering; the returned promise (for tests) settles when the delivery is over. */
  send(digest: Digest): Promise<boolean> {
    if (this.inFlight >= this.limits.maxInFlight) {
      this.log(`digest ${digest.toSeq} not sent to FLEET_DIGEST_WEBHOOK (${this.origin}): ${this.inFlight} deliveries still under way`);
      return Promise.resolve(false);
    }
    this.inFlight += 1;
    return this.deliver(digest).finally(() => (this.inFlight -= 1));
  }

  private async deliver(digest: Digest): Promise<boolean> {
    // `kind` tells receivers what this POST is: digests now, other notices (land failures, waits) later.
    const body = JSON.stringify({ kind: 'digest', ...digest });
    let failure = '';
    for (let attempt = 1; attempt <= this.limits.attempts; attempt++) {
      if (attempt > 1) await pause(this.limits.backoffMs * 2 ** (attempt - 2));
      try {
        const response = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'fleet-coordination' },
          body,
          signal: AbortSignal.timeout(this.limits.timeoutMs),
          redirect: 'error',
        });
        await response.body?.cancel();
        if (response.ok) return true;
        failure = `HTTP ${response.status}`;
        if (response.status < 500 && response.status !== 429) break; // the receiver refuses it: asking again will not help
      } catch (error) {
        failure = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.limits.timeoutMs} ms` : errorText(error);
      }
    }
    this.log(`digest ${digest.toSeq} not delivered to FLEET_DIGEST_WEBHOOK (${this.origin}): ${failure}`);
    return false;
  }
}

/** FLEET_DIGEST_WEBHOOK's value: an http(s) URL, or an error message saying what is wrong. */
export function parseWebhookUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `FLEET_DIGEST_WEBHOOK=${raw} is not a URL (e.g. https://hooks.example.com/fleet)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `FLEET_DIGEST_WEBHOOK must be an http:// or https:// URL, not ${url.protocol}`;
  return url;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
