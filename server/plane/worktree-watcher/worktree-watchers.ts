import { realpathSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { FleetError, MAX_TOUCHED_PATH_CONFLICTS, MAX_UNATTRIBUTED_ELSEWHERE, MAX_WORKTREE_CHANGES, type FleetEvent, type ResultBody } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { touchedPathConflicts } from '../../core/integration-forecast.js';
import { recordViolation, violatedClaim } from '../../core/violations.js';
import { callsignOf } from '../../core/views.js';
import type { ScopeResolver } from '../repository/scope-resolver.js';
import { contentFingerprint } from './content-fingerprint.js';
import { PerSecondCap } from './per-second-cap.js';
import { UnattributedWrites } from './unattributed-writes.js';
import { WorktreeWatch, type SeenWrite, type Writers } from './worktree-watch.js';

/** Bounds: directories watched per worktree, violations judged per second per worktree, open attributions. */
const MAX_DIRECTORIES_PER_WORKTREE = 5000;
const MAX_VIOLATIONS_PER_SECOND = 20;
const MAX_ATTRIBUTIONS = 1000;
/** A hook that took a mark and never came back stops attributing after this long. */
const ATTRIBUTION_MS = 10 * 60_000;
/** A file tool writes right after its PreToolUse allowed it: the check speaks for that one write, for this long at most. */
const FILE_TOOL_ATTRIBUTION_MS = 10_000;
const MAX_CACHED_WORKTREES = 1024;

interface Watched {
  watch: WorktreeWatch;
  scope: string;
  /** The live agents that registered this worktree at join. */
  agents: string[];
  cap: PerSecondCap;
}

/** A hook's word for who writes in a worktree between its mark and its next call. */
interface Attribution {
  root: string;
  agentId: string;
  until: number;
  /** The tool the hook's call writes with, recorded as a violation's source. */
  source?: string;
  /** A file tool's: the one path (relative to the root) it was allowed to write; a mark's covers the worktree. */
  path?: string;
}

/**
 * DESIGN §11 layer 3: the plane watches the worktrees its live agents registered, and records a
 * change to a path another agent holds exclusively as `territory.violated`. It also answers a
 * hook's "what changed since mark M" (layer 2). Watches follow the roster: a worktree no live
 * agent registers any more is no longer watched.
 */
export class WorktreeWatchers {
  private readonly watched = new Map<string, Watched>();
  private readonly attributions = new Map<number, Attribution>();
  private readonly worktrees = new Map<string, { root: string; scope: string }>();
  private readonly unattributed = new UnattributedWrites(MAX_ATTRIBUTIONS);
  private mark = 0;
  /** File tools' attributions are keyed below zero: they end by time, never by a hook's next call with a mark. */
  private fileToolMark = 0;
  private reconciling = false;
  private closed = false;
  /** Told which agents' worktree changed (a write the watcher saw, or a hook asking what changed): the write-sets follow. */
  private readonly changeListeners: ((agentIds: readonly string[]) => void)[] = [];

  constructor(
    private readonly core: FleetCore,
    private readonly scopes: ScopeResolver,
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    core.onEvent((event: FleetEvent) => {
      if (!event.type.startsWith('agent.') || event.type === 'agent.heartbeat' || this.reconciling) return;
      this.reconciling = true; // one reconcile per burst of roster events
      setImmediate(() => {
        this.reconciling = false;
        this.reconcile();
      });
    });
  }

  /** Starts watching what live agents registered and stops watching what none does any more. */
  reconcile(): void {
    if (this.closed) return;
    const wanted = new Map<string, { scope: string; agents: string[] }>();
    for (const agent of this.core.state.agents.values()) {
      if (agent.gone || agent.worktree === undefined) continue;
      const worktree = this.worktreeOf(agent.worktree);
      if (!worktree) continue;
      const entry = wanted.get(worktree.root) ?? { scope: worktree.scope, agents: [] };
      entry.agents.push(agent.agentId);
      wanted.set(worktree.root, entry);
    }
    for (const [root, watched] of this.watched) {
      if (wanted.has(root)) continue;
      watched.watch.close();
      this.watched.delete(root);
      this.log(`watcher: stopped watching ${root} (no live agent registered it)`);
    }
    for (const [root, { scope, agents }] of wanted) {
      const known = this.watched.get(root);
      if (known) known.agents = agents;
      else this.watched.set(root, this.startWatching(root, scope, agents));
    }
  }

  /**
   * The hook's question. Without `since` it returns a mark (and, with `writer`, attributes the
   * worktree's changes to that agent until the next call with this mark); with `since`, the paths
   * changed after it, the forecast conflicts of the worktree's agent among them, and — when that mark
   * named a writer — the unattributed writes seen meanwhile in the repository's other worktrees while
   * that writer's call was in flight.
   */
  async changes(worktree: string, since: number | undefined, writer: string | undefined, source?: string): Promise<ResultBody<'fleet_worktree_changes'>> {
    if (!isAbsolute(worktree)) throw new FleetError('INVALID_PARAMS', `worktree "${worktree}" must be an absolute path`, { worktree });
    this.reconcile();
    const root = this.worktreeOf(worktree)?.root;
    const watched = root !== undefined ? this.watched.get(root) : undefined;
    if (root === undefined || !watched) {
      throw new FleetError('NOT_FOUND', `no live agent registered the worktree of ${worktree}: the plane watches only worktrees its live agents gave at join (fleet_agent_join with worktree)`, { worktree });
    }
    await watched.watch.ready;
    const caller = since !== undefined ? this.attributions.get(since)?.agentId : undefined;
    if (since !== undefined) this.attributions.delete(since);
    const found = since === undefined ? { changes: [], truncated: false } : await watched.watch.changesSince(since, MAX_WORKTREE_CHANGES);
    const elsewhere = since !== undefined && caller !== undefined ? await this.unattributedDuring(caller, since, root, watched.scope) : [];
    // A hook's call after a tool ran: a commit there moved HEAD outside what the watcher sees.
    if (since !== undefined) this.tellChanged(root);
    const mark = this.mark;
    if (writer !== undefined) this.attributeCallsign(root, writer, mark, source);
    // The forecast rides on this answer: the hook that asks what its call changed notes it without asking again.
    const written = found.changes.filter((c) => !c.viaGit).map((c) => c.path);
    const conflicts = touchedPathConflicts(this.core.state, watched.agents, written, MAX_TOUCHED_PATH_CONFLICTS);
    return {
      mark,
      changes: found.changes.map((c) => ({ path: c.path, ...(c.viaGit && { viaGit: true }) })),
      truncated: found.truncated,
      ...(elsewhere.length > 0 && { elsewhere }),
      ...(conflicts.length > 0 && { conflicts }),
    };
  }

  /** What the other worktrees of the scope saw during `agentId`'s call and could not attribute, once what they saw so far is judged. */
  private async unattributedDuring(agentId: string, since: number, root: string, scope: string): Promise<{ worktree: string; path: string; holder: string }[]> {
    const others = [...this.watched].filter(([otherRoot, other]) => otherRoot !== root && other.scope === scope);
    await Promise.all(others.map(([, other]) => other.watch.judged().catch(() => undefined)));
    return this.unattributed.duringCallOf(agentId, since, scope, root, MAX_UNATTRIBUTED_ELSEWHERE).map((w) => ({ worktree: w.root, path: w.path, holder: w.holder }));
  }

  onWorktreeChange(listener: (agentIds: readonly string[]) => void): void {
    this.changeListeners.push(listener);
  }

  private tellChanged(root: string): void {
    const agents = this.watched.get(root)?.agents ?? [];
    for (const listener of this.changeListeners) listener(agents);
  }

  close(): void {
    this.closed = true;
    for (const watched of this.watched.values()) watched.watch.close();
    this.watched.clear();
  }

  private startWatching(root: string, scope: string, agents: string[]): Watched {
    const watch = new WorktreeWatch({
      root,
      maxDirectories: MAX_DIRECTORIES_PER_WORKTREE,
      startMark: this.mark,
      now: this.now,
      nextMark: () => ++this.mark,
      writersNow: (path) => this.writersNow(root, path),
      onWrites: (writes) => {
        this.tellChanged(root);
        return this.judge(root, writes);
      },
      log: this.log,
    });
    watch.ready.catch((error: Error) => this.log(`watcher: cannot watch ${root}: ${error.message}`));
    const cap = new PerSecondCap(MAX_VIOLATIONS_PER_SECOND, () => this.log(`watcher: more than ${MAX_VIOLATIONS_PER_SECOND} violations a second in ${root}; the rest of this second is not recorded`));
    return { watch, scope, agents, cap };
  }

  /**
   * A file tool's PreToolUse allowed `paths` for `agentId`: the change that follows in their
   * worktrees is that agent's (a file tool takes no mark, so this is the only word for it).
   */
  expectWrites(agentId: string, paths: readonly string[]): void {
    for (const path of paths) {
      for (const root of this.watched.keys()) {
        if (path.startsWith(`${root}/`)) this.attribute({ root, agentId, path: path.slice(root.length + 1) }, --this.fileToolMark, FILE_TOOL_ATTRIBUTION_MS);
      }
    }
  }

  /**
   * Who may have written `path` in the worktree at `root`: the agents whose hooked calls are in
   * flight there (their marks), else the file tool whose PreToolUse allowed this path just now,
   * else the agents that registered the worktree (one of them is the writer) — unless their
   * runtimes run hooks and another agent's call is in flight elsewhere: then a writer in another
   * worktree may have made it, and nobody can say who (DESIGN §16: recorded as by `unknown`, never
   * as the holder's own write).
   */
  private writersNow(root: string, path: string): Writers {
    const now = this.now();
    const seenAt = this.core.now();
    const marked = new Map<string, string>();
    const expected = new Set<string>();
    const elsewhere = new Set<string>();
    for (const [mark, attribution] of this.attributions) {
      if (attribution.until < now) this.attributions.delete(mark);
      else if (attribution.root !== root) elsewhere.add(attribution.agentId);
      else if (attribution.path === undefined) marked.set(attribution.agentId, attribution.source ?? 'watcher');
      else if (attribution.path === path) {
        expected.add(attribution.agentId);
        this.attributions.delete(mark); // a file tool writes its file once
      }
    }
    if (marked.size > 0) {
      const sources = new Set(marked.values());
      // One hook's call in flight names its tool; several at once leave it to the watcher.
      return { writers: [...marked.keys()], source: sources.size === 1 ? [...sources][0]! : 'watcher', seenAt };
    }
    if (expected.size > 0) return { writers: [...expected], source: 'watcher', seenAt };
    const registered = this.watched.get(root)?.agents ?? [];
    const hooked = registered.length > 0 && registered.every((agentId) => this.core.state.agents.get(agentId)?.hooksSeen !== undefined);
    const strangers = [...elsewhere].filter((agentId) => !registered.includes(agentId));
    return hooked && strangers.length > 0 ? { writers: [], source: 'watcher', seenAt, callsInFlight: strangers } : { writers: [...registered], source: 'watcher', seenAt };
  }

  private attributeCallsign(root: string, callsign: string, mark: number, source: string | undefined): void {
    const agentId = this.core.indexes.liveCallsigns.get(callsign);
    if (agentId === undefined) throw new FleetError('NOT_FOUND', `no live agent ${callsign}: the writer must be on the roster`, { callsign });
    this.attribute({ root, agentId, ...(source !== undefined && { source }) }, mark, ATTRIBUTION_MS);
  }

  private attribute(attribution: Omit<Attribution, 'until'>, mark: number, lasting: number): void {
    this.attributions.set(mark, { ...attribution, until: this.now() + lasting });
    if (this.attributions.size > MAX_ATTRIBUTIONS) this.attributions.delete(this.attributions.keys().next().value!);
  }

  /** Only writes under another agent's exclusive claim are hashed and recorded. */
  private async judge(root: string, writes: SeenWrite[]): Promise<void> {
    const watched = this.watched.get(root);
    if (!watched) return;
    const { scope, cap } = watched;
    for (const write of writes) {
      const claim = this.core.run(undefined, (ctx) => violatedClaim(ctx.indexes, { scope, ...write }));
      if (!claim) continue;
      // A folder made or touched is no write of a file: it takes no place under the cap (a flood's new folders,
      // seen before their files, used up the second's 20 and the flood was recorded as nothing, seen in CI).
      // Past the cap nothing is looked at (a flood's thousands of paths cost no stat each).
      if (cap.full(this.now())) {
        cap.take(this.now()); // says once that the rest of this second is not recorded
        continue;
      }
      if ((await lstat(join(root, write.path)).catch(() => undefined))?.isDirectory()) continue;
      if (!cap.take(this.now())) continue;
      const fingerprint = await contentFingerprint(join(root, write.path));
      if (fingerprint === undefined || this.closed) continue;
      const { path, writers, source, callsInFlight, seenAt } = write;
      this.core.run(undefined, (ctx) => recordViolation(ctx, { scope, path, writers, source, fingerprint, seenAt, ...(callsInFlight && { callsInFlight }) }));
      if (callsInFlight) this.unattributed.add({ mark: write.mark, root, scope, path, holder: callsignOf(this.core.state, claim.agentId), callsInFlight });
    }
  }

  /** The worktree root (real path) and scope of a registered path; undefined when it is in no repository. */
  private worktreeOf(path: string): { root: string; scope: string } | undefined {
    const known = this.worktrees.get(path);
    if (known) return known;
    try {
      const scope = this.scopes.resolve(path);
      const found = { root: realpathSync(scope.worktree), scope: scope.id };
      if (this.worktrees.size >= MAX_CACHED_WORKTREES) this.worktrees.delete(this.worktrees.keys().next().value!);
      this.worktrees.set(path, found);
      return found;
    } catch {
      return undefined; // not (yet) a repository: asked again at the next roster change
    }
  }
}
