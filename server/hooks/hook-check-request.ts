// What a hook asks the plane's fleet_hook_check, built from node builtins only: the full CLI and the
// lean hook runner (server/hooks/lean/) both send exactly these params.

export interface HookCheckRequest {
  home: string;
  hook: 'git-pre-commit' | 'claude-pre-tool-use';
  root: string;
  paths: string[];
  /** FLEET_AS, when the writer says who it is. */
  callsign?: string;
  /** Where the write happens, to find the agent that registered this worktree at join. */
  worktree?: string;
  /** The writer is certainly an agent: finding none refuses the write. */
  agentOnly?: boolean;
  /** FLEET_OVERRIDE: the operator's reason for writing anyway. */
  override?: string;
}

/** The fleet_hook_check params for `paths` (a batch of the request's paths). */
export function hookCheckParams(request: HookCheckRequest, paths: string[]): Record<string, unknown> {
  return {
    paths,
    root: request.root,
    hook: request.hook,
    ...(request.callsign !== undefined && { callsign: request.callsign }),
    ...(request.worktree !== undefined && { worktree: request.worktree }),
    ...(request.override !== undefined && { override: request.override }),
    ...(request.agentOnly && { agentOnly: true }),
  };
}

/** FLEET_AS and FLEET_OVERRIDE as the hooks read them (empty means unset). */
export function hookEnvironment(env: NodeJS.ProcessEnv): { callsign?: string; override?: string } {
  const callsign = env.FLEET_AS?.trim();
  const override = env.FLEET_OVERRIDE?.trim();
  return { ...(callsign && { callsign }), ...(override && { override }) };
}
