import { z } from 'zod';
import { digestSchema } from './digest.js';
import { violationSchema } from './violations.js';
import { forecastConflictSchema, writeSetSchema } from './integration.js';
import { agentSchema, callsignSchema, claimExpirySchema, claimModeSchema, claimSchema, controlSchema, controlStateSchema } from './records.js';
import { storeHealthSchema } from './store-health.js';
import { trainEntrySchema } from './train.js';
import { sentDecisionSchema, workItemSchema, workStatusSchema } from './work.js';
import { sentClarificationAnswerSchema } from './work-protocol.js';

/**
 * The custom messages between the Fleet language server and the VS Code extension, beside the
 * standard LSP ones. Both sides parse what they receive with these schemas; the method names are
 * the keys of `lspRequests` and `lspNotifications`.
 */

const isoTime = z.iso.datetime();

/** One claim covering a file, as the editor shows it. */
export const ownershipHolderSchema = z.object({
  claimId: z.string(),
  callsign: callsignSchema,
  agentId: z.string(),
  pattern: z.string(),
  mode: claimModeSchema,
  /** null while the holder's registered process keeps the claim (expiresWith "process"). */
  expiresAt: isoTime.nullable(),
  expiresWith: claimExpirySchema,
  /** Whether the claim was made with a TTL; without one it lives as long as its agent heartbeats. */
  ttl: z.boolean(),
  reason: z.string().optional(),
  /** Held by the agent this window joined as (Fleet: Join as Operator). */
  mine: z.boolean(),
  /** The holder's mark, unique among live agents (see agent-marks.ts). */
  mark: z.string().min(1).max(2).optional(),
  /** The work item a claim is held for until its branch lands (expiresWith "landing"). */
  heldFor: z.string().optional(),
});
export type OwnershipHolder = z.infer<typeof ownershipHolderSchema>;

export const ownershipKindSchema = z.enum(['mine', 'other', 'shared', 'contested']);
export type OwnershipKind = z.infer<typeof ownershipKindSchema>;

/** Who holds a file. A file nobody holds has no ownership (null). */
export const ownershipSchema = z.object({
  /**
   * mine: only this window's operator holds it; other: another agent holds it exclusively;
   * shared: only shared claims (one or several agents, which may all write it); contested: a real
   * conflict, an exclusive claim beside another agent's claim.
   */
  kind: ownershipKindSchema,
  /** The Explorer badge: two characters at most. */
  mark: z.string().min(1).max(2),
  holders: z.array(ownershipHolderSchema).min(1),
  /** Another agent holds it exclusively, so a person may not write it (DESIGN §4, the check). */
  blocked: z.boolean(),
  /** The file's path relative to its repository. */
  path: z.string(),
  /** One line per holder ("ATLAS (src/**, exclusive, held while ATLAS is live)"), for tooltips and warnings. */
  summary: z.string(),
});
export type Ownership = z.infer<typeof ownershipSchema>;

export const ownershipEntrySchema = z.object({
  uri: z.string(),
  ownership: ownershipSchema.nullable(),
  /** For a folder: how many live claims lie inside it without covering it (the collapsed folder's hint). */
  heldInside: z.number().int().positive().optional(),
});
export type OwnershipEntry = z.infer<typeof ownershipEntrySchema>;

/**
 * connecting: first contact; connected; reconnecting: the plane went away and will be back (or is
 * being restarted); stopped: the plane was shut down on purpose and nobody started a new one;
 * failed: no plane could be reached or started (the message says why).
 */
export const planeConnectionStatusSchema = z.enum(['connecting', 'connected', 'reconnecting', 'stopped', 'failed']);
export type PlaneConnectionStatus = z.infer<typeof planeConnectionStatusSchema>;

export const viewClaimSchema = claimSchema.extend({
  /** The worktree of this window's workspace that the claim's repository maps to, if any. */
  root: z.string().optional(),
});
export type ViewClaim = z.infer<typeof viewClaimSchema>;

/** A roster entry with the mark its files show in the Explorer. */
export const viewAgentSchema = agentSchema.extend({
  mark: z.string().min(1).max(2),
  /** When its claims without a TTL lapse unless it heartbeats (2 × FLEET_AGENT_TTL after the last one). */
  claimsLapseAt: isoTime.optional(),
});
export type ViewAgent = z.infer<typeof viewAgentSchema>;

/** Everything the extension's views, status bar and notifications show. */
export const fleetViewStateSchema = z.object({
  connection: z.object({
    status: planeConnectionStatusSchema,
    home: z.string(),
    message: z.string().optional(),
    plane: z.object({ pid: z.number().int(), port: z.number().int(), socket: z.string().optional(), version: z.string(), startedAt: isoTime }).optional(),
  }),
  control: controlSchema.nullable(),
  /** The store the connected plane runs on and its health (cut off from a quorum: mutations refused); absent while none is connected. */
  store: storeHealthSchema.optional(),
  agents: z.array(viewAgentSchema),
  claims: z.array(viewClaimSchema),
  /** The work queue, every status. */
  work: z.array(workItemSchema),
  /** The agent this window acts as after Fleet: Join as Operator. */
  operator: z.object({ callsign: callsignSchema, agentId: z.string() }).nullable(),
});
export type FleetViewState = z.infer<typeof fleetViewStateSchema>;

const conflictSchema = z.object({ pattern: z.string(), holder: z.string(), heldPattern: z.string(), mode: claimModeSchema, expiresAt: isoTime });

/** Requests the extension sends to the language server. */
export const lspRequests = {
  'fleet/getState': { params: z.object({}), result: fleetViewStateSchema },
  /** Who holds these files; the server keeps telling about them through fleet/didChangeOwnership. */
  'fleet/ownership': {
    params: z.object({ uris: z.array(z.string()).max(10_000) }),
    result: z.object({ entries: z.array(ownershipEntrySchema) }),
  },
  'fleet/setControl': {
    params: z.object({ state: controlStateSchema, reason: z.string().max(500).optional() }),
    result: controlSchema,
  },
  'fleet/joinAsOperator': {
    params: z.object({ callsign: callsignSchema }),
    result: z.object({ callsign: callsignSchema, agentId: z.string(), rejoined: z.boolean() }),
  },
  'fleet/claimFile': {
    params: z.object({ uri: z.string(), mode: claimModeSchema.optional(), reason: z.string().max(500).optional() }),
    result: z.object({
      granted: z.boolean(),
      refusedBy: z.enum(['conflict', 'control']).optional(),
      path: z.string(),
      claimIds: z.array(z.string()),
      conflicts: z.array(conflictSchema),
      control: z.object({ state: controlStateSchema, reason: z.string().optional() }),
    }),
  },
  /** Releases a claim: the operator's own through fleet_release_path, another agent's by force. */
  'fleet/releaseClaim': {
    params: z.object({ claimId: z.string() }),
    result: z.object({ released: z.array(z.string()), forced: z.boolean() }),
  },
  /** The heartbeat digest since the last published one, or since an event (fleet_digest, not published). */
  'fleet/digest': { params: z.object({ sinceSeq: z.number().int().positive().optional() }), result: z.object({ digest: digestSchema, markdown: z.string() }) },
  /** The digests the plane published (FLEET_HOME/digests), newest first. */
  'fleet/digestHistory': { params: z.object({ limit: z.number().int().positive().max(200) }), result: z.object({ digests: z.array(digestSchema) }) },
  /** Asks the holder of a claim, by a REQUEST message in its inbox, to hand the file over. */
  'fleet/requestHandoff': {
    params: z.object({ claimId: z.string(), path: z.string().optional() }),
    result: z.object({ messageId: z.string(), to: callsignSchema }),
  },
  /**
   * The operator acts on a work item from the editor's attention view: a decision (which cites the
   * artifacts it rests on, or a note) or the answer to a clarification (an escalated one returns the
   * item to the status it waited in). Sent as fleet_work_update with the operator credential.
   */
  'fleet/updateWork': {
    params: z.discriminatedUnion('action', [
      z.strictObject({ id: z.string().min(1).max(200), action: z.literal('decide'), decision: sentDecisionSchema }),
      z.strictObject({ id: z.string().min(1).max(200), action: z.literal('answer'), ...sentClarificationAnswerSchema.shape }),
    ]),
    result: z.object({ id: z.string(), status: workStatusSchema }),
  },
  /** Whether the editor shows the train now: while it does and a batch builds, the build's output is read every few seconds. */
  'fleet/followTrainLog': { params: z.object({ follow: z.boolean() }), result: z.object({}) },
  /** Reconnects now; `start` also starts a plane when none is running. */
  'fleet/reconnect': { params: z.object({ start: z.boolean() }), result: z.object({}) },
} as const;

/** Notifications the language server sends to the extension. */
/** A violation in a repository of this workspace, with the absolute `file` it wrote. */
const workspaceViolationSchema = z.object({ violation: violationSchema, file: z.string() });
export type WorkspaceViolation = z.infer<typeof workspaceViolationSchema>;

/**
 * What the plane's events changed since the last notification, applied by the extension to the
 * state it holds: upserted agents, claims and work items, ended claims and dropped agents, and the
 * switch. Only `fleet/didChangeState` carries the whole state (start-up, reconnect, after a gap).
 */
export const fleetChangesSchema = z.object({
  agents: z.array(viewAgentSchema),
  /** Agents gone from the roster (left, expired, pruned), as `fleet_status` without includeGone. */
  removedAgents: z.array(z.string()),
  claims: z.array(viewClaimSchema),
  releasedClaims: z.array(z.string()),
  work: z.array(workItemSchema),
  /** Work items removed from the queue (`fleet_work_remove`). */
  removedWork: z.array(z.string()),
  control: controlSchema.optional(),
  /** The store's health, when it changed (the plane's `fleet_store_health` notice). */
  store: storeHealthSchema.optional(),
});
export type FleetChanges = z.infer<typeof fleetChangesSchema>;

/** Codex's trust in one fleet hook, as Codex computes it (server/hooks/codex-hook-trust.ts). */
export const codexHookTrustSchema = z.enum(['trusted', 'untrusted', 'modified', 'disabled', 'unknown']);

/**
 * Whether Codex runs the fleet's hooks for one repository of this workspace: those `fleet init` /
 * `install-hooks` put in $CODEX_HOME/hooks.json, each with the trust the user gave it in Codex's /hooks.
 */
export const codexRepositoryHooksSchema = z.object({
  /** The workspace's worktree of the repository. */
  worktree: z.string(),
  hooksFile: z.string(),
  hooks: z.array(z.object({ event: z.string(), trust: codexHookTrustSchema })).max(100),
  /** One sentence for people: what Codex does with these hooks, and what to do. */
  summary: z.string().max(2000),
});
export type CodexRepositoryHooks = z.infer<typeof codexRepositoryHooksSchema>;

/** A forecast conflict with the files it names in this workspace's worktree of the repository (absolute; none when no worktree of it is open here). */
const workspaceForecastConflictSchema = z.object({ conflict: forecastConflictSchema, files: z.array(z.string()) });
/** A write-set with its repository's scope (its git common dir), so the Territory view lists it under its agent there. */
const workspaceWriteSetSchema = writeSetSchema.extend({ scope: z.string().optional() });
export type WorkspaceWriteSet = z.infer<typeof workspaceWriteSetSchema>;
export type WorkspaceForecastConflict = z.infer<typeof workspaceForecastConflictSchema>;

/** The most train entries one notification carries: the queue's oldest, then what left it, newest first. */
export const MAX_TRAIN_ENTRIES = 1000;

/** One repository's train as `fleet_integrate_status` tells it (DESIGN §14), for the Work view. */
export const workspaceTrainSchema = z.object({
  scope: z.string(),
  /** The branch it lands on, when configured (else the repository's default branch). */
  target: z.string().optional(),
  batch: z.object({ itemIds: z.array(z.string()), base: z.string(), tip: z.string().optional(), since: isoTime, logTail: z.string().optional() }).optional(),
  entries: z.array(trainEntrySchema).max(MAX_TRAIN_ENTRIES),
  /** Entries the plane holds beyond those carried. */
  omitted: z.number().int().nonnegative(),
});
export type WorkspaceTrain = z.infer<typeof workspaceTrainSchema>;

export const lspNotifications = {
  'fleet/didChangeState': fleetViewStateSchema,
  'fleet/didChangeFleet': fleetChangesSchema,
  /** Only the files whose ownership changed, among those the extension asked about or has open. */
  'fleet/didChangeOwnership': z.object({ entries: z.array(ownershipEntrySchema) }),
  /** The plane published a heartbeat digest (every FLEET_DIGEST_INTERVAL, or on demand). */
  'fleet/didPublishDigest': z.object({ digest: digestSchema }),
  /** The plane saw a write in another agent's exclusive territory, in a repository of this workspace; `file` is absolute. */
  'fleet/didSeeViolation': workspaceViolationSchema,
  /** Every unacknowledged violation in this workspace's repositories, after each change (an acknowledged one is gone). */
  'fleet/didChangeViolations': z.object({ violations: z.array(workspaceViolationSchema) }),
  /** The fleet's Codex hooks of this workspace's repositories and their trust, at start-up and after each change to hooks.json or config.toml. */
  'fleet/didChangeCodexHooks': z.object({ repositories: z.array(codexRepositoryHooksSchema).max(1000) }),
  /** Live write-sets and the merge conflicts forecast in this workspace's repositories (DESIGN §14), after each change. */
  'fleet/didChangeForecast': z.object({ writeSets: z.array(workspaceWriteSetSchema), conflicts: z.array(workspaceForecastConflictSchema) }),
  /** A repository's train of this workspace, after each change to it (and its running build's output while followed). */
  'fleet/didChangeTrain': workspaceTrainSchema,
  /**
   * A worktree inside a workspace folder that is not a folder's own repository, with fleet activity
   * (live claims or write-sets; `fleet demo --here`'s .fleet-demo): the editor asks git to open it,
   * so its own repository, not the folder's, judges its files. Once per worktree.
   */
  'fleet/didFindNestedRepository': z.object({ root: z.string().min(1).max(4096) }),
} as const;

export type LspRequestName = keyof typeof lspRequests;
export type LspRequestParams<N extends LspRequestName> = z.input<(typeof lspRequests)[N]['params']>;
export type LspRequestResult<N extends LspRequestName> = z.infer<(typeof lspRequests)[N]['result']>;
export type LspNotificationName = keyof typeof lspNotifications;
export type LspNotificationParams<N extends LspNotificationName> = z.infer<(typeof lspNotifications)[N]>;

/** What the language server passes in `initializationOptions`. */
export const lspInitializationOptionsSchema = z.object({
  home: z.string(),
  /** The bundled CLI whose `serve` verb starts a plane (dist/fleet.cjs). */
  cliEntry: z.string(),
  /** Join as this operator callsign on connect (the person joined before, in this or another window). */
  operatorCallsign: z.string().optional(),
});
export type LspInitializationOptions = z.infer<typeof lspInitializationOptionsSchema>;

/** Messages from the digest webview to the extension (an untrusted boundary: parse them). */
export const digestWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('command'), command: z.enum(['fleet.pause', 'fleet.drain', 'fleet.resume', 'fleet.stop', 'fleet.joinAsOperator', 'fleet.showLog']) }),
  /** Show the live digest, the catch-up since the person last looked, or one published digest. */
  z.object({ type: z.literal('show'), view: z.enum(['live', 'catchUp']) }),
  z.object({ type: z.literal('open'), toSeq: z.number().int().nonnegative() }),
]);
export type DigestWebviewMessage = z.infer<typeof digestWebviewMessageSchema>;
