import { FleetError, limits, type ParsedParams } from '../../contracts/index.js';
import { actorName } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { MemoRecord } from './state.js';

export type MemoWrite = ParsedParams<'fleet_agent_memo_write'>;

/** Versioned shared notes; expectedVersion makes a write compare-and-set (0: only if absent). */
export function writeMemo(ctx: Ctx, caller: Caller, req: MemoWrite): { written: boolean; memo: MemoRecord | undefined } {
  const current = ctx.state.memos.get(req.key);
  const version = current?.version ?? 0;
  if (req.expectedVersion !== undefined && req.expectedVersion !== version) return { written: false, memo: current };
  const writer = actorName(ctx.state, caller);
  if (!current) assertRoomForNewMemo(ctx, writer, req.key);
  ctx.emit({ type: 'memo.written', by: writer, key: req.key, value: req.value ?? null, version: version + 1 });
  return { written: true, memo: ctx.state.memos.get(req.key) };
}

/**
 * Counts are checked when a key is created, never on replay (the reducer applies what the log
 * holds) and never on a rewrite, so a fleet at its limit can still update what it has.
 */
function assertRoomForNewMemo(ctx: Ctx, writer: string, key: string): void {
  const memos = [...ctx.state.memos.values()];
  const { memosPerFleet, memosPerWriter } = limits;
  if (memos.length >= memosPerFleet.max) {
    throw new FleetError('LIMIT_REACHED', `memo ${key}: the fleet holds ${memos.length} memos, its limit of ${memosPerFleet.max} (docs/limits.md): rewrite an existing key instead of adding one`, { limit: 'memosPerFleet', max: memosPerFleet.max });
  }
  const own = memos.filter((memo) => memo.updatedBy === writer).length;
  if (own >= memosPerWriter.max) {
    throw new FleetError('LIMIT_REACHED', `memo ${key}: ${writer} last wrote ${own} memos, the limit of ${memosPerWriter.max} per writer (docs/limits.md): rewrite one of your keys instead of adding one`, { limit: 'memosPerWriter', max: memosPerWriter.max });
  }
}

export function readMemos(ctx: Ctx, query: { key?: string; prefix?: string }): MemoRecord[] {
  if (query.key !== undefined) {
    const memo = ctx.state.memos.get(query.key);
    return memo ? [memo] : [];
  }
  const prefix = query.prefix ?? '';
  return [...ctx.state.memos.values()].filter((m) => m.key.startsWith(prefix)).sort((a, b) => a.key.localeCompare(b.key));
}
