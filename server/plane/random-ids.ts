import { randomBytes } from 'node:crypto';
import type { IdSource } from '../core/clock.js';

export const randomIds: IdSource = {
  id: (prefix) => `${prefix}_${randomBytes(9).toString('base64url')}`,
  token: () => randomBytes(32).toString('base64url'),
};
