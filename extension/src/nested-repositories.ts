import * as vscode from 'vscode';
import type { FleetContext } from './fleet-context.js';

/** What this extension uses of the built-in git extension's API (extensions/git/src/api/git.d.ts, version 1). */
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): { openRepository(root: vscode.Uri): Promise<unknown> };
}

/**
 * Asks VS Code's git extension to open each repository the language server finds inside a
 * workspace folder with fleet activity (fleet demo --here's): git never opens one that deep by
 * itself, so the folder's repository judged its files, called them ignored, and its grey coloured
 * Fleet's badges. Once per root; a repository the person closed stays closed (git keeps that
 * choice). Without git (disabled, or the extension absent) it says so once and does nothing.
 */
export class NestedRepositories implements vscode.Disposable {
  private readonly asked = new Set<string>();
  private saidWhyNot = false;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly ctx: FleetContext) {
    this.subscription = ctx.onDidFindNestedRepository((root) => void this.open(root));
  }

  private async open(root: string): Promise<void> {
    if (this.asked.has(root)) return;
    this.asked.add(root);
    try {
      const git = await gitApi();
      if (git) {
        await git.openRepository(vscode.Uri.file(root));
        this.ctx.log.info(`asked git to open ${root}, a repository with fleet activity inside a workspace folder, so its own repository judges its files`);
      } else if (!this.saidWhyNot) {
        this.saidWhyNot = true;
        this.ctx.log.info(`the git extension is disabled or absent: repositories inside a workspace folder (${root}) are left to it, and their files may show as ignored`);
      }
    } catch (error) {
      this.ctx.log.warn(`git did not open ${root}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

async function gitApi(): Promise<ReturnType<GitExtension['getAPI']> | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  // `git.enabled` off: the extension runs without a model, and getAPI would throw.
  return exports.enabled ? exports.getAPI(1) : undefined;
}
