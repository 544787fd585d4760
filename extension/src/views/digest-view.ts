import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Digest } from '../../../contracts/index.js';
import { digestWebviewMessageSchema } from '../../../contracts/lsp.js';
import type { FleetContext } from '../fleet-context.js';

const MIN_INTERVAL_MS = 1000;

/** What the webview renders. */
export interface DigestModel {
  connection: { status: string; message: string | null; home: string };
  digest: Digest | null;
  error: string | null;
}

/**
 * The Digest webview view: the heartbeat digest of what happened since the last published one
 * (per-agent progress, build status, blockers, stale agents, claims acquired and released, handoffs,
 * work completed, the control switch), reloaded while visible as the fleet changes, at most once a
 * second. Strict CSP with a nonce; script and style come from media/; messages back are parsed.
 */
export class DigestView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly subscriptions: vscode.Disposable[];
  private loading = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private model: DigestModel | undefined;

  constructor(private readonly ctx: FleetContext) {
    this.subscriptions = [
      vscode.window.registerWebviewViewProvider('fleet.digest', this),
      ctx.onDidChangeState(() => this.reload()),
      ctx.onDidPublishDigest(() => this.reload()),
    ];
  }

  /** The last model sent to the webview (what the view shows), for the extension's API. */
  get shown(): DigestModel | undefined {
    return this.model;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.ctx.extension.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = digestHtml(view.webview, media);
    view.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = digestWebviewMessageSchema.safeParse(raw);
      if (!parsed.success) {
        this.ctx.log.warn('ignored a malformed message from the digest view');
        return;
      }
      if (parsed.data.type === 'ready') this.reload(true);
      else void vscode.commands.executeCommand(parsed.data.command);
    });
    view.onDidChangeVisibility(() => view.visible && this.reload(true));
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
  }

  /** Loads the digest again if the view is showing; bursts of changes cost one load a second. */
  reload(now = false): void {
    if (!this.view?.visible) return;
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
    let model: DigestModel;
    try {
      model = this.ctx.connected ? { connection, digest: (await this.ctx.request('fleet/digest', {})).digest, error: null } : { connection, digest: null, error: null };
    } catch (error) {
      model = { connection, digest: null, error: error instanceof Error ? error.message : String(error) };
    } finally {
      this.loading = false;
    }
    this.model = model;
    void this.view?.webview.postMessage({ type: 'digest', model });
    if (this.again) {
      this.again = false;
      this.reload();
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
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
