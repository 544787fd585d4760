import type { Digest, FleetEvent, MethodName, ParsedParams, ResultBody, StoreHealth } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import type { Journal } from '../persistence/journal.js';
import type { ShellAnalyzer } from '../../gate/shell-analyzer.js';
import type { ScopeResolver } from '../repository/scope-resolver.js';
import type { ServiceTokens } from '../remote/service-tokens.js';
import type { Session } from '../rpc/session.js';
import type { WorktreeWatchers } from '../worktree-watcher/worktree-watchers.js';

/** What the plane gives every handler: the core and the services around it. */
export interface PlaneServices {
  core: FleetCore;
  journal: Journal;
  scopes: ScopeResolver;
  /** FLEET_HOME: its credentials are not an agent's to read (the shell gate refuses commands naming them). */
  home: string;
  /** The shell parser, off the event loop. */
  shell: ShellAnalyzer;
  info(): { version: string; pid: number; port: number; socket?: string; listen?: string; startedAt: number };
  /** Which store, and whether it can take mutations now (a replicated one may be cut off). */
  storeHealth(): StoreHealth;
  /** Calls `listener` with the store's new health each time it changes; returns the way to stop. */
  onStoreHealthChange(listener: (health: StoreHealth) => void): () => void;
  /** On a shared log, begun as a call is decided: resolves true if the decision may have missed others' events (see ReplicaSync.barrier). */
  storeBarrier?: () => () => Promise<boolean>;
  shutdown(): void;
  /** Every durable event from `fromSeq` on, archived segments included. */
  history(fromSeq: number): AsyncIterable<FleetEvent>;
  builds: { kick(): void; finished(runId: string): Promise<void> };
  /** The train (server/integration/train/): kicked when work is queued or settings change. */
  train: { kick(): void; liveLog(scope: string): string | undefined };
  digests: {
    current(): Promise<{ digest: Digest; markdown: string }>;
    over(since: { seq: number } | { seconds: number }): Promise<{ digest: Digest; markdown: string }>;
    publish(): Promise<{ digest: Digest; markdown: string }>;
  };
  /** Registers the pid of a joining agent (refusing pids it must never watch or signal), returning its start time. */
  registerPid(pid: number): string | undefined;
  /** The service tokens of the TLS listener (DESIGN §13). */
  tokens: ServiceTokens;
  /** The watcher over the worktrees live agents registered (DESIGN §11). */
  worktrees: WorktreeWatchers;
}

export type Handler<N extends MethodName> = (
  params: ParsedParams<N>,
  session: Session,
  plane: PlaneServices,
) => ResultBody<N> | Promise<ResultBody<N>>;

/** One handler per method of the table; a method without a handler does not compile. */
export type HandlerTable = { [N in MethodName]: Handler<N> };
