import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Digest } from '../../../contracts/index.js';
import { digestWebviewMessageSchema } from '../../../contracts/lsp.js';
import { option } from '../commands/command-args.js';
import type { FleetContext } from '../fleet-context.js';

const MIN_INTERVAL_MS = 1000;
const HISTORY_LENGTH = 20;

/** Which digest the view shows: since the last published one, since the person last looked, or a published one. */
export type DigestShown = { kind: 'live' } | { kind: 'catchUp'; fromSeq: number } | { kind: 'published'; toSeq: number };

/** One published digest in the history list. */
export interface DigestSummary {
  fromSeq: number;
  toSeq: number;
  generatedAt: string;
  blockers: number;
  eventCount: number;
}

/** What the webview renders. */
export interface DigestModel {
  connection: { status: string; message: string | null; home: string };
  digest: Digest | null;
  error: string | null;
  shown: DigestShown;
  /** The first event the person has not seen in this view (null on a first visit or when nothing is new). */
  catchUpFrom: number | null;
  history: DigestSummary[];
}

/**
 * The Digest webview view: the heartbeat digest of what happened since the last published one
 * (per-agent progress, build status, blockers, stale agents, claims acquired and released, handoffs,
 * work completed, the control switch), reloaded while visible as the fleet changes, at most once a
 * second; the published digests (FLEET_HOME/digests) to open one by one; and "since you were last
 * here": when the view opens, the digest of every event after the last one it showed (that event
 * number is kept per FLEET_HOME in global state, so it outlives the window). Strict CSP with a
 * nonce; script and style come from media/; messages back are parsed.
 */
export class DigestView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private panel: vscode.WebviewPanel | undefined;
  private readonly subscriptions: vscode.Disposable[];
  private loading = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private model: DigestModel | undefined;
  private shownNow: DigestShown = { kind: 'live' };
  private requested: DigestShown | undefined;
  private catchUpFrom: number | null = null;
  private history: Digest[] | undefined;
  private readonly changed = new vscode.EventEmitter<DigestModel>();
  /** Each model sent to the webview. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly ctx: FleetContext) {
    this.subscriptions = [
      vscode.window.registerWebviewViewProvider('fleet.digest', this),
      // Argument: none, `{ toSeq }` (a published digest: the blocker notification) or `{ view: 'catchUp' | 'live' }`.
      vscode.commands.registerCommand('fleet.showDigest', (arg?: unknown) => {
        const toSeq = option(arg, 'toSeq');
        const view = option(arg, 'view');
        return this.show(typeof toSeq === 'number' ? { kind: 'published', toSeq } : view === 'catchUp' ? { kind: 'catchUp' } : view === 'live' ? { kind: 'live' } : undefined);
      }),
      vscode.commands.registerCommand('fleet.openDigestInEditor', () => this.openInEditor()),
      ctx.onDidChangeState(() => this.reload()),
      ctx.onDidPublishDigest(() => {
        this.history = undefined;
        this.reload();
      }),
    ];
  }

  /** The last model sent to the webview (what the view shows), for the extension's API. */
  get shown(): DigestModel | undefined {
    return this.model;
  }

  /** Whether the view or the editor tab is on screen now (VS Code tells the extension host a moment after a switch). */
  get visible(): boolean {
    return (this.view?.visible ?? false) || (this.panel?.visible ?? false);
  }

  /** Fleet: Show Digest: brings the view up on the digest asked for (default: the catch-up if there is one, else live). */
  private async show(what?: DigestShown | { kind: 'catchUp' }): Promise<void> {
    if (what?.kind === 'catchUp') this.requested = this.catchUpFrom !== null ? { kind: 'catchUp', fromSeq: this.catchUpFrom } : undefined;
    else this.requested = what;
    if (this.view?.visible) this.beginVisit();
    await vscode.commands.executeCommand('fleet.digest.focus');
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.attach(view.webview);
    this.beginVisit();
    view.onDidChangeVisibility(() => {
      if (!view.visible) return;
      this.beginVisit();
      this.reload(true);
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
  }

  /**
   * Fleet: Open Digest in Editor: the same digest in an editor tab, wide enough to read (the
   * sidebar view is a strip), reused while it is open.
   */
  private openInEditor(): void {
    if (this.panel) return this.panel.reveal();
    const panel = vscode.window.createWebviewPanel('fleet.digestEditor', 'Fleet Digest', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [this.media] });
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.media, 'fleet.svg');
    this.attach(panel.webview);
    panel.onDidChangeViewState(() => {
      if (panel.visible) this.beginVisit();
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.beginVisit();
  }

  private get media(): vscode.Uri {
    return vscode.Uri.joinPath(this.ctx.extension.extensionUri, 'media');
  }

  /** The digest page in a webview (the sidebar view's or the editor tab's), and what it sends back. */
  private attach(webview: vscode.Webview): void {
    webview.options = { enableScripts: true, localResourceRoots: [this.media] };
    webview.html = digestHtml(webview, this.media);
    webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = digestWebviewMessageSchema.safeParse(raw);
      if (!parsed.success) {
        this.ctx.log.warn('ignored a malformed message from the digest view');
        return;
      }
      const message = parsed.data;
      if (message.type === 'ready') this.reload(true);
      else if (message.type === 'command') void vscode.commands.executeCommand(message.command);
      else this.switchTo(message.type === 'open' ? { kind: 'published', toSeq: message.toSeq } : message.view === 'catchUp' && this.catchUpFrom !== null ? { kind: 'catchUp', fromSeq: this.catchUpFrom } : { kind: 'live' });
    });
  }

  /** The person looks again: what is new since the last event this view showed them is the catch-up. */
  private beginVisit(): void {
    const seen = this.ctx.extension.globalState.get<number>(this.seenKey());
    this.catchUpFrom = seen !== undefined ? seen + 1 : null;
    this.shownNow = this.requested ?? (this.catchUpFrom !== null ? { kind: 'catchUp', fromSeq: this.catchUpFrom } : { kind: 'live' });
    this.requested = undefined;
    this.history = undefined;
    this.reload(true);
  }

  private switchTo(shown: DigestShown): void {
    this.shownNow = shown;
    this.reload(true);
  }

  private seenKey(): string {
    return `fleet.digest.lastSeenSeq:${this.ctx.config.home}`;
  }

  /** Loads the digest again if the view is showing; bursts of changes cost one load a second. */
  reload(now = false): void {
    if (!this.visible) return;
    if (this.loading) {
      this.again = true;
      return;
    }
    const wait = now ? 0 : Math.max(0, this.last + MIN_INTERVAL_MS - Date.now());
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.reload(true);
      }, wait);
      return;
    }
    void this.load();
  }

  private async load(): Promise<void> {
    this.loading = true;
    this.last = Date.now();
    const state = this.ctx.state;
    const connection = { status: state?.connection.status ?? 'connecting', message: state?.connection.message ?? null, home: state?.connection.home ?? '' };
    const shown = this.shownNow;
    const base = { connection, shown, catchUpFrom: this.catchUpFrom };
    let model: DigestModel;
    try {
      if (!this.ctx.connected) {
        model = { ...base, digest: null, error: null, history: [] };
      } else {
        this.history ??= (await this.ctx.request('fleet/digestHistory', { limit: HISTORY_LENGTH })).digests;
        const digest = await this.fetch(shown, this.history);
        model = { ...base, digest, error: digest ? null : 'That digest is no longer in FLEET_HOME/digests.', history: this.history.map(summary) };
        // A load that lands after the person left was not seen: it must not shorten the next catch-up.
        if (digest && shown.kind !== 'published' && this.visible) await this.seen(digest.toSeq);
      }
    } catch (error) {
      model = { ...base, digest: null, error: error instanceof Error ? error.message : String(error), history: [] };
    } finally {
      this.loading = false;
    }
    this.model = model;
    for (const webview of [this.view?.webview, this.panel?.webview]) void webview?.postMessage({ type: 'digest', model });
    this.changed.fire(model);
    if (this.again) {
      this.again = false;
      this.reload();
    }
  }

  private async fetch(shown: DigestShown, history: Digest[]): Promise<Digest | null> {
    if (shown.kind === 'published') return history.find((digest) => digest.toSeq === shown.toSeq) ?? null;
    return (await this.ctx.request('fleet/digest', shown.kind === 'catchUp' ? { sinceSeq: shown.fromSeq } : {})).digest;
  }

  private async seen(toSeq: number): Promise<void> {
    const before = this.ctx.extension.globalState.get<number>(this.seenKey());
    if (before === undefined || toSeq > before) await this.ctx.extension.globalState.update(this.seenKey(), toSeq);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

function summary(digest: Digest): DigestSummary {
  return { fromSeq: digest.fromSeq, toSeq: digest.toSeq, generatedAt: digest.generatedAt, blockers: digest.blockers.length, eventCount: digest.eventCount };
}

function digestHtml(webview: vscode.Webview, media: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'digest.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'digest.css'));
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`, `img-src ${webview.cspSource}`, `font-src ${webview.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${style.toString()}">
  <title>Fleet Digest</title>
</head>
<body>
  <main id="digest" aria-live="polite"><p class="muted">Waiting for the coordination plane…</p></main>
  <script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
