import * as vscode from 'vscode';
import type { FleetConfig } from './config.js';

/**
 * The MCP server definition provider API (`vscode.lm.registerMcpServerDefinitionProvider`) is final
 * from VS Code 1.101; `@types/vscode` stays at the minimum engine (1.100), so the little used here
 * is declared locally and detected at run time (on 1.100 the call throws: a proposed API there).
 */
interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<unknown[]>;
}
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): vscode.Disposable;
}
type McpStdioServerDefinitionCtor = new (label: string, command: string, args: string[], env?: Record<string, string | number | null>, version?: string) => { cwd?: vscode.Uri };

export interface McpStdioDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface McpProviderStatus {
  available: boolean;
  /** Why not, when not. */
  reason?: string;
  definitions: McpStdioDefinition[];
}

/**
 * Offers the fleet's MCP bridge (`fleet mcp`, the CLI bundled with this extension) to VS Code's
 * agent mode, so Copilot and other in-editor agents reach the same plane with the same tools as
 * terminal agents. The provider id is declared in the manifest (contributes.mcpServerDefinitionProviders).
 */
export function registerMcpProvider(extension: vscode.ExtensionContext, config: FleetConfig, log: vscode.LogOutputChannel): { status: () => McpProviderStatus; disposable: vscode.Disposable } {
  const cli = extension.asAbsolutePath('dist/fleet.cjs');
  const definition = (): McpStdioDefinition => ({
    label: 'Fleet Coordination',
    // In desktop VS Code this is Electron; ELECTRON_RUN_AS_NODE makes it a plain Node.
    command: process.execPath,
    args: [cli, 'mcp', '--home', config.home],
    env: { ELECTRON_RUN_AS_NODE: '1', FLEET_HOME: config.home },
    ...(vscode.workspace.workspaceFolders?.[0] && { cwd: vscode.workspace.workspaceFolders[0].uri.fsPath }),
  });
  const lm = (vscode as unknown as { lm?: Partial<McpApi> }).lm;
  const Stdio = (vscode as unknown as { McpStdioServerDefinition?: McpStdioServerDefinitionCtor }).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Stdio !== 'function') {
    return { status: () => ({ available: false, reason: `VS Code ${vscode.version} has no MCP server definition API`, definitions: [] }), disposable: new vscode.Disposable(() => undefined) };
  }
  const changed = new vscode.EventEmitter<void>();
  try {
    const registration = lm.registerMcpServerDefinitionProvider('fleet', {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const { label, command, args, env, cwd } = definition();
        const server = new Stdio(label, command, args, env, extension.extension.packageJSON.version as string);
        if (cwd) server.cwd = vscode.Uri.file(cwd);
        return [server];
      },
    });
    const homeChanged = config.onDidChange((event) => event.affectsConfiguration('fleet.home') && changed.fire());
    log.info('the fleet MCP server is offered to VS Code agent mode');
    return { status: () => ({ available: true, definitions: [definition()] }), disposable: vscode.Disposable.from(registration, homeChanged, changed) };
  } catch (error) {
    changed.dispose();
    const reason = `VS Code ${vscode.version} refused the MCP server definition provider (final from 1.101): ${error instanceof Error ? error.message : String(error)}`;
    log.info(reason);
    return { status: () => ({ available: false, reason, definitions: [] }), disposable: new vscode.Disposable(() => undefined) };
  }
}
