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
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }],
    diagnosticCollectionName: 'fleet',
    outputChannel: log,
    initializationOptions,
    markdown: { isTrusted: false, supportThemeIcons: true },
  };
  return new FleetLanguageClient('fleet', 'Fleet Coordination', serverOptions, clientOptions);
}

/**
 * A hover, CodeLens or code action VS Code asked for just as the client stops (a restart, a window
 * closing) fails inside vscode-languageclient with "Starting server failed": nothing went wrong,
 * the server it asked is going away and VS Code asks the next one. Answer nothing, log nothing.
 */
class FleetLanguageClient extends LanguageClient {
  override handleFailedRequest<T>(type: MessageSignature, token: CancellationToken | undefined, error: unknown, defaultValue: T, showNotification?: boolean, throwOnCancel?: boolean): T {
    if (!this.isRunning()) return defaultValue;
    return super.handleFailedRequest(type, token, error, defaultValue, showNotification, throwOnCancel);
  }
}
