import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Digest, FleetEvent } from '../../../contracts/index.js';
import { buildDigest } from '../../core/digest.js';
import { renderDigestMarkdown } from '../../core/digest-markdown.js';
import type { Clock } from '../../core/clock.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { writeFileDurably } from '../../store/durable-write.js';
import type { HomePaths } from '../../home/paths.js';
import type { DigestWebhook } from './digest-webhook.js';
import type { Journal } from '../persistence/journal.js';

export interface DigestOutput {
  digest: Digest;
  markdown: string;
}

/** A window of the event log: from a sequence number on, or the last seconds of plane time. */
export type DigestWindow = { seq: number } | { seconds: number };

/**
 * The heartbeat digest for the operator: built from the event log since the last published one,
 * published every interval (FLEET_DIGEST_INTERVAL, at most 5 minutes) and on demand, as
 * FLEET_HOME/digest.md plus a history under FLEET_HOME/digests/.
 */
export class DigestPublisher {
  private timer: NodeJS.Timeout | undefined;
  private publishing: Promise<DigestOutput> | undefined;

  constructor(
    private readonly core: FleetCore,
    private readonly journal: Journal,
    private readonly history: (fromSeq: number) => AsyncIterable<FleetEvent>,
    private readonly paths: HomePaths,
    private readonly log: (message: string) => void,
    private readonly clock: Clock,
    private readonly webhook?: DigestWebhook,
  ) {}

  start(intervalRealMs: number): void {
    this.timer = setInterval(() => void this.publish().catch((error: Error) => this.log(`digest not published: ${error.message}`)), intervalRealMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Since the last published digest. */
  current(): Promise<DigestOutput> {
    return this.over({ seq: this.core.state.lastDigestSeq + 1 });
  }

  /** The digest of any window the operator names (`fleet digest --since`); the baseline stays. */
  async over(since: DigestWindow): Promise<DigestOutput> {
    await this.journal.whenDurable(this.core.state.seq);
    const toSeq = this.journal.lastDurableSeq;
    const cutoff = 'seconds' in since ? this.clock.now() - since.seconds * 1000 : undefined;
    let fromSeq = 'seq' in since ? since.seq : toSeq + 1;
    const window: FleetEvent[] = [];
    for await (const event of this.history('seq' in since ? since.seq : 1)) {
      if (event.seq > toSeq) break;
      if (cutoff !== undefined && event.at < cutoff) continue;
      fromSeq = Math.min(fromSeq, event.seq);
      if (event.type !== 'digest.published') window.push(event);
    }
    const digest = buildDigest(window, this.core.state, this.core.indexes, fromSeq);
    digest.toSeq = toSeq;
    return { digest, markdown: renderDigestMarkdown(digest) };
  }

  /** One at a time: a publish asked for while one runs shares its result. */
  publish(): Promise<DigestOutput> {
    this.publishing ??= this.publishNow().finally(() => (this.publishing = undefined));
    return this.publishing;
  }

  private async publishNow(): Promise<DigestOutput> {
    const output = await this.current();
    const historyDir = join(this.paths.home, 'digests');
    await mkdir(historyDir, { recursive: true, mode: 0o700 });
    const stem = String(output.digest.toSeq).padStart(12, '0');
    await writeFileDurably(join(historyDir, `${stem}.json`), JSON.stringify(output.digest, null, 1));
    await writeFileDurably(join(historyDir, `${stem}.md`), output.markdown);
    await writeFileDurably(join(this.paths.home, 'digest.md'), output.markdown);
    this.core.run(undefined, (ctx) => ctx.emit({ type: 'digest.published', by: 'plane', fromSeq: output.digest.fromSeq, toSeq: output.digest.toSeq }));
    void this.webhook?.send(output.digest);
    return output;
  }
}
