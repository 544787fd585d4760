import type { Markers } from '../hooks/marked-block.js';

export const INSTRUCTIONS_MARKERS: Markers = {
  begin: '<!-- fleet-coordination:begin (written by `fleet init`; `fleet init --remove` takes it out) -->',
  end: '<!-- fleet-coordination:end -->',
};

/** The files agents read their standing instructions from: Codex and most runtimes, and Claude Code. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

/** What every agent in this repository should do, in the order it does it. Runtime-neutral. */
export const AGENT_INSTRUCTIONS = `## Working in a fleet

Other coding agents work in this repository at the same time. They coordinate through the Fleet
Coordination plane: use the \`fleet\` MCP tools (set up for Claude Code in \`.mcp.json\` and for
Codex in \`~/.codex/config.toml\`), or the \`fleet\` CLI (\`$FLEET_HOME/bin/fleet\` if it is not on PATH).

1. **Join on start**: \`fleet_agent_join {callsign, runtime}\` (CLI: \`fleet join --callsign ATLAS --runtime codex\`,
   then \`export FLEET_AS=ATLAS\` so the git hook knows it is you). Keep one callsign for the whole session.
2. **Pull work**: \`fleet_work_pull\` hands you the next ready item and claims its paths for you
   (CLI: \`fleet work pull --as ATLAS\`).
3. **Claim before writing**: \`fleet_claim_path {patterns}\` for every file you will change
   (CLI: \`fleet claim --as ATLAS 'src/parser/**'\`). Writes outside your claims are refused by the git
   pre-commit hook and the Claude Code hook. On a conflict, work elsewhere, wait (\`waitSeconds\`), or
   ask the holder (\`fleet_message_send\`).
4. **Poll the control state between steps**: every result carries \`control.state\`. \`run\`: work.
   \`drain\`: finish what you hold, pull nothing new. \`pause\`: start nothing new, wait and poll
   \`fleet_control_get\`. \`stop\`: release or hand off, then \`fleet_agent_leave\`.
5. **Heartbeat**: the MCP bridge keeps you alive; report progress with \`fleet_agent_heartbeat {status,
   note, task}\`. From the CLI, any \`fleet … --as ATLAS\` call counts; stay silent for two agent TTLs
   (4 minutes by default) and your claims are released.
6. **Finish**: \`fleet_work_update\` with action \`complete\` and your artifact, then \`fleet_release_path\`.
7. **Hand off before your context runs out**: \`fleet_agent_handoff {to, summary, nextSteps, claims}\`.
   After a restart, \`fleet_agent_resume\` returns your claims, work, messages and handoffs.`;
