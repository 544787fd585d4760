import type { Caller } from '../core/context.js';

/** One client connection's identity and its way to receive notifications. */
export interface Session {
  caller: Caller;
  notify(method: string, params: unknown): void;
  /** Whether the client has fallen behind reading its notifications (more unread than it may have). */
  notificationsBehind(): boolean;
  /** Resolves once the client has caught up on its notifications, or the connection is gone. */
  notificationsDrained(): Promise<void>;
  /** Set while the session is subscribed to events; calling it unsubscribes. */
  unsubscribe?: () => void;
}

/** Before joining, a connection acts for the local person who holds the plane token. */
export const OPERATOR: Caller = { kind: 'operator', name: 'operator' };
