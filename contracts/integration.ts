import { z } from 'zod';

/**
 * The most paths a write-set keeps (DESIGN §14): past it `truncated` says the work changed more.
 * A reply lists at most MAX_WRITE_SET_PATHS_LISTED of them per agent, with the count.
 */
export const MAX_WRITE_SET_PATHS = 5_000;
export const MAX_WRITE_SET_PATHS_LISTED = 200;
/** Conflicted paths kept per forecast. */
export const MAX_FORECAST_PATHS = 200;
/** The forecast conflicts a hook's answer carries for the paths a call touched (one per other live branch and the target: far fewer in practice). */
export const MAX_TOUCHED_PATH_CONFLICTS = 100;

/** The items a gone builder's write-set is kept for, at most (one builder rarely has more than a few waiting on one branch). */
export const MAX_AWAITING_LANDING_ITEMS = 100;

/**
 * The items a builder that is gone built on its write-set's branch whose claims are held until they
 * land (DESIGN §14): its write-set stays, and is still forecast against, until none of them waits.
 */
export const awaitingLandingItemsSchema = z.array(z.string()).min(1).max(MAX_AWAITING_LANDING_ITEMS);

/** A gone agent's write-set kept while items it built await landing: how its agent went, and those items. */
export const awaitingLandingSchema = z.object({ agent: z.enum(['left', 'expired']), items: awaitingLandingItemsSchema });

/** What the plane records of an agent's write-set, in its event and its state alike. */
export const writeSetFields = {
  agentId: z.string(),
  callsign: z.string(),
  worktree: z.string(),
  /** The git common directory on the machine of the agent's plane. */
  repository: z.string(),
  /** The repository's portable scope id (absent in older logs: the repository then stands for it): write-sets of one scope are compared, on whichever machine. */
  scope: z.string().optional(),
  /** `refs/heads/…`; absent on a detached HEAD (the write-set is then by commit). */
  branch: z.string().optional(),
  target: z.string(),
  head: z.string(),
  /** A snapshot of its worktree, committed and uncommitted work alike. */
  commit: z.string(),
  paths: z.array(z.string()),
  truncated: z.boolean(),
};

/** What the plane records of a conflict forecast between an agent and another (or the target, without otherAgentId). */
export const forecastFields = {
  agentId: z.string(),
  callsign: z.string(),
  branch: z.string().optional(),
  otherAgentId: z.string().optional(),
  otherCallsign: z.string().optional(),
  otherBranch: z.string(),
  paths: z.array(z.string()),
  truncated: z.boolean(),
  /** The plane that forecast it: on a shared log, the holder of the scope's integrator lease. */
  integrator: z.string().optional(),
};

/** Bytes of a reason the integrator records of a write-set it could not compare. */
export const MAX_NOT_COMPARED_CHARS = 1000;

/** An agent's write-set as people and agents read it. */
export const writeSetSchema = z.object({
  callsign: z.string(),
  worktree: z.string(),
  /** `refs/heads/…`; absent on a detached HEAD (the write-set is then by commit). */
  branch: z.string().optional(),
  /** The integration target it is compared with (`refs/heads/main`, `refs/remotes/origin/HEAD`'s branch, …). */
  target: z.string(),
  head: z.string(),
  /** Repository-relative paths changed against the target, committed and uncommitted (at most MAX_WRITE_SET_PATHS_LISTED here). */
  paths: z.array(z.string()),
  pathCount: z.number().int(),
  /** More paths changed than the plane keeps (MAX_WRITE_SET_PATHS), or than this reply lists. */
  truncated: z.boolean(),
  /** Why the scope's integrator could not compare this work with other branches (or compared only part of it), when it could not. */
  notCompared: z.string().optional(),
  /** Its agent is gone, but items it built on this branch await landing: kept (and forecast against) until they land. */
  awaitingLanding: awaitingLandingSchema.optional(),
  updatedAt: z.iso.datetime(),
});
export type WriteSet = z.infer<typeof writeSetSchema>;

/** A forecast conflict: merging one agent's work with the other side's would conflict in `paths`. */
export const forecastConflictSchema = z.object({
  callsign: z.string(),
  branch: z.string().optional(),
  /** The other agent; absent when the other side is the integration target. */
  otherCallsign: z.string().optional(),
  otherBranch: z.string(),
  paths: z.array(z.string()),
  truncated: z.boolean(),
  since: z.iso.datetime(),
});
export type ForecastConflict = z.infer<typeof forecastConflictSchema>;
