import type { AgentRecord } from './state.js';

/**
 * A runtime's tool hook (Claude Code's, Codex's) just checked a call for this agent: its hooks are
 * installed and, for Codex, trusted. Kept on the record like lastSeen — no event per call — and
 * cleared when the agent joins again, so it says "seen this session". git's pre-commit hook says
 * nothing about the runtime's hooks, so it is not recorded.
 */
export function noteHookSeen(agent: AgentRecord, hook: string, now: number): void {
  if (hook === 'git-pre-commit' || agent.gone) return;
  agent.hooksSeen = { hook, at: now };
}
