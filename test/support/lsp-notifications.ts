import type { MessageConnection } from 'vscode-languageserver/node';
import { lspNotifications, type LspNotificationName, type LspNotificationParams } from '../../contracts/lsp.js';

/** Every notification a language server sent over `connection`, in order, and a way to wait for one. */
export class LspNotifications {
  readonly seen: { method: string; params: unknown }[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(connection: MessageConnection) {
    connection.onNotification((method, params) => {
      this.seen.push({ method, params });
      for (const wake of this.waiters) wake();
    });
  }

  /** Those named `name` so far, parsed with their contracts/lsp.ts schema. */
  all<N extends LspNotificationName>(name: N): LspNotificationParams<N>[] {
    return this.seen.filter(({ method }) => method === name).map(({ params }) => lspNotifications[name].parse(params) as LspNotificationParams<N>);
  }

  /** The first notification `name` (parsed with its contracts/lsp.ts schema) for which `check` holds, among those from the `from`th on. */
  matching<N extends LspNotificationName>(name: N, check: (params: LspNotificationParams<N>) => boolean, timeoutMs = 15_000, from = 0): Promise<LspNotificationParams<N>> {
    return new Promise((resolve, reject) => {
      const look = () => {
        for (; from < this.seen.length; from++) {
          const { method, params } = this.seen[from]!;
          if (method !== name) continue;
          const parsed = lspNotifications[name].parse(params) as LspNotificationParams<N>;
          if (check(parsed)) {
            this.waiters.delete(look);
            clearTimeout(timer);
            resolve(parsed);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(look);
        reject(new Error(`no ${name} notification matched within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(look);
      look();
    });
  }
}
