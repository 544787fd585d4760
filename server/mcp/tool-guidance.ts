import type { ControlBrief, MethodName } from '../../contracts/index.js';

/**
 * What a model needs beyond the method table's summaries: how this bridge holds its identity, and
 * what to do when the fleet switch is not `run`. The schemas are never restated here.
 */
export const BRIDGE_NOTES: Partial<Record<MethodName, string>> = {
  fleet_agent_join:
    'Call this once at the start of the session; every other fleet tool refuses until you have joined. This bridge keeps your identity for the rest of the session (and re-joins with your sessionToken by itself after a reconnect), so you never pass the token to other tools. worktree is the repository of the current directory (hooks use it to find you): a session joins, and continues an agent, only where it runs. role operator is not available to a model: join as worker, builder, verifier or rte.',
  fleet_claim_path:
    'Paths and patterns are relative to the repository root (or absolute inside it); root defaults to the repository of the current directory. Claim before you write: the editor, the git pre-commit hook and the Claude Code hook refuse writes outside your territory.',
  fleet_check_path: 'root defaults to the repository of the current directory.',
  fleet_release_path: 'root defaults to the repository of the current directory.',
  fleet_work_add: 'root defaults to the repository of the current directory.',
  fleet_build_verify: 'root defaults to the repository of the current directory.',
  fleet_work_pull: 'Pull only while control.state is "run"; in drain, pause or stop finish or hand off what you hold instead.',
  fleet_agent_heartbeat: 'This bridge already keeps you alive while the session lasts; call it to report your status, note and current task.',
  fleet_agent_handoff: 'Hand off before your context runs out or before you leave with work in progress: the recipient continues from your summary and next steps.',
  fleet_control_set: 'From this bridge you can only move the switch toward safety (drain, pause, stop): only the operator resumes the fleet.',
  fleet_control_get: 'Poll it between steps when you have no other call to make.',
};

export const CONTROL_FOOTER =
  'Every result carries control {state, reason}: when state is not "run", stop starting new work (drain: finish what you hold, pull nothing new; pause: start nothing, wait and poll fleet_control_get; stop: release or hand off, then fleet_agent_leave).';

/** The server instructions MCP clients show a model when it connects. */
export const SERVER_INSTRUCTIONS = [
  'Fleet Coordination: several coding agents share these repositories. Work with the fleet like this:',
  '1. Join first: fleet_agent_join {callsign, runtime}. Pick a short unique callsign (e.g. ATLAS).',
  '2. Get work: fleet_work_pull gives you the next ready item and claims its paths for you; or claim what you will touch with fleet_claim_path before writing any file.',
  '3. On a conflict (granted:false, refusedBy "conflict") do not write there: work elsewhere, wait (waitSeconds), or ask the holder (fleet_message_send REQUEST, or ask for a handoff).',
  '4. Between steps, read control in the last result (or call fleet_control_get): run = work normally; drain = finish what you hold, pull nothing new; pause = start nothing new; stop = release or hand off and leave.',
  '5. Stay alive: the bridge heartbeats for you while this session lasts; report progress with fleet_agent_heartbeat {status, note, task}.',
  '6. When done: fleet_work_update complete with your artifact, release your claims (fleet_release_path). Before your context runs out, hand off (fleet_agent_handoff) with a summary and next steps.',
  'Lost your context? fleet_agent_resume returns your claims, work, messages and handoffs.',
].join('\n');

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
