// Waiting on explicit signals: an event that carries the change, or a condition re-checked each
// time the relevant event fires (never a fixed sleep).
import type * as vscode from 'vscode';

/** Resolves with the first value for which `check` holds: checked now, then on each event. */
export function when<T, E = unknown>(event: vscode.Event<E>, check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let checking = Promise.resolve();
    const finish = (error: Error | undefined, value?: T) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subscription.dispose();
      if (error) reject(error);
      else resolve(value as T);
    };
    const attempt = () => {
      checking = checking.then(async () => {
        if (done) return;
        try {
          const value = await check();
          if (value !== undefined && value !== false) finish(undefined, value);
        } catch (error) {
          finish(error as Error);
        }
      });
    };
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
    const subscription = event(() => attempt());
    attempt();
  });
}

/** For flags without an event (an extension's isActive): re-checked every 25 ms until true. */
export async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
