import { z } from 'zod';
import { awaitingLandingSchema, forecastFields, MAX_NOT_COMPARED_CHARS, MAX_WRITE_SET_PATHS_LISTED, writeSetFields, type FleetEvent, type ForecastConflict, type WriteSet } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { State } from './state.js';

/**
 * An agent's write-set as the state keeps it (DESIGN §14), by agent id; `notCompared` from the
 * integrator's `integration.reach`; `awaitingLanding` while its agent is gone and items it built
 * await landing (write-set-awaiting-landing.ts; its items empty for the instant before it ends).
 */
export const writeSetRecordSchema = z.object({
  ...writeSetFields,
  notCompared: z.string().optional(),
  awaitingLanding: awaitingLandingSchema.extend({ items: z.array(z.string()) }).optional(),
  at: z.number(),
});
export type WriteSetRecord = z.infer<typeof writeSetRecordSchema>;

/** A conflict forecast between an agent and another (or the target, without otherAgentId), by pair key. */
export const forecastRecordSchema = z.object({ key: z.string(), ...forecastFields, at: z.number() });
export type ForecastRecord = z.infer<typeof forecastRecordSchema>;

type ForecastEvent = Extract<FleetEvent, { type: `integration.${'write_set' | 'forecast' | 'reach'}` }>;

/** One key per pair whichever side's change found it, so found and cleared name the same forecast. */
export function forecastKey(agentId: string, otherAgentId: string | undefined): string {
  return otherAgentId === undefined ? `${agentId} target` : [agentId, otherAgentId].sort().join(' ');
}

export function applyForecastEvent(state: State, event: ForecastEvent): void {
  if (event.type === 'integration.reach') {
    const record = state.writeSets.get(event.agentId);
    // A reach names the snapshot it judged: a newer write-set has not been judged yet.
    if (record?.commit === event.commit) state.writeSets.set(event.agentId, { ...withoutNote(record), ...(event.notCompared !== undefined && { notCompared: event.notCompared }) });
    return;
  }
  if (event.type === 'integration.write_set') {
    // The record's schema keeps its own fields of the event (at included) and drops the rest.
    if (event.ended) state.writeSets.delete(event.agentId);
    else state.writeSets.set(event.agentId, writeSetRecordSchema.parse(event));
    return;
  }
  const key = forecastKey(event.agentId, event.otherAgentId);
  if (event.status === 'cleared') state.forecasts.delete(key);
  else state.forecasts.set(key, forecastRecordSchema.parse({ ...event, key }));
}

/** An agent that is gone has no write-set and forecasts no conflict (the log keeps what they were); see applyAgentGone for one whose work awaits landing. */
export function forgetIntegrationOf(state: State, agentId: string): void {
  state.writeSets.delete(agentId);
  for (const [key, forecast] of state.forecasts) if (forecast.agentId === agentId || forecast.otherAgentId === agentId) state.forecasts.delete(key);
}

const withoutNote = ({ notCompared: _, ...record }: WriteSetRecord): WriteSetRecord => record;

const writeSetInputSchema = writeSetRecordSchema.omit({ at: true, notCompared: true, awaitingLanding: true });
export type WriteSetInput = z.infer<typeof writeSetInputSchema>;

/** Bytes of paths one write-set event may carry, so it fits any log's message bound (NATS: 1 MB by default). */
export const MAX_WRITE_SET_PATH_BYTES = 256 * 1024;

/** The paths that fit MAX_WRITE_SET_PATH_BYTES, and whether some were left out. */
export function boundedPaths(paths: readonly string[]): { paths: string[]; cut: boolean } {
  let bytes = 0;
  const kept = [];
  for (const path of paths) {
    bytes += path.length + 3; // its quotes and comma in the event's JSON
    if (bytes > MAX_WRITE_SET_PATH_BYTES) return { paths: kept, cut: true };
    kept.push(path);
  }
  return { paths: kept, cut: false };
}

/**
 * Records a freshly computed write-set when what people read of it changed (its paths, branch,
 * target, head or bound): a save that changes no path's membership logs nothing. On a shared log
 * a new snapshot commit is recorded too: the scope's integrator may be another plane, which learns
 * the work to merge only from the log. Returns whether an event was recorded.
 */
export function recordWriteSet(ctx: Ctx, input: WriteSetInput): boolean {
  const agent = ctx.state.agents.get(input.agentId);
  if (!agent || agent.gone) return false;
  const known = ctx.state.writeSets.get(input.agentId);
  const sharedLog = ctx.config.planeId !== undefined;
  if (known && sameWriteSet(known, input) && (!sharedLog || known.commit === input.commit)) return false;
  ctx.emit({ type: 'integration.write_set', by: 'plane', ...input });
  return true;
}

function sameWriteSet(a: WriteSetInput, b: WriteSetInput): boolean {
  return a.branch === b.branch && a.target === b.target && a.head === b.head && a.truncated === b.truncated && a.worktree === b.worktree && a.scope === b.scope && samePaths(a.paths, b.paths);
}

const samePaths = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((path, i) => path === b[i]);

/** The agent no longer has a write-set (detached from its branch, now on the target, its worktree gone): says so once, clearing its forecasts. */
export function endWriteSet(ctx: Ctx, agentId: string): void {
  const known = ctx.state.writeSets.get(agentId);
  if (!known) return;
  for (const forecast of [...ctx.state.forecasts.values()]) {
    if (forecast.agentId === agentId || forecast.otherAgentId === agentId) ctx.emit({ type: 'integration.forecast', by: 'plane', ...sides(forecast), status: 'cleared', paths: [], truncated: false });
  }
  ctx.emit({ type: 'integration.write_set', by: 'plane', ...writeSetInputSchema.parse(known), paths: [], truncated: false, ended: true });
}

export interface ForecastOutcome {
  agentId: string;
  callsign: string;
  branch?: string;
  otherAgentId?: string;
  otherCallsign?: string;
  otherBranch: string;
  /** Conflicted paths, sorted; empty when the merge is clean. */
  paths: string[];
  truncated: boolean;
  /** The plane that forecast it (on a shared log). */
  integrator?: string;
}

/** Records a merge forecast only when it changed: a conflict found (or its paths changed), or cleared. */
export function recordForecast(ctx: Ctx, outcome: ForecastOutcome): void {
  const live = (agentId: string | undefined) => agentId === undefined || ctx.state.writeSets.has(agentId);
  if (!live(outcome.agentId) || !live(outcome.otherAgentId)) return;
  const known = ctx.state.forecasts.get(forecastKey(outcome.agentId, outcome.otherAgentId));
  if (outcome.paths.length === 0) {
    if (known) ctx.emit({ type: 'integration.forecast', by: 'plane', ...outcome, status: 'cleared' });
    return;
  }
  if (known && samePaths(known.paths, outcome.paths) && known.truncated === outcome.truncated) return;
  ctx.emit({ type: 'integration.forecast', by: 'plane', ...outcome, status: 'conflict' });
}

const sidesSchema = forecastRecordSchema.omit({ key: true, at: true, paths: true, truncated: true, integrator: true });

function sides(forecast: ForecastRecord): Omit<ForecastOutcome, 'paths' | 'truncated'> {
  return sidesSchema.parse(forecast);
}

/** The scope a write-set is compared within: its portable id, or (an older log's record) its repository. */
export const writeSetScope = (record: WriteSetInput): string => record.scope ?? record.repository;

/** The scopes with live write-sets: each has an integrator that forecasts between them. */
export function writeSetScopes(state: State): string[] {
  return [...new Set([...state.writeSets.values()].map(writeSetScope))];
}

/**
 * Records what the integrator could reach of a write-set's snapshot, only when that changed:
 * `notCompared` says why it could not compare it (or compared only part of it); undefined, it could.
 */
export function recordReach(ctx: Ctx, agentId: string, commit: string, notCompared: string | undefined): void {
  const record = ctx.state.writeSets.get(agentId);
  if (record?.commit !== commit || record.notCompared === notCompared) return;
  ctx.emit({ type: 'integration.reach', by: 'plane', agentId, commit, ...(notCompared !== undefined && { notCompared: notCompared.slice(0, MAX_NOT_COMPARED_CHARS) }) });
}

/** Whether any two live write-sets of the scope are partners (one pass over their paths, not one per pair). */
export function scopeHasPairs(state: State, scope: string): boolean {
  const records = [...state.writeSets.values()].filter((record) => writeSetScope(record) === scope);
  if (records.length < 2) return false;
  if (records.some((record) => record.truncated)) return true;
  const ids = new Set(records.map((record) => record.agentId));
  if ([...state.forecasts.values()].some((forecast) => forecast.otherAgentId !== undefined && ids.has(forecast.agentId))) return true;
  const seen = new Set<string>();
  for (const record of records) {
    if (record.paths.some((path) => seen.has(path))) return true;
    for (const path of record.paths) seen.add(path);
  }
  return false;
}

/** The live write-sets of the same scope that share a path with `agentId`'s, or already forecast a conflict with it. */
export function forecastPartners(state: State, agentId: string): WriteSetRecord[] {
  const mine = state.writeSets.get(agentId);
  if (!mine) return [];
  const paths = new Set(mine.paths);
  return [...state.writeSets.values()].filter(
    (other) =>
      other.agentId !== agentId &&
      writeSetScope(other) === writeSetScope(mine) &&
      (other.truncated || mine.truncated || other.paths.some((path) => paths.has(path)) || state.forecasts.has(forecastKey(agentId, other.agentId))),
  );
}

/** The public view of a write-set: paths listed up to the reply bound. */
export function writeSetView(record: WriteSetRecord): WriteSet {
  return {
    callsign: record.callsign,
    worktree: record.worktree,
    ...(record.branch !== undefined && { branch: record.branch }),
    target: record.target,
    head: record.head,
    paths: record.paths.slice(0, MAX_WRITE_SET_PATHS_LISTED),
    pathCount: record.paths.length,
    truncated: record.truncated || record.paths.length > MAX_WRITE_SET_PATHS_LISTED,
    ...(record.notCompared !== undefined && { notCompared: record.notCompared }),
    ...(record.awaitingLanding !== undefined && record.awaitingLanding.items.length > 0 && { awaitingLanding: record.awaitingLanding }),
    updatedAt: new Date(record.at).toISOString(),
  };
}

/**
 * The forecast conflicts among `paths` (repository-relative) of whichever of a worktree's agents has
 * a write-set (a shared checkout's agents have none), at most `max`: what a hook notes when a call
 * touches those paths.
 */
export function touchedPathConflicts(state: State, worktreeAgents: readonly string[], paths: readonly string[], max: number): ForecastConflict[] {
  if (paths.length === 0) return [];
  const agentId = worktreeAgents.find((id) => state.writeSets.has(id));
  return agentId === undefined ? [] : conflictsOf(state, agentId, paths).slice(0, max);
}

/** The forecast conflicts an agent is part of (either side), as that agent reads them: itself first. */
export function conflictsOf(state: State, agentId: string | undefined, paths?: readonly string[]): ForecastConflict[] {
  const wanted = paths && new Set(paths);
  return [...state.forecasts.values()].flatMap((forecast) => {
    if (agentId !== undefined && forecast.agentId !== agentId && forecast.otherAgentId !== agentId) return [];
    const touched = wanted ? forecast.paths.filter((path) => wanted.has(path)) : forecast.paths;
    if (touched.length === 0) return [];
    return [conflictView(forecast, agentId, touched)];
  });
}

function conflictView(forecast: ForecastRecord, viewer: string | undefined, paths: string[]): ForecastConflict {
  const since = new Date(forecast.at).toISOString();
  const flipped = viewer !== undefined && forecast.otherAgentId === viewer;
  if (!flipped) {
    return {
      callsign: forecast.callsign,
      ...(forecast.branch !== undefined && { branch: forecast.branch }),
      ...(forecast.otherCallsign !== undefined && { otherCallsign: forecast.otherCallsign }),
      otherBranch: forecast.otherBranch,
      paths,
      truncated: forecast.truncated,
      since,
    };
  }
  return {
    callsign: forecast.otherCallsign!,
    ...(forecast.otherBranch !== '' && { branch: forecast.otherBranch }),
    otherCallsign: forecast.callsign,
    otherBranch: forecast.branch ?? '(detached HEAD)',
    paths,
    truncated: forecast.truncated,
    since,
  };
}
