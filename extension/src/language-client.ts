import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
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
  return new LanguageClient('fleet', 'Fleet Coordination', serverOptions, clientOptions);
}
