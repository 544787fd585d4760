// The decisions of the Claude Code PreToolUse hook, from node builtins only: the full CLI verb
// (claude-pre-tool-use.ts) and the lean hook runner (lean/) both decide through these.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { absolutePath, existingDirectory, realPath } from '../gate/real-path.js';
import { repositoryDirectory } from '../gate/repository-directory.js';
import { explainCommandRefusal } from './command-refusal.js';
import type { CommandVerdict, HookVerdict } from './hook-check.js';
import { hookEnvironment, type CommandCheckRequest, type HookCheckRequest } from './hook-check-request.js';
import { explainRefusal } from './refusal-message.js';
import { pathArguments, projectOf, toolMayWrite } from './tool-path-arguments.js';

/** The tools Claude Code writes files with; the settings `fleet install-hooks` writes match these. */
export const CLAUDE_WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;
/** Claude Code's shell tool: its command is parsed and judged by the plane. */
export const CLAUDE_SHELL_TOOL = 'Bash';
/** MCP tools are named mcp__<server>__<tool>: a write tool of any server whose input names a path is checked like Write. */
export const CLAUDE_MCP_TOOLS = 'mcp__.*';
/** MCP tools that run a shell command in the project (Serena's, JetBrains'): judged as the shell's. */
const MCP_SHELL_TOOLS = ['execute_shell_command', 'execute_terminal_command'];
/**
 * VS Code agent mode (Copilot) runs the hooks of .claude/settings*.json on its own tools, matchers
 * ignored. Its terminal tool, whose `command` runs in the workspace's terminal: run_in_terminal as
 * the payload names it (VS Code's RunInTerminalToolData id), runInTerminal (its reference name),
 * runTerminalCommand (the name VS Code's hooks docs use in their example).
 */
export const VSCODE_TERMINAL_TOOLS = ['run_in_terminal', 'runInTerminal', 'runTerminalCommand'];
/**
 * What the hook prints on stdout; it always exits 0 (Claude Code's protocol for a decision). An
 * allow may carry a note the model reads (additionalContext, with no permissionDecision: the
 * runtime's own permission rules still decide, DESIGN §16).
 */
export type ClaudeHookAnswer = { decision: 'allow'; context?: string } | { decision: 'deny'; reason: string };

/** The part of a PreToolUse event the hook reads. */
export interface ToolEvent {
  tool_name: string;
  tool_input?: Record<string, unknown> | undefined;
  cwd?: string | undefined;
  session_id?: unknown;
}

/** The runtimes' PreToolUse hooks that judge tool calls (Claude Code's, Codex's). */
export type ToolHook = 'claude-pre-tool-use' | 'codex-pre-tool-use';

/** Who writes, as every check of a tool hook names them: an agent for certain, maybe FLEET_AS, the payload's session and FLEET_OVERRIDE. */
export function toolCallWriter(hook: ToolHook, home: string, env: NodeJS.ProcessEnv, sessionId: string | undefined, runtimePids?: number[]) {
  const { callsign, override } = hookEnvironment(env);
  return { home, hook, fromRuntime: true, ...(callsign !== undefined && { callsign }), ...(sessionId !== undefined && { sessionId }), ...(override !== undefined && { override }), ...(runtimePids !== undefined && { runtimePids }) };
}
type Writer = ReturnType<typeof toolCallWriter>;

/** What to ask the plane about files a tool writes (absolute, or relative to cwd), or the answer when there are none. */
export function planFileCheck(writer: Writer, cwd: string, targets: string[]): { request: HookCheckRequest } | { answer: ClaudeHookAnswer } {
  if (targets.length === 0) return { answer: { decision: 'allow' } };
  // Checked as real paths, in the repository they really are in (a link may lead out of one into another).
  const files = targets.map((target) => realPath(absolutePath(cwd, target)));
  return { request: { ...writer, root: existingDirectory(dirname(files[0]!)), paths: files, worktree: cwd } };
}

/** What to ask the plane about a shell command, or the answer when there is no command. */
export function planShellCheck(writer: Writer, cwd: string, command: unknown): { request: CommandCheckRequest } | { answer: ClaudeHookAnswer } {
  if (typeof command !== 'string' || command.trim() === '') return { answer: { decision: 'allow' } };
  return { request: { ...writer, command, cwd } };
}

/** A shell command a tool call runs, and the directory it runs in. */
export interface ShellCall {
  command: string;
  cwd: string;
}

/** The shell command of a tool call, if it runs one: the shell tool's, in the session's cwd; an MCP shell tool's, in the project root (Serena's `cwd` relative to it). */
export function shellCall(tool: string, input: Record<string, unknown>, cwd: string): ShellCall | undefined {
  const command = typeof input.command === 'string' ? input.command : '';
  if (tool === CLAUDE_SHELL_TOOL || VSCODE_TERMINAL_TOOLS.includes(tool)) return { command, cwd };
  const mcp = mcpToolName(tool);
  if (mcp === undefined || !MCP_SHELL_TOOLS.includes(mcp)) return undefined;
  const root = projectRoot(cwd);
  return { command, cwd: typeof input.cwd === 'string' ? resolve(root, input.cwd) : root };
}

/** The project an MCP server works on, as it sees it: the repository cwd is in (cwd itself outside one). */
function projectRoot(cwd: string): string {
  return repositoryDirectory(cwd) ?? cwd;
}

/**
 * A tool call whose writes no check before it sees exactly (a shell's, an MCP tool's): PreToolUse
 * marks the worktree for it, so PostToolUse can tell what it changed. A file tool is checked exactly,
 * and VS Code runs the hook on every tool it has (reads too): those take no mark.
 */
export function writesUnseen(tool: string): boolean {
  // MCP tools: Claude Code names them mcp__<server>__<tool>, VS Code mcp_<server>_<tool>.
  return tool === CLAUDE_SHELL_TOOL || VSCODE_TERMINAL_TOOLS.includes(tool) || tool.startsWith('mcp_');
}

/** An MCP tool's own name, without its mcp__<server>__ prefix; undefined for a runtime's own tool. */
function mcpToolName(tool: string): string | undefined {
  return /^mcp__.+?__(.+)$/.exec(tool)?.[1];
}

/** The plane's verdict on a shell command as the hook's answer. */
export function answerForCommandVerdict(verdict: CommandVerdict): ClaudeHookAnswer {
  return verdict.allowed ? { decision: 'allow' } : deny(explainCommandRefusal(verdict));
}

/** The plane's verdict on the files as the hook's answer. */
export function answerForVerdict(verdict: HookVerdict, hook: ToolHook = 'claude-pre-tool-use'): ClaudeHookAnswer {
  if (verdict.allowed || verdict.overridden) return { decision: 'allow' };
  return deny(explainRefusal(verdict, { hook }));
}

/** The answer when a check failed: `errorName` is the plane's error, if it answered with one. */
export function answerForFailure(errorName: string | undefined, message: string, override: string | undefined): ClaudeHookAnswer {
  // Territory is per repository: a file outside every repository is nobody's.
  if (errorName === 'OUTSIDE_REPOSITORY') return { decision: 'allow' };
  if (override !== undefined) return { decision: 'allow' };
  return deny(`The fleet could not check this write (${message}). Writes stay refused until the check works; the operator can let one through with FLEET_OVERRIDE="<reason>".`);
}

/** The answer as Claude Code reads it from stdout. */
export function claudeHookOutput(answer: ClaudeHookAnswer): string {
  if (answer.decision === 'allow') return answer.context === undefined ? '' : `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: answer.context } })}\n`;
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`;
}

export function deny(reason: string): ClaudeHookAnswer {
  return { decision: 'deny', reason };
}

/**
 * The files a tool call writes (absolute, or relative to cwd): a Claude Code file tool's file_path;
 * else, for a tool that may write (an MCP tool's, VS Code agent mode's own: tool-path-arguments.ts),
 * what its path arguments name and the files a patch in its input names. An MCP server works on the
 * project: its relative paths are relative to the project (its `projectPath`, else the repository
 * cwd is in), whatever the session's cwd. Codex's hook reads MCP tools through it too.
 */
export function writtenPaths(tool: string, input: Record<string, unknown>, cwd: string): string[] {
  if ((CLAUDE_WRITE_TOOLS as readonly string[]).includes(tool)) {
    const target = input.file_path ?? input.notebook_path;
    return typeof target === 'string' && target !== '' ? [target] : [];
  }
  const mcp = mcpToolName(tool);
  const name = mcp ?? tool;
  // The fleet's own tools (mcp__fleet__fleet_…, VS Code's mcp_fleet_fleet_…) name paths to check or claim, not to write.
  if (/(^|_)fleet_/.test(name) || !toolMayWrite(name)) return [];
  const base = mcp === undefined ? cwd : (projectOf(input) ?? projectRoot(cwd));
  return pathArguments(input).flatMap((path) => diskPath(path) ?? []).map((path) => absolutePath(base, path));
}

/**
 * A path as a tool named it: VS Code's tools take file URIs as well as paths (a remote window's
 * vscode-remote URI is a path where the hook runs); undefined for a URI that is no file on disk.
 */
function diskPath(named: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]+:\/\//i.test(named)) return named;
  try {
    const url = new URL(named);
    if (url.protocol === 'file:') return fileURLToPath(url);
    return url.protocol === 'vscode-remote:' ? decodeURIComponent(url.pathname) : undefined;
  } catch {
    return undefined;
  }
}
