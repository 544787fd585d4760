import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LspNotificationParams } from '../../contracts/lsp.js';
import type { PlaneClient } from '../client/plane-client.js';
import type { WorkspaceScopes } from './workspace-scopes.js';

/** Plane events after which the forecast is read again (one read per burst). */
const RELOAD_AFTER_MS = 100;

/**
 * The conflict forecast as the editor shows it: read from fleet_conflicts on connect and after
 * each integration event, its conflicted paths turned into this workspace's files (the worktree
 * of the same repository open here), published whole as fleet/didChangeForecast.
 */
export class WorkspaceForecast {
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly scopes: WorkspaceScopes,
    private readonly publish: (params: LspNotificationParams<'fleet/didChangeForecast'>) => void,
    private readonly log: (message: string) => void,
  ) {}

  changed(client: PlaneClient | undefined): void {
    if (this.pending || !client) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.load(client).catch((error: Error) => this.log(`reading the conflict forecast failed: ${error.message}`));
    }, RELOAD_AFTER_MS);
  }

  async load(client: PlaneClient): Promise<void> {
    const { writeSets, conflicts } = await client.call('fleet_conflicts', {});
    const worktreeOf = new Map(writeSets.map((writeSet) => [writeSet.callsign, writeSet.worktree]));
    const inWorkspace = conflicts.flatMap((conflict) => {
      const worktree = worktreeOf.get(conflict.callsign);
      const scope = worktree === undefined ? undefined : this.scopes.locate(pathToFileURL(join(worktree, '.fleet-forecast')).toString())?.scope;
      const root = scope === undefined ? undefined : this.scopes.rootFor(scope);
      return root === undefined ? [] : [{ conflict, files: conflict.paths.map((path) => join(root, path)) }];
    });
    this.publish({ writeSets, conflicts: inWorkspace });
  }

  dispose(): void {
    clearTimeout(this.pending);
  }
}
