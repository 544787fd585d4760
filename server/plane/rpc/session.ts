import type { Caller, Credential } from '../../core/context.js';

/** One client connection's identity and its way to receive notifications. */
export interface Session {
  caller: Caller;
  /** What the connection presented when it opened; joining changes the caller, never this. */
  readonly credential: Credential;
  notify(method: string, params: unknown): void;
  /** Whether the client has fallen behind reading its notifications (more unread than it may have). */
  notificationsBehind(): boolean;
  /** Resolves once the client has caught up on its notifications, or the connection is gone. */
  notificationsDrained(): Promise<void>;
  /** Aborted once the connection is gone: work held for its replies (a waiting claim) is dropped then. */
  readonly closed: AbortSignal;
  /** Set while the session is subscribed to events; calling it unsubscribes. */
  unsubscribe?: () => void;
}

/** Before joining, a connection acts for the person if it presented the operator credential, else for nobody. */
export function unjoinedCaller(credential: Credential): Caller {
  return credential === 'operator' ? { kind: 'operator', name: 'operator' } : { kind: 'unjoined' };
}
