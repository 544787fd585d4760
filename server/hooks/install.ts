import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CLAUDE_SETTINGS_SCOPES, installClaudeHooks, uninstallClaudeHooks, type ClaudeSettingsScope } from './claude-settings.js';
import { codexHooksTrust } from './codex-hook-trust.js';
import { installCodexHooks, uninstallCodexHooks } from './codex-hooks-file.js';
import { commonDirectory, worktreeRoot } from './git.js';
import { installGitHook, uninstallGitHook } from './git-hook-install.js';
import { ensureLauncher } from './launcher.js';

/** What the install created (rather than edited), so the uninstall takes out exactly that. */
const manifestSchema = z.object({
  claudeSettingsCreated: z.boolean().default(false),
  claudeLocalSettingsCreated: z.boolean().default(false),
  claudeDirCreated: z.boolean().default(false),
  codexHooksCreated: z.boolean().default(false),
});
type Manifest = z.infer<typeof manifestSchema>;

export interface HookSelection {
  git: boolean;
  claude: boolean;
  codex: boolean;
  /** Where the Claude Code hooks go: settings.local.json (default: absolute paths stay on this machine) or the shared settings.json. */
  claudeScope?: ClaudeSettingsScope;
}

const createdKey = (scope: ClaudeSettingsScope) => (scope === 'local' ? 'claudeLocalSettingsCreated' : 'claudeSettingsCreated');

/** The repository root of `cwd`, or an error that says what to do. */
export function repositoryRoot(cwd: string): string {
  const root = worktreeRoot(cwd);
  if (root === undefined) throw new Error(`${cwd} is not inside a git repository: hooks are installed per repository, so run this inside one (or pass --root)`);
  return root;
}

/** Installs the git pre-commit hook and the Claude Code hook; running it again changes nothing. */
export function installHooks(root: string, home: string, selection: HookSelection, env: NodeJS.ProcessEnv = process.env): string[] {
  const report: string[] = [];
  const launcher = ensureLauncher(home);
  if (launcher.created) report.push(`wrote the launcher ${launcher.path} (it runs this checkout's CLI)`);
  const manifest = readManifest(root);
  if (selection.git) {
    const { target, outcome } = installGitHook(root, home, launcher.path);
    report.push(`git pre-commit hook ${outcome}: ${target.path}${target.mode === 'husky' ? ' (husky: as a block in your hook)' : ''}${outcome === 'chained' && target.mode === 'file' ? ' (your hook runs after the check)' : ''}`);
  }
  if (selection.claude) {
    const scope = selection.claudeScope ?? 'local';
    const result = installClaudeHooks(root, home, launcher.path, scope);
    if (result.createdFile) manifest[createdKey(scope)] = true;
    if (result.createdDir) manifest.claudeDirCreated = true;
    report.push(`Claude Code hooks (PreToolUse, PostToolUse, SessionStart, SessionEnd, Notification) ${result.outcome}: ${result.path}`);
    // Moved, not doubled: the fleet's hooks in the other settings file (an older install) come out.
    const other = CLAUDE_SETTINGS_SCOPES.find((s) => s !== scope)!;
    const moved = uninstallClaudeHooks(root, other, { file: manifest[createdKey(other)], dir: false });
    if (moved.outcome === 'removed') report.push(`Claude Code hooks removed from ${moved.path}`);
    manifest[createdKey(other)] = false;
  }
  if (selection.codex) {
    const result = installCodexHooks(root, home, launcher.path, env);
    if (result.createdFile) manifest.codexHooksCreated = true;
    report.push(`Codex hooks (PreToolUse, PostToolUse, SessionStart, PermissionRequest) ${result.outcome}: ${result.path}`);
    const trust = codexHooksTrust((hookRoot) => hookRoot === root, env);
    if (trust) report.push(trust.summary);
  }
  writeManifest(root, manifest);
  return report;
}

/** Removes what installHooks put in, leaving everything else as it was. */
export function uninstallHooks(root: string, selection: HookSelection, env: NodeJS.ProcessEnv = process.env): string[] {
  const report: string[] = [];
  const manifest = readManifest(root);
  if (selection.git) {
    const { target, outcome } = uninstallGitHook(root);
    report.push(`git pre-commit hook ${outcome === 'restored' ? 'removed, and the hook it chained is back' : outcome === 'removed' ? 'removed' : 'was not installed'}: ${target.path}`);
  }
  if (selection.claude) {
    for (const scope of CLAUDE_SETTINGS_SCOPES) {
      const { path, outcome } = uninstallClaudeHooks(root, scope, { file: manifest[createdKey(scope)], dir: manifest.claudeDirCreated });
      report.push(`Claude Code hooks ${outcome === 'removed' ? 'removed' : 'were not installed'}: ${path}`);
      manifest[createdKey(scope)] = false;
    }
    manifest.claudeDirCreated = false;
  }
  if (selection.codex) {
    const { path, outcome, moved } = uninstallCodexHooks(root, env, manifest.codexHooksCreated);
    report.push(`Codex hooks ${outcome === 'removed' ? 'removed' : 'were not installed'}: ${path}`);
    if (moved > 0) report.push(`${moved} other Codex hook(s) in ${path} moved up into the place of the fleet's: Codex keys trust by place, so open Codex and run /hooks to trust them again`);
    manifest.codexHooksCreated = false;
  }
  writeManifest(root, manifest);
  return report;
}

function manifestPath(root: string): string {
  return join(commonDirectory(root), 'fleet-hooks.json');
}

function readManifest(root: string): Manifest {
  try {
    return manifestSchema.parse(JSON.parse(readFileSync(manifestPath(root), 'utf8')));
  } catch {
    return manifestSchema.parse({});
  }
}

function writeManifest(root: string, manifest: Manifest): void {
  const path = manifestPath(root);
  if (!Object.values(manifest).some(Boolean)) {
    if (existsSync(path)) unlinkSync(path);
    return;
  }
  writeFileSync(path, `${JSON.stringify(manifest)}\n`);
}
