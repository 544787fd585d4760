import type { ControlBrief, MethodName } from '../../contracts/index.js';

/**
 * What a model needs beyond the method table's summaries: how this bridge holds its identity, and
 * what to do when the fleet switch is not `run`. The schemas are never restated here.
 */
export const BRIDGE_NOTES: Partial<Record<MethodName, string>> = {
  fleet_agent_join:
    'Call it once, first: every other fleet tool refuses until you have joined. This bridge keeps your identity for the session (re-joining by itself after a reconnect) and registers this worktree and your runtime\'s process for you. Role operator is not available to a model.',
  fleet_claim_path:
    'Claim before you write: the editor, the git pre-commit hook and the Claude Code hook refuse writes outside your territory.',
  fleet_work_pull: 'Pull only while control.state is "run"; in drain, pause or stop finish or hand off what you hold instead.',
  fleet_agent_heartbeat: 'This bridge already heartbeats for you; call it to report your status, note and task.',
  fleet_control_set: 'From this bridge you can only move the switch toward safety (drain, pause, stop): only the operator resumes the fleet.',
  fleet_control_get: 'Poll it between steps when you have no other call to make.',
};

/**
 * The server instructions MCP clients show a model once, when it connects: the work loop and what
 * to do when the switch is not `run` (said here once rather than in every tool's description).
 * A line naming a tool the profile does not offer is left out, so no text points at a hidden tool.
 */
const INSTRUCTION_LINES = [
  'Fleet Coordination: several coding agents share these repositories. Work with the fleet like this:',
  '- Join first: fleet_agent_join {callsign, runtime}. Pick a short unique callsign (e.g. ATLAS).',
  '- Get work: fleet_work_pull gives you the next ready item and claims its paths for you; or claim what you will touch with fleet_claim_path before writing any file.',
  '- On a conflict (granted:false, refusedBy "conflict") do not write there: work elsewhere, wait (waitSeconds), or ask the holder (fleet_message_send REQUEST, or ask for a handoff).',
  '- Every result carries control {state, reason}; between steps read it (or call fleet_control_get): run = work normally; drain = finish what you hold, pull nothing new; pause = start nothing new, wait and poll; stop = release or hand off, then fleet_agent_leave.',
  '- Stay alive: the bridge heartbeats for you while this session lasts.',
  '- Report progress with fleet_agent_heartbeat {status, note, task}.',
  '- When done: fleet_work_update complete with your artifact, then release your claims (fleet_release_path). Before your context runs out, hand off (fleet_agent_handoff) with a summary and next steps.',
  '- Lost your context? fleet_agent_resume returns your claims, work, messages and handoffs.',
];

export function serverInstructions(offered: (tool: string) => boolean): string {
  return INSTRUCTION_LINES.filter((line) => toolsNamedIn(line).every(offered)).join('\n');
}

/** The fleet tools a text names (`fleet_…`), for keeping a profile's texts to its own tools. */
export function toolsNamedIn(text: string): string[] {
  return text.match(/\bfleet_[a-z_]+/g) ?? [];
}

/** The instructions of an MCP session on the TLS listener's /mcp, whose identity its service token fixes. */
export function remoteInstructions(callsign: string, edgeTtlSeconds: number, offered: (tool: string) => boolean): string {
  return [
    `You reach this fleet over HTTP as ${callsign}, the agent of your service token: you are joined as ${callsign} on your first call (fleet_agent_join is optional and takes only that callsign).`,
    `Nothing heartbeats for you here: any call counts, so call at least every ${Math.floor(edgeTtlSeconds / 2)} s while you work (fleet_agent_heartbeat reports progress), or your claims lapse.`,
    "Name the repository by scope (its origin URL, e.g. github.com/org/repo, or its fleet.scope): root would be a path on the plane's machine.",
    serverInstructions(offered),
  ].join('\n');
}

/** A line the model reads first when the fleet switch is not `run`. */
export function controlNotice(control: ControlBrief | undefined): string | undefined {
  if (!control || control.state === 'run') return undefined;
  const why = control.reason ? ` (${control.reason})` : '';
  switch (control.state) {
    case 'drain':
      return `FLEET IS DRAINING${why}: finish the work you already hold (claims still work), pull no new work, then release or hand off.`;
    case 'pause':
      return `FLEET IS PAUSED${why}: start nothing new (new claims and pulls are refused). Releases, heartbeats and handoffs still work. Wait and poll fleet_control_get until it is "run" again.`;
    case 'stop':
      return `FLEET IS STOPPING${why}: stop now. Release your claims or hand off (fleet_agent_handoff), then fleet_agent_leave. Agents that ignore a stop are ended after the grace period.`;
  }
}
