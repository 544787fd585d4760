import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type CancellationToken, type LanguageClientOptions, type MessageSignature, type ServerOptions } from 'vscode-languageclient/node';
import type { LspInitializationOptions } from '../../contracts/lsp.js';

/**
 * The Fleet language server as vscode-languageclient starts it: a Node module over IPC, for every
 * file of the window (ownership is about files, not languages). The initialization options are
 * read at each (re)start, so a changed FLEET_HOME or a joined operator carries over.
 */
export function createLanguageClient(
  extension: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  initializationOptions: () => LspInitializationOptions,
): LanguageClient {
  const module = extension.asAbsolutePath('dist/language-server.cjs');
  const serverOptions: ServerOptions = { module, transport: TransportKind.ipc };
  /** A document opened or closed as the client stops: the server going away need not hear of it. */
  const quietWhenStopped = (document: vscode.TextDocument, next: (document: vscode.TextDocument) => Promise<void>) =>
    next(document).catch((error: unknown) => {
      if (client.isRunning()) throw error;
    });
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }],
    diagnosticCollectionName: 'fleet',
    outputChannel: log,
    initializationOptions,
    markdown: { isTrusted: false, supportThemeIcons: true },
    middleware: { didOpen: quietWhenStopped, didClose: quietWhenStopped },
  };
  // The middleware above only ever runs once the client exists.
  const client = new FleetLanguageClient('fleet', 'Fleet Coordination', serverOptions, clientOptions);
  return client;
}

/**
 * What VS Code asks (a hover, CodeLens, a code action) or tells (a document opened or closed) just
 * as the client stops, for a restart or the window closing, fails inside vscode-languageclient with
 * "Starting server failed": nothing went wrong, the server is going away and the next one is asked
 * or told afresh. Requests answer nothing then and log nothing.
 */
class FleetLanguageClient extends LanguageClient {
  override handleFailedRequest<T>(type: MessageSignature, token: CancellationToken | undefined, error: unknown, defaultValue: T, showNotification?: boolean, throwOnCancel?: boolean): T {
    if (!this.isRunning()) return defaultValue;
    return super.handleFailedRequest(type, token, error, defaultValue, showNotification, throwOnCancel);
  }
}
