import { randomBytes } from 'node:crypto';
import type { IdSource } from '../core/clock.js';

// randomBytes costs microseconds per call whatever the size, and every claim takes an id: ids
// draw from a pool refilled 4 KB at a time (as crypto.randomUUID does), tokens stay fresh calls.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function pooledRandomBytes(size: number): Buffer {
  if (used + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}

export const randomIds: IdSource = {
  id: (prefix) => `${prefix}_${pooledRandomBytes(9).toString('base64url')}`,
  token: () => randomBytes(32).toString('base64url'),
};
