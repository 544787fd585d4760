// Shared by the store's unit tests and its kill -9 test: small schemas shaped like the plane's
// events, and a throwaway store folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { EmbeddedStore } from '../../server/store/embedded-store.js';
import { snapshotChecksum } from '../../server/store/snapshot-file.js';
import type { Recovered } from '../../server/store/store.js';

export const testEventSchema = z.object({
  seq: z.number().int().positive(),
  at: z.number(),
  type: z.string(),
  note: z.string().optional(),
});
export type TestEvent = z.infer<typeof testEventSchema>;

/** The state a test plane folds its events into: how many it has applied. */
export const testSnapshotSchema = z.object({ count: z.number().int().nonnegative() });
export type TestSnapshot = z.infer<typeof testSnapshotSchema>;

export type TestStore = EmbeddedStore<TestSnapshot, TestEvent>;

export function createTestStore(dir: string): TestStore {
  return new EmbeddedStore({ dir, snapshotSchema: testSnapshotSchema, eventSchema: testEventSchema });
}

/** Opens the store in `dir` as the plane would at startup, and closes it again. */
export async function recover(dir: string): Promise<Recovered<TestSnapshot, TestEvent>> {
  const store = createTestStore(dir);
  try {
    return await store.open();
  } finally {
    await store.close();
  }
}

/** A snapshot file's text as compaction writes it: the record and its checksum. */
export function snapshotText(seq: number, state: unknown): string {
  return `${JSON.stringify({ seq, state, sha256: snapshotChecksum(seq, state) })}\n`;
}

export function testEvents(from: number, to: number): TestEvent[] {
  const events: TestEvent[] = [];
  for (let seq = from; seq <= to; seq++) events.push({ seq, at: 1_700_000_000_000 + seq, type: 'tick' });
  return events;
}

export async function withTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'fleet-store-'));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
