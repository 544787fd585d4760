import type { WebSocket } from 'ws';

// Loopback kernels buffer a few MB per socket on top of these; what is counted here is what the
// plane itself holds in memory for one client.

/** Requests of one connection running at once; more wait unread in the socket. */
export const MAX_IN_FLIGHT = 32;
/**
 * Requests of one connection started in one turn of the event loop; the rest start in the next
 * turn, after every other connection's frames that arrived meanwhile. Without it, one connection's
 * pipelined requests ran back to back for as long as it had frames queued (a request that needs no
 * new durability answers in microtasks, and its completion started the next): another connection's
 * request waited behind all 200 of a pipeline (8 with it), and under the non-reading flood the
 * plane's loop ran 20-23 ms of other work during one of another client's claims (12-19 ms with it;
 * BENCHMARKS.md, issue 14). Pipelined throughput did not drop: the turns are cheap.
 */
export const MAX_STARTED_PER_TURN = 4;
/** Unsent bytes past which the plane stops reading a client (and starts again once they drop below). */
export const SEND_SOFT_LIMIT_BYTES = 1024 * 1024;
/**
 * Unsent bytes past which the client is dropped. Above the largest reply a client accepts (16 MB,
 * the client's maxPayload), so one big reply alone never costs a reading client its connection.
 */
export const SEND_HARD_LIMIT_BYTES = 32 * 1024 * 1024;
/**
 * A client that leaves more than the soft limit of replies unread this long, without reading a
 * byte, is dropped. (Notifications do not count: the event feed bounds them with its gap notice,
 * and a paused subscriber is left to the ping, which drops it after 15–30 s.)
 */
export const STALL_TIMEOUT_MS = 5_000;
/** Unsent notification bytes past which an event subscriber counts as fallen behind. */
export const NOTIFICATION_BACKLOG_BYTES = 1024 * 1024;

/**
 * Backpressure for one WebSocket client. Requests run at most MAX_IN_FLIGHT at a time; while that
 * many run, or while more than the soft limit waits to be sent, the socket is paused, so a client
 * that floods is held back by TCP rather than by the plane's memory. A client that stops reading
 * is dropped (past the hard limit, or after the stall timeout); the requests it had sent but the
 * plane had not started are discarded, and the replies of those already running go nowhere.
 */
export class FlowControl {
  /** Frames read but not started: at most what one socket read held when reading paused. */
  private readonly queued: string[] = [];
  private inFlight = 0;
  /** Requests started in this turn; set back to 0, and the queue served on, in the next turn. */
  private startedThisTurn = 0;
  private unsentNotificationBytes = 0;
  private readonly notificationWaiters: (() => void)[] = [];
  private stallTimer: NodeJS.Timeout | undefined;
  private dropped = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly serve: (frame: string) => Promise<string | undefined>,
    private readonly onDrop: (what: string, figures: string) => void,
  ) {
    socket.on('message', (data, isBinary) => {
      this.queued.push(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
      this.pump();
    });
    socket.on('close', () => {
      this.queued.length = 0;
      clearTimeout(this.stallTimer);
      this.releaseNotificationWaiters();
    });
  }

  /** True while the socket is paused only because the plane's own work on this client's requests is not done. */
  readingHeldByPlane(): boolean {
    return this.socket.isPaused && !this.overSoftLimit();
  }

  /** Whether the client has more notification bytes unread than an event subscriber may. */
  notificationsBehind(): boolean {
    return this.unsentNotificationBytes > NOTIFICATION_BACKLOG_BYTES;
  }

  /** Resolves once the client has read its notifications down to the limit, or the connection is gone. */
  notificationsDrained(): Promise<void> {
    if (!this.notificationsBehind() || this.socket.readyState !== this.socket.OPEN) return Promise.resolve();
    return new Promise((resolve) => this.notificationWaiters.push(resolve));
  }

  notify(frame: string): void {
    const bytes = Buffer.byteLength(frame);
    this.unsentNotificationBytes += bytes;
    this.send(frame, () => {
      this.unsentNotificationBytes -= bytes;
      if (!this.notificationsBehind()) this.releaseNotificationWaiters();
    });
  }

  private pump(): void {
    while (this.queued.length > 0 && this.inFlight < MAX_IN_FLIGHT && this.startedThisTurn < MAX_STARTED_PER_TURN && !this.overSoftLimit() && !this.dropped) {
      const frame = this.queued.shift()!;
      this.inFlight++;
      if (this.startedThisTurn++ === 0) setImmediate(() => this.nextTurn());
      void this.serve(frame).then((reply) => {
        this.inFlight--;
        if (reply !== undefined) this.send(reply);
        this.pump();
      });
    }
    // Stop reading while anything waits; what one read already held still arrives and queues.
    if (this.queued.length > 0 || this.inFlight >= MAX_IN_FLIGHT || this.overSoftLimit()) this.socket.pause();
    else this.socket.resume();
  }

  private nextTurn(): void {
    this.startedThisTurn = 0;
    this.pump();
  }

  private send(frame: string, written?: () => void): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(frame, () => {
      written?.();
      this.progressed();
    });
    const unsent = this.socket.bufferedAmount;
    if (unsent > SEND_HARD_LIMIT_BYTES) this.drop(`${mib(unsent)} unsent, over the ${mib(SEND_HARD_LIMIT_BYTES)} limit`);
    else if (this.repliesOverSoftLimit()) this.stallTimer ??= this.stallDeadline();
  }

  /** Some bytes reached the kernel: the client reads, so the stall clock starts over. */
  private progressed(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
    if (this.repliesOverSoftLimit()) this.stallTimer = this.stallDeadline();
    if (this.socket.isPaused && !this.overSoftLimit()) this.pump();
  }

  private stallDeadline(): NodeJS.Timeout {
    return setTimeout(() => this.drop(`${mib(this.socket.bufferedAmount)} unsent and not a byte taken for ${STALL_TIMEOUT_MS / 1000} s`), STALL_TIMEOUT_MS);
  }

  private overSoftLimit(): boolean {
    return this.socket.bufferedAmount > SEND_SOFT_LIMIT_BYTES;
  }

  private repliesOverSoftLimit(): boolean {
    return this.socket.bufferedAmount - this.unsentNotificationBytes > SEND_SOFT_LIMIT_BYTES;
  }

  private drop(why: string): void {
    if (this.dropped) return;
    this.dropped = true;
    this.onDrop('dropped a client that does not read what the plane sends it', `: ${why}; ${this.queued.length} request${this.queued.length === 1 ? '' : 's'} not yet started discarded`);
    this.queued.length = 0;
    this.socket.terminate();
  }

  private releaseNotificationWaiters(): void {
    for (const resolve of this.notificationWaiters.splice(0)) resolve();
  }
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
