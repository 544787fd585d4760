import { actorName } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { MemoRecord } from './state.js';

export interface MemoWrite {
  key: string;
  value: unknown;
  expectedVersion?: number;
}

/** Versioned shared notes; expectedVersion makes a write compare-and-set (0: only if absent). */
export function writeMemo(ctx: Ctx, caller: Caller, req: MemoWrite): { written: boolean; memo: MemoRecord | undefined } {
  const current = ctx.state.memos.get(req.key);
  const version = current?.version ?? 0;
  if (req.expectedVersion !== undefined && req.expectedVersion !== version) return { written: false, memo: current };
  ctx.emit({ type: 'memo.written', by: actorName(ctx.state, caller), key: req.key, value: req.value ?? null, version: version + 1 });
  return { written: true, memo: ctx.state.memos.get(req.key) };
}

export function readMemos(ctx: Ctx, query: { key?: string; prefix?: string }): MemoRecord[] {
  if (query.key !== undefined) {
    const memo = ctx.state.memos.get(query.key);
    return memo ? [memo] : [];
  }
  const prefix = query.prefix ?? '';
  return [...ctx.state.memos.values()].filter((m) => m.key.startsWith(prefix)).sort((a, b) => a.key.localeCompare(b.key));
}
