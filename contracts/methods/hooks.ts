import { z } from 'zod';
import { forecastConflictSchema, MAX_TOUCHED_PATH_CONFLICTS } from '../integration.js';
import { defineMethod, withControl } from '../method.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { agentStatusSchema, callsignSchema, personWaitSchema } from '../records.js';
import { holderSchema, pathParam, pathVerdictSchema, repositoryParams } from './common.js';

/** A runtime's session id as its hook payloads carry it (Claude Code's and Codex's session_id). */
const hookSessionIdSchema = boundedText(limits.id).min(1);

/**
 * The processes a hook runs under, its parent first (read from /proc): the agent whose registered
 * runtime process is among them is the session's own, the one its MCP bridge joined (DESIGN §11).
 */
const runtimePidsSchema = boundedList(z.number().int().min(2), limits.ancestors);

const identityParams = {
  callsign: callsignSchema.optional().describe('The agent writing (FLEET_AS); without it the agent bound to sessionId, else the one whose runtime process runs the hook, else (no sessionId) the one found by worktree'),
  sessionId: hookSessionIdSchema.optional().describe('The hook payload\'s session_id: the agent its SessionStart bound (fleet_hook_session) is the writer when callsign is absent'),
  runtimePids: runtimePidsSchema.optional().describe('The hook\'s ancestor processes, parent first: the live agent whose registered process is one of them (its runtime\'s MCP bridge joined it) is the writer when callsign and a bound session are absent'),
};

const writerParams = {
  ...identityParams,
  fromRuntime: z.boolean().optional().describe('The call comes from an agent runtime\'s hook (Claude Code, Codex): commands acting as the operator or as another agent are refused even when no agent is found; an unjoined session still writes as a person'),
  hook: boundedText(limits.label).min(1).describe('Which hook asks, e.g. git-pre-commit or claude-pre-tool-use (recorded with an override)'),
  override: boundedText(limits.reason).min(1).optional().describe('The operator\'s escape hatch: the reason, recorded once per refused path'),
};
const writerAgent = z.object({ callsign: callsignSchema, status: agentStatusSchema }).nullable();

/**
 * A PreToolUse hook's mark for the tool call it checks (what fleet_worktree_changes without `since`
 * takes), asked with the check so an allowed shell or MCP call costs one round trip, not two.
 */
const markParam = z
  .strictObject({
    worktree: pathParam.describe('Absolute path of (a folder in) the worktree the tool runs in (the hook payload\'s cwd)'),
    source: boundedText(limits.label).min(1).describe('The tool it writes with, recorded as the source of a violation it causes'),
  })
  .optional()
  .describe('Take the watcher\'s mark of this worktree if the call is let through, as fleet_worktree_changes without since does, attributing its changes to the writer named by callsign or bound to sessionId until the call with that mark');
const markResult = z.number().int().nullable().optional().describe('With mark asked and the call let through: the mark to ask fleet_worktree_changes with after the tool ran; null where no live agent registered that worktree (nothing is watched there)');

/**
 * The write gate of the hooks (git pre-commit, Claude Code PreToolUse). A hook holds only the plane
 * token and does not join: it names the agent instead of joining as it, because joining would
 * revive an agent that expired, which must stay refused.
 */
export const hookCheck = defineMethod({
  name: 'fleet_hook_check',
  summary:
    'The check the hooks call before a write or a commit: the same check as fleet_check_path, for the agent named by callsign (FLEET_AS), else the live agent bound to sessionId, else the live agent whose registered process runs the hook (runtimePids), else — only without a sessionId — the live agent that registered the worktree containing `worktree` at join, else for a person (free territory allowed, held territory refused: a session never writes as an agent it did not join as). An agent that left or expired holds nothing and is refused. With override (the operator\'s FLEET_OVERRIDE reason) refused paths are let through and each is recorded as an override.used event.',
  params: z.strictObject({
    paths: boundedList(pathParam, limits.paths).min(1),
    ...repositoryParams,
    worktree: pathParam.optional().describe('Absolute path the write happens under (a file, or the worktree root): the live agent whose registered worktree contains it is the writer'),
    ...writerParams,
    mark: markParam,
  }),
  result: withControl({
    agent: writerAgent,
    allowed: z.boolean(),
    overridden: z.boolean(),
    results: z.array(pathVerdictSchema),
    mark: markResult,
    conflicts: z
      .array(forecastConflictSchema)
      .max(MAX_TOUCHED_PATH_CONFLICTS)
      .optional()
      .describe("A runtime's PreToolUse let through: the conflict forecast (DESIGN §14) of the writing agent among these paths in its own worktree, for the note the hook adds; absent when there is none"),
  }),
  access: 'anyone',
  mutates: true,
  mcpTool: false,
});

/**
 * The write gate for a shell command (Claude Code's Bash tool), decided in the plane: the command is
 * parsed with a real shell parser and every write it names is checked as its real path.
 */
export const hookCheckCommand = defineMethod({
  name: 'fleet_hook_check_command',
  summary:
    'The check the PreToolUse hook calls before a shell command runs: the command is parsed (bash) and each path it names as a write (redirections, tee, sed -i, cp/mv/rm/touch/mkdir/ln, git checkout|restore -- PATH, bash -c, $(…), xargs, find -delete …) is checked as its real path for the writing agent (callsign, else the live agent bound to sessionId, else the one whose registered process runs the hook, else — only without a sessionId — the live agent that registered the worktree containing cwd); globs are refused where they overlap another agent\'s exclusive claim. Commands acting as the operator or as another agent (operator verbs, --as/FLEET_AS of another callsign, FLEET_OVERRIDE, git --no-verify, FLEET_HOME\'s credentials) are refused under identity. override lets refused paths through (recorded), never identity refusals.',
  params: z.strictObject({
    command: boundedText(limits.shellCommand).min(1),
    cwd: pathParam.describe('Absolute directory the command runs in (the hook payload\'s cwd): relative paths resolve against it, and it finds the writer'),
    ...writerParams,
    mark: markParam,
  }),
  result: withControl({
    agent: writerAgent,
    allowed: z.boolean(),
    overridden: z.boolean(),
    refused: z.array(
      z.object({
        path: z.string().describe('As checked: relative to its repository (a glob for patterns), or as written'),
        written: z.string().describe('The word in the command'),
        via: z.string().describe('What writes it: "redirection >", "rm", "git checkout", …'),
        holders: z.array(holderSchema),
      }),
    ),
    identity: z.array(z.object({ what: z.string(), instead: z.string() })),
    notes: z.array(z.string()).describe('What the gate could not see (unparsed command, $VAR targets), said so rather than silently passed'),
    mark: markResult,
  }),
  access: 'anyone',
  mutates: true,
  mcpTool: false,
});

const writerFound = z.enum(['callsign', 'session', 'process', 'worktree']);

/**
 * A runtime session (a hook payload's session_id) speaks for the calling agent: its SessionStart
 * hook binds it after joining or re-attaching, its SessionEnd hook unbinds it after the escrow.
 */
export const hookSession = defineMethod({
  name: 'fleet_hook_session',
  summary:
    'Binds (bind: true) or unbinds a runtime session id (the session_id of Claude Code\'s or Codex\'s hook payloads) to the calling agent, so that hooks naming that session act as this agent even where several agents registered one worktree. The session hooks call it; a session speaks for one agent (binding it here takes it from any other), an agent keeps its 8 newest sessions, and an agent that leaves, expires or whose process exits loses them.',
  params: z.strictObject({ sessionId: hookSessionIdSchema, bind: z.boolean() }),
  result: withControl({ callsign: callsignSchema, sessionId: z.string(), bound: z.boolean(), changed: z.boolean() }),
  access: 'agent',
  mutates: true,
  mcpTool: false,
});

/** Who a hook's session writes as, for the hooks that must act as that agent (SessionStart, SessionEnd). */
export const hookWriter = defineMethod({
  name: 'fleet_hook_writer',
  summary:
    'Who is writing, as the hooks decide it: the agent named by callsign (FLEET_AS), else the live agent bound to sessionId, else the live agent whose registered process is one of runtimePids, else — only when no sessionId is given — the live agent that registered the worktree containing `worktree` (several are ambiguous: INVALID_PARAMS naming them). A session never becomes an agent it did not join as. `agent` is null when none is found; `by` says which rule found it.',
  params: z.strictObject({
    callsign: identityParams.callsign,
    sessionId: identityParams.sessionId,
    runtimePids: identityParams.runtimePids,
    worktree: pathParam.optional().describe('Absolute path the session works in (the hook payload\'s cwd)'),
  }),
  result: withControl({
    agent: writerAgent,
    by: writerFound.nullable(),
    worktree: z.string().optional().describe('The worktree the agent registered at join'),
  }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});

/**
 * Claude Code's Notification hook and Codex's PermissionRequest hook tell the fleet that a runtime
 * waits for a person. The plane records it on the agent (the editor's attention view, the digest)
 * and the hook answers its runtime nothing: it never decides a permission (DESIGN §16).
 */
export const hookWaiting = defineMethod({
  name: 'fleet_hook_waiting',
  summary:
    'Records that the runtime of the session\'s agent waits for a person (reason permission: it asks to run a tool; input: it waits for the next prompt; question: it asked the person something), found as fleet_hook_writer finds it; `recorded` is false when no live agent is found or the same wait is already recorded. The wait ends at the agent\'s next hook-checked tool call. Observing only: nothing here answers the runtime.',
  params: z.strictObject({
    callsign: identityParams.callsign,
    sessionId: identityParams.sessionId,
    runtimePids: identityParams.runtimePids,
    worktree: pathParam.optional().describe('Absolute path the session works in (the hook payload\'s cwd)'),
    ...personWaitSchema.shape,
  }),
  result: withControl({ agent: writerAgent, recorded: z.boolean() }),
  access: 'anyone',
  mutates: true,
  mcpTool: false,
});
