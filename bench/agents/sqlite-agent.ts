// Baseline (a), the "kernel database" design: every agent process opens one shared SQLite file and
// reserves with BEGIN IMMEDIATE (the write lock up front), reads the live claims of the scope,
// checks overlap, inserts and bumps the scope's fence, and commits with synchronous=FULL. WAL mode,
// the faster of SQLite's journals for this; the busy timeout is SQLite's own backoff.
import Database, { type Db, type Statement } from 'better-sqlite3';
import { overlaps } from '../../server/core/glob/index.js';
import { PatternCache, type ClaimSystem, type Grant } from './claim-system.js';

const SCOPE = 'repo';
const BUSY_TIMEOUT_MS = 30_000;

/** Creates the shared database once, before the agents open it. */
export function createSqliteBaseline(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE claims (
      id INTEGER PRIMARY KEY,
      scope TEXT NOT NULL,
      pattern TEXT NOT NULL,
      holder TEXT NOT NULL,
      mode TEXT NOT NULL,
      fence INTEGER NOT NULL,
      claimed_at INTEGER NOT NULL
    );
    CREATE INDEX claims_by_scope ON claims (scope);
    CREATE TABLE fences (scope TEXT PRIMARY KEY, fence INTEGER NOT NULL);
  `);
  db.close();
}

interface HeldRow {
  pattern: string;
  holder: string;
  mode: string;
}

export class SqliteAgent implements ClaimSystem {
  readonly synchronous = true;
  private readonly db: Db;
  private readonly patterns = new PatternCache();
  private readonly reserve: (pattern: string) => Grant;
  private readonly remove: Statement;
  private commits = 0;

  constructor(path: string, private readonly holder: string) {
    this.db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    const held = this.db.prepare<HeldRow>('SELECT pattern, holder, mode FROM claims WHERE scope = ?');
    const bump = this.db.prepare<{ fence: number }>(
      'INSERT INTO fences (scope, fence) VALUES (?, 1) ON CONFLICT (scope) DO UPDATE SET fence = fence + 1 RETURNING fence',
    );
    const insert = this.db.prepare('INSERT INTO claims (scope, pattern, holder, mode, fence, claimed_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.remove = this.db.prepare('DELETE FROM claims WHERE id = ? AND holder = ?');
    const transaction = this.db.transaction((pattern: string): Grant => {
      const wanted = this.patterns.get(pattern);
      for (const row of held.all(SCOPE)) {
        if (row.holder !== this.holder && overlaps(this.patterns.get(row.pattern), wanted)) return { granted: false };
      }
      const { fence } = bump.get(SCOPE)!;
      const { lastInsertRowid } = insert.run(SCOPE, pattern, this.holder, 'exclusive', fence, Date.now());
      this.commits++;
      return { granted: true, id: String(lastInsertRowid) };
    });
    this.reserve = (pattern) => transaction.immediate(pattern);
  }

  /** One WAL fsync per committed write transaction under synchronous=FULL (checkpoints add more). */
  get fsyncs(): number {
    return this.commits;
  }

  claim(pattern: string): Grant {
    return this.reserve(pattern);
  }

  release(id: string): void {
    this.remove.run(Number(id), this.holder);
    this.commits++;
  }

  close(): void {
    this.db.close();
  }
}
