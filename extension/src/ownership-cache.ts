import * as vscode from 'vscode';
import type { Ownership, OwnershipEntry } from '../../contracts/lsp.js';
import type { FleetContext } from './fleet-context.js';

const MAX_BATCH = 5_000;

/** What the server said about one file or folder. */
type Known = Omit<OwnershipEntry, 'uri'>;

/**
 * Who holds each file the editor has asked about, as the language server last said. Lookups made
 * in the same tick go to the server as one request; after that the server sends only the files
 * whose ownership changed, and this cache fires exactly those URIs. Nothing here scans the tree.
 */
export class OwnershipCache implements vscode.Disposable {
  private readonly known = new Map<string, Known>();
  /** Asked while no server answered: asked again once one runs. */
  private readonly unanswered = new Set<string>();
  private queued = new Map<string, ((ownership: Ownership | null) => void)[]>();
  private flushScheduled = false;
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly ctx: FleetContext) {
    this.subscriptions = [
      ctx.onDidChangeOwnership((entries) => {
        const uris = entries.map((entry) => {
          this.known.set(entry.uri, known(entry));
          return vscode.Uri.parse(entry.uri);
        });
        if (uris.length > 0) this.changed.fire(uris);
      }),
      // A new server has not been asked about anything: ask again for every file shown.
      ctx.onDidStartServer(() => {
        const uris = [...this.known.keys(), ...this.unanswered].map((uri) => vscode.Uri.parse(uri));
        this.known.clear();
        this.unanswered.clear();
        if (uris.length > 0) this.changed.fire(uris);
      }),
    ];
  }

  /** What is known now, without asking: undefined when the server was never asked. */
  peek(uri: vscode.Uri): Ownership | null | undefined {
    return this.known.get(uri.toString())?.ownership;
  }

  knownUris(): vscode.Uri[] {
    return [...this.known.keys()].map((uri) => vscode.Uri.parse(uri));
  }

  /** For a folder nobody holds: how many claims lie inside it, as last known. */
  heldInside(uri: vscode.Uri): number {
    return this.known.get(uri.toString())?.heldInside ?? 0;
  }

  lookup(uri: vscode.Uri): Promise<Ownership | null> {
    const key = uri.toString();
    const known = this.known.get(key);
    if (known !== undefined) return Promise.resolve(known.ownership);
    return new Promise((resolve) => {
      const waiting = this.queued.get(key);
      if (waiting) waiting.push(resolve);
      else this.queued.set(key, [resolve]);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queued;
    this.queued = new Map();
    const uris = [...batch.keys()];
    for (let start = 0; start < uris.length; start += MAX_BATCH) {
      const slice = uris.slice(start, start + MAX_BATCH);
      try {
        const { entries } = await this.ctx.request('fleet/ownership', { uris: slice });
        for (const entry of entries) {
          this.known.set(entry.uri, known(entry));
          for (const resolve of batch.get(entry.uri) ?? []) resolve(entry.ownership);
        }
      } catch (error) {
        // No server yet: "nobody" for now; onDidStartServer asks again once one runs.
        this.ctx.log.debug(`ownership lookup failed: ${error instanceof Error ? error.message : String(error)}`);
        for (const uri of slice) {
          this.unanswered.add(uri);
          for (const resolve of batch.get(uri) ?? []) resolve(null);
        }
      }
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

function known({ ownership, heldInside }: OwnershipEntry): Known {
  return heldInside === undefined ? { ownership } : { ownership, heldInside };
}
