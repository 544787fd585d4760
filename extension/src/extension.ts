import { delimiter, dirname, isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { FleetApi } from './api.js';
import { registerAttentionCommands } from './commands/attention-commands.js';
import { registerControlCommands } from './commands/control-commands.js';
import { registerOperatorCommands } from './commands/operator-commands.js';
import { registerTerritoryCommands } from './commands/territory-commands.js';
import { FleetConfig } from './config.js';
import { trackContextKeys } from './context-keys.js';
import { EditGuard } from './edit-guard.js';
import { EditorEdits } from './editor-edits.js';
import { FleetFileDecorations } from './file-decorations.js';
import { FleetContext } from './fleet-context.js';
import { installLauncher } from './launcher.js';
import { registerMcpProvider } from './mcp-provider.js';
import { NestedRepositories } from './nested-repositories.js';
import { FleetNotifications } from './notifications.js';
import { OwnershipCache } from './ownership-cache.js';
import { ReadonlyGuard } from './readonly-guard.js';
import { FleetStatusBar } from './status-bar.js';
import { AttentionView } from './views/attention-view.js';
import { DigestView } from './views/digest-view.js';
import { RosterView } from './views/roster-view.js';
import { TerritoryView } from './views/territory-view.js';
import { TreeCounter } from './views/tree-counter.js';
import { ViolatedFiles } from './violated-files.js';
import { ForecastFiles } from './forecast-files.js';
import { WorkView } from './views/work-view.js';

/** How long closing the window waits for the language server to stop (VS Code allows deactivate a few seconds). */
const DEACTIVATE_TIMEOUT_MS = 4_000;
let running: FleetContext | undefined;

/** Wires the parts together; each part owns its own behaviour and is disposed with the extension. */
export async function activate(extension: vscode.ExtensionContext): Promise<FleetApi> {
  const config = new FleetConfig();
  const ctx = new FleetContext(extension, config);
  running = ctx;
  const ownership = new OwnershipCache(ctx);
  const violated = new ViolatedFiles(ctx);
  const forecast = new ForecastFiles(ctx);
  const decorations = new FleetFileDecorations(ownership, violated, forecast, config, (id) => ctx.records?.workItem(id));
  const statusBar = new FleetStatusBar(ctx);
  const trees = new TreeCounter();
  const territory = new TerritoryView(ctx, config, trees);
  const editorEdits = new EditorEdits();
  const editGuard = new EditGuard(config, ownership, editorEdits);
  const notifications = new FleetNotifications(ctx, config);
  const digest = new DigestView(ctx);
  const attention = new AttentionView(ctx);
  const work = new WorkView(ctx, trees);
  const mcp = registerMcpProvider(extension, config, ctx.log);
  const readonlyGuard = new ReadonlyGuard(ctx, config, ownership);
  let launcher: string | undefined;

  extension.subscriptions.push(
    config,
    ctx,
    trees,
    ownership,
    violated,
    forecast,
    decorations,
    vscode.window.registerFileDecorationProvider(decorations),
    statusBar,
    new RosterView(ctx, config, trees),
    territory,
    work,
    digest,
    attention,
    editorEdits,
    editGuard,
    readonlyGuard,
    notifications,
    new NestedRepositories(ctx),
    trackContextKeys(ctx, config),
    ...registerControlCommands(ctx),
    ...registerTerritoryCommands(ctx, territory, ownership),
    ...registerOperatorCommands(ctx),
    ...registerAttentionCommands(ctx, attention),
    mcp.disposable,
    config.onDidChange((event) => {
      if (!event.affectsConfiguration('fleet.home')) return;
      ctx.restart().catch((error: Error) => ctx.log.error(`the Fleet language server did not restart: ${error.message}`));
      void installCli();
    }),
  );

  const installCli = () =>
    !isAbsolute(config.home) ? ctx.log.warn(`the fleet CLI launcher was not installed: FLEET_HOME "${config.home}" is relative`) :
    installLauncher(config.home, extension.asAbsolutePath('dist/fleet.cjs'), process.execPath).then(
      (path) => {
        launcher = path;
        // Terminals opened in VS Code find `fleet` (agents started there among them); one mutator per
        // variable, so a new FLEET_HOME replaces the old entry.
        extension.environmentVariableCollection.description = 'Puts the fleet CLI (FLEET_HOME/bin/fleet) on PATH';
        extension.environmentVariableCollection.prepend('PATH', `${dirname(path)}${delimiter}`);
        ctx.log.info(`the fleet CLI launcher is ${path}; VS Code terminals have it on PATH`);
      },
      (error: Error) => ctx.log.warn(`the fleet CLI launcher was not installed: ${error.message}`),
    );
  void installCli();
  void ctx.start().catch((error: Error) => ctx.log.error(`the Fleet language server did not start: ${error.message}`));

  return {
    apiVersion: 1,
    state: () => ctx.state,
    onDidChangeState: ctx.onDidChangeState,
    ownership: (uri) => ownership.lookup(uri),
    fileDecoration: async (uri) => (await decorations.provideFileDecoration(uri)) ?? undefined,
    onDidChangeFileDecorations: decorations.onDidChangeFileDecorations,
    onDidChangeFleet: ctx.onDidChangeFleet,
    treeWork: () => trees.snapshot,
    onDidBuildTreeItem: trees.onDidBuild,
    territory: () => territory.rows(),
    onDidChangeTerritory: (listener, thisArgs, disposables) => territory.onDidChangeTreeData(() => listener.call(thisArgs, undefined), undefined, disposables),
    statusBar: () => statusBar.snapshot,
    readonlyFiles: () => readonlyGuard.files,
    onDidChangeReadonly: readonlyGuard.onDidChange,
    onDidWarn: editGuard.onDidWarn,
    onDidRevert: editGuard.onDidRevert,
    onDidNotify: notifications.onDidNotify,
    codexHooks: () => ctx.codexHooks,
    onDidChangeCodexHooks: ctx.onDidChangeCodexHooks,
    workRows: (depth) => work.rows(depth),
    onDidRepaintWork: work.onDidRepaint,
    attention: () => attention.list,
    onDidChangeAttention: attention.onDidChange,
    digest: () => digest.shown,
    onDidChangeDigest: digest.onDidChange,
    digestVisible: () => digest.visible,
    launcher: () => launcher,
    mcp: mcp.status,
  };
}

/**
 * VS Code disposes the subscriptions without waiting for them: only what deactivate returns is
 * waited for, so this is where the language server gets its shutdown and exit (vscode-languageclient's
 * documented pattern), within a bound so a stuck server cannot hold the window.
 */
export async function deactivate(): Promise<void> {
  const ctx = running;
  running = undefined;
  if (!ctx) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, DEACTIVATE_TIMEOUT_MS)));
  await Promise.race([ctx.stop().catch((error: Error) => ctx.log.warn(`the Fleet language server did not stop: ${error.message}`)), bound]);
  clearTimeout(timer);
}
