import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LspNotificationParams } from '../../contracts/lsp.js';
import type { PlaneClient } from '../client/plane-client.js';
import type { WorkspaceScopes } from './workspace-scopes.js';

/** Plane events after which the forecast is read again (one read per burst). */
const RELOAD_AFTER_MS = 100;

/**
 * The conflict forecast as the editor shows it: read from fleet_conflicts on connect and after
 * each integration event, each write-set with its repository's scope and each conflict's paths
 * turned into this workspace's files (the worktree of the same repository open here; none when
 * no worktree of it is), published whole as fleet/didChangeForecast.
 */
export class WorkspaceForecast {
  private pending: NodeJS.Timeout | undefined;
  /** The read in flight, and whether another was asked for meanwhile: reads run one at a time, so an older answer never lands after a newer one. */
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private writeSetScopes = new Set<string>();

  constructor(
    private readonly scopes: WorkspaceScopes,
    private readonly publish: (params: LspNotificationParams<'fleet/didChangeForecast'>) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** The scopes of the live write-sets, as last read. */
  get scopesWithWriteSets(): ReadonlySet<string> {
    return this.writeSetScopes;
  }

  changed(client: PlaneClient | undefined): void {
    if (this.pending || !client) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.load(client).catch((error: Error) => this.log(`reading the conflict forecast failed: ${error.message}`));
    }, RELOAD_AFTER_MS);
  }

  async load(client: PlaneClient): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        await this.read(client);
      } while (this.readAgain);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(client: PlaneClient): Promise<void> {
    const { writeSets, conflicts } = await client.call('fleet_conflicts', {});
    // One git look-up per worktree: the scope places a write-set under its agent in Territory, the root turns paths into this workspace's files.
    const scopeOf = new Map(writeSets.map((writeSet) => [writeSet.callsign, this.scopes.locate(pathToFileURL(join(writeSet.worktree, '.fleet-forecast')).toString())?.scope]));
    const inWorkspace = conflicts.map((conflict) => {
      const scope = scopeOf.get(conflict.callsign);
      const root = scope === undefined ? undefined : this.scopes.rootFor(scope);
      return { conflict, files: root === undefined ? [] : conflict.paths.map((path) => join(root, path)) };
    });
    this.writeSetScopes = new Set(writeSets.flatMap((writeSet) => scopeOf.get(writeSet.callsign) ?? []));
    this.publish({ writeSets: writeSets.map((writeSet) => ({ ...writeSet, scope: scopeOf.get(writeSet.callsign) })), conflicts: inWorkspace });
  }

  dispose(): void {
    clearTimeout(this.pending);
  }
}
