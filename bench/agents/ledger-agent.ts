// Baseline (b), the "filesystem ledger" design: one JSON file holds every claim; each agent process
// takes a lock file (created with O_EXCL), reads the whole ledger, checks overlap, writes it back
// atomically and durably (temp file, fdatasync, rename), then removes the lock. A lock older than
// STALE_MS is presumed left by a dead agent and broken, as lock-file libraries do.
import { closeSync, fdatasyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { overlaps } from '../../server/core/glob/index.js';
import { PatternCache, type ClaimSystem, type Grant } from './claim-system.js';

const STALE_MS = 10_000;

interface LedgerClaim {
  id: string;
  holder: string;
  pattern: string;
  mode: 'exclusive' | 'shared';
  fence: number;
  claimedAt: string;
}

interface Ledger {
  fence: number;
  claims: LedgerClaim[];
}

export function createLedgerBaseline(path: string): void {
  writeDurably(path, { fence: 0, claims: [] });
}

function writeDurably(path: string, ledger: Ledger): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(ledger, null, 2));
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class LedgerAgent implements ClaimSystem {
  private readonly patterns = new PatternCache();
  private readonly lockPath: string;
  private writes = 0;
  private nextId = 0;

  /**
   * `locking: false` is the control run of the suite's double-grant detector: the same ledger with
   * its lock left out must show double grants, or the detector could not see them anywhere.
   */
  constructor(
    private readonly path: string,
    private readonly holder: string,
    private readonly locking = true,
  ) {
    this.lockPath = `${path}.lock`;
  }

  get fsyncs(): number {
    return this.writes;
  }

  claim(pattern: string): Promise<Grant> {
    return this.underLock(() => {
      const ledger = this.read();
      const wanted = this.patterns.get(pattern);
      for (const held of ledger.claims) {
        if (held.holder !== this.holder && overlaps(this.patterns.get(held.pattern), wanted)) return { granted: false };
      }
      const id = `${this.holder}-${this.nextId++}`;
      ledger.fence++;
      ledger.claims.push({ id, holder: this.holder, pattern, mode: 'exclusive', fence: ledger.fence, claimedAt: new Date().toISOString() });
      this.write(ledger);
      return { granted: true, id };
    });
  }

  async release(id: string): Promise<void> {
    await this.underLock(() => {
      const ledger = this.read();
      ledger.claims = ledger.claims.filter((claim) => claim.id !== id);
      this.write(ledger);
    });
  }

  close(): void {}

  private read(): Ledger {
    return JSON.parse(readFileSync(this.path, 'utf8')) as Ledger;
  }

  private write(ledger: Ledger): void {
    writeDurably(this.path, ledger);
    this.writes++;
  }

  private async underLock<T>(work: () => T): Promise<T> {
    if (!this.locking) {
      await new Promise((resolve) => setImmediate(resolve));
      return work();
    }
    await this.lock();
    try {
      return work();
    } finally {
      unlinkSync(this.lockPath);
    }
  }

  // Polls with a short jittered backoff (1-3 ms, capped at 8 ms): fast enough not to handicap the
  // baseline, without 32 processes spinning on two cores.
  private async lock(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(this.lockPath, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      this.breakIfStale();
      await sleep(Math.min(8, 1 + Math.floor(Math.random() * 3) * (1 + Math.min(attempt, 3))));
    }
  }

  private breakIfStale(): void {
    try {
      if (Date.now() - statSync(this.lockPath).mtimeMs > STALE_MS) unlinkSync(this.lockPath);
    } catch {
      // gone meanwhile: the next attempt takes it
    }
  }
}
