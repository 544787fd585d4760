import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Digest, FleetEvent } from '../../contracts/index.js';
import { buildDigest } from '../core/digest.js';
import { renderDigestMarkdown } from '../core/digest-markdown.js';
import type { FleetCore } from '../core/fleet-core.js';
import { writeFileDurably } from '../store/durable-write.js';
import type { HomePaths } from '../home/paths.js';
import type { Journal } from './journal.js';

export interface DigestOutput {
  digest: Digest;
  markdown: string;
}

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
  ) {}

  start(intervalRealMs: number): void {
    this.timer = setInterval(() => void this.publish().catch((error: Error) => this.log(`digest not published: ${error.message}`)), intervalRealMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async current(): Promise<DigestOutput> {
    await this.journal.whenDurable(this.core.state.seq);
    const fromSeq = this.core.state.lastDigestSeq + 1;
    const toSeq = this.journal.lastDurableSeq;
    const window: FleetEvent[] = [];
    for await (const event of this.history(fromSeq)) {
      if (event.seq > toSeq) break;
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
    return output;
  }
}
