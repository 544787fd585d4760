// What a hook asks the plane (fleet_hook_check, fleet_hook_check_command), built from node builtins only: the full CLI and the
// lean hook runner (server/hooks/lean/) both send exactly these params.
import { runtimeAncestry } from './runtime-ancestry.js';

export interface HookCheckRequest {
  home: string;
  hook: 'git-pre-commit' | 'claude-pre-tool-use' | 'claude-post-tool-use' | 'codex-pre-tool-use' | 'codex-post-tool-use';
  root: string;
  paths: string[];
  /** FLEET_AS, when the writer says who it is. */
  callsign?: string;
  /** The hook payload's session_id: the agent its SessionStart bound writes, when FLEET_AS is unset. */
  sessionId?: string;
  /** Where the write happens, to find the agent that registered this worktree at join. */
  worktree?: string;
  /** An agent runtime's hook: operator and impersonation commands are refused even for a session that has not joined. */
  fromRuntime?: boolean;
  /** FLEET_OVERRIDE: the operator's reason for writing anyway. */
  override?: string;
  /** A PreToolUse hook's mark for the call, taken by the plane if it lets the call through. */
  mark?: MarkAsked;
  /** The processes the hook runs under, where they are not the running process's (the plane answering a hook front). */
  runtimePids?: number[];
}

/** The worktree a tool call runs in and its tool: the watcher's mark of it, asked with the check (fleet_hook_check's `mark`). */
export interface MarkAsked {
  worktree: string;
  source: string;
}

/** Paths per fleet_hook_check call (the method's list limit is above it). */
export const HOOK_CHECK_BATCH = 1000;

/** The fleet_hook_check params for `paths` (a batch of the request's paths); the mark is asked with a request of one batch only (a later batch may refuse). */
export function hookCheckParams(request: HookCheckRequest, paths: string[]): Record<string, unknown> {
  return {
    paths,
    root: request.root,
    hook: request.hook,
    ...writerHints(request),
    ...(request.worktree !== undefined && { worktree: request.worktree }),
    ...(request.override !== undefined && { override: request.override }),
    ...(request.fromRuntime && { fromRuntime: true }),
    ...(request.mark !== undefined && request.paths.length <= HOOK_CHECK_BATCH && { mark: request.mark }),
  };
}

export interface CommandCheckRequest {
  home: string;
  hook: 'claude-pre-tool-use' | 'codex-pre-tool-use';
  command: string;
  /** The session's directory: relative paths resolve here, and it finds the writing agent. */
  cwd: string;
  callsign?: string;
  sessionId?: string;
  fromRuntime?: boolean;
  override?: string;
  mark?: MarkAsked;
  runtimePids?: number[];
}

/** The fleet_hook_check_command params: the plane parses and judges the command. */
export function commandCheckParams(request: CommandCheckRequest): Record<string, unknown> {
  return {
    command: request.command,
    cwd: request.cwd,
    hook: request.hook,
    ...writerHints(request),
    ...(request.override !== undefined && { override: request.override }),
    ...(request.fromRuntime && { fromRuntime: true }),
    ...(request.mark !== undefined && { mark: request.mark }),
  };
}

/** Who the hook says writes: FLEET_AS, the session it runs in, and the processes it runs under (its runtime among them). */
export function writerHints(request: { callsign?: string; sessionId?: string; runtimePids?: number[] }): { callsign?: string; sessionId?: string; runtimePids: number[] } {
  return { ...(request.callsign !== undefined && { callsign: request.callsign }), ...(request.sessionId !== undefined && { sessionId: request.sessionId }), runtimePids: request.runtimePids ?? runtimeAncestry() };
}

/** A hook payload's session_id, when it has a usable one. */
export function payloadSessionId(event: { session_id?: unknown }): string | undefined {
  const id = event.session_id;
  return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}

/** FLEET_AS and FLEET_OVERRIDE as the hooks read them (empty means unset). */
export function hookEnvironment(env: NodeJS.ProcessEnv): { callsign?: string; override?: string } {
  const callsign = env.FLEET_AS?.trim();
  const override = env.FLEET_OVERRIDE?.trim();
  return { ...(callsign && { callsign }), ...(override && { override }) };
}
