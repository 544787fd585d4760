import { join } from 'node:path';
import { takeToolMark } from './claude-tool-marks.js';
import { explainForecast } from './forecast-note.js';
import { answerWithin } from './plane-deadline.js';
import { runHookCheck, type HookVerdict } from './hook-check.js';
import { hookEnvironment, payloadSessionId } from './hook-check-request.js';
import type { OpenHookPlane } from './hook-plane.js';
import { OPTIONAL_STRING, readEvent, STRING } from './tool-event.js';

/** The common fields and PostToolUse's own that the fleet reads (PreToolUse sends the same first ones; Claude Code's and Codex's alike). */
interface ToolEvent {
  tool_name: string;
  tool_use_id?: string;
  cwd?: string;
  session_id?: unknown;
  tool_input?: unknown;
}
const readToolEvent = (stdin: string) => readEvent<ToolEvent>(stdin, { tool_name: STRING, tool_use_id: OPTIONAL_STRING, cwd: OPTIONAL_STRING });

/** The PostToolUse hooks: Claude Code's and Codex's speak the same input fields and the same block answer. */
export type PostToolHook = 'claude-post-tool-use' | 'codex-post-tool-use';

const MAX_LISTED = 20;

/** The fleet's own join tool as a runtime names it (mcp__<server>__fleet_agent_join). */
export const MCP_JOIN_TOOL = /^mcp__.+__fleet_agent_join$/;

/** What PostToolUse prints: nothing, a block whose reason the model reads, or a note it reads as added context. */
export type PostToolAnswer = { decision: 'none' } | { decision: 'block'; reason: string } | { decision: 'note'; context: string };

/**
 * `fleet hook claude-post-tool-use` and `codex-post-tool-use`: asks the plane what changed in the
 * worktree since the mark PreToolUse took for this call, checks those paths as the writing agent
 * (FLEET_AS, else the agent bound to the payload's session_id, else the worktree's), and reports
 * each one another agent holds exclusively (the watcher records it as `territory.violated`,
 * attributed to this agent). It never reverts: the holder's own uncommitted work may be in that file.
 */
export function postToolUse(hook: PostToolHook, stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<PostToolAnswer> {
  // Bounded as every hook is: nothing to report is the answer of a plane that does not answer (the watcher still records what it sees).
  return answerWithin(home, reportChanges(hook, stdin, home, env, open), () => ({ decision: 'none' }));
}

async function reportChanges(hook: PostToolHook, stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<PostToolAnswer> {
  const read = readToolEvent(stdin);
  if ('problem' in read) return { decision: 'none' };
  const { event } = read;
  if (MCP_JOIN_TOOL.test(event.tool_name)) {
    // The model just joined: bind this session to its agent (the join writes nothing; its mark goes).
    if (event.tool_use_id !== undefined) takeToolMark(home, event.tool_use_id);
    // Loaded here only: the session hooks' modules (durable writes, git) cost every other tool call.
    const { bindJoinedSession, SESSION_RUNTIMES } = await import('./session-hooks.js');
    await bindJoinedSession(hook === 'codex-post-tool-use' ? SESSION_RUNTIMES.codex : SESSION_RUNTIMES['claude-code'], home, event, open).catch(() => undefined);
    return { decision: 'none' };
  }
  if (event.tool_use_id === undefined) return { decision: 'none' };
  const { tool_name: tool, tool_use_id: toolUseId } = event;
  const taken = takeToolMark(home, toolUseId);
  // No mark: nothing watched, or a file tool (checked exactly before it wrote; its forecast note rode on PreToolUse).
  if (!taken) return { decision: 'none' };
  const { callsign } = hookEnvironment(env);
  const plane = await open(`fleet-hook-${hook}`);
  let changed: string[];
  let elsewhere: UnattributedWrite[];
  let forecast: string | undefined;
  try {
    const found = await plane.call('fleet_worktree_changes', { worktree: taken.worktree, since: taken.mark });
    // Repository-relative; a checkout or merge moving files is not a write.
    changed = found.changes.filter((change) => !change.viaGit).map((change) => change.path);
    elsewhere = found.elsewhere ?? [];
    // The forecast among those paths comes with the same answer (no question of its own).
    forecast = found.conflicts && found.conflicts.length > 0 ? explainForecast(found.conflicts) : undefined;
  } catch {
    return { decision: 'none' };
  } finally {
    plane.close();
  }
  const unattributed = elsewhere.length > 0 ? explainUnattributed(tool, elsewhere) : undefined;
  if (changed.length === 0) return withNote({ decision: 'none' }, unattributed);
  const sessionId = payloadSessionId(event);
  const verdict = await runHookCheck({
    home,
    hook,
    root: taken.worktree,
    paths: changed,
    worktree: taken.worktree,
    fromRuntime: true,
    ...(callsign !== undefined && { callsign }),
    ...(sessionId !== undefined && { sessionId }),
  }, open);
  return withNote(withNote(breachAnswer(tool, verdict), unattributed), forecast);
}

/** A note (a forecast, an unattributed write) joins a block's reason, or the answer's added context (never an allow: DESIGN §16). */
function withNote(answer: PostToolAnswer, note: string | undefined): PostToolAnswer {
  if (note === undefined) return answer;
  if (answer.decision === 'block') return { decision: 'block', reason: `${answer.reason}\n\n${note}` };
  if (answer.decision === 'note') return { decision: 'note', context: `${answer.context}\n\n${note}` };
  return { decision: 'note', context: note };
}

/** The check's verdict on what a call changed, as PostToolUse's answer: a block for paths another agent holds exclusively. */
export function breachAnswer(tool: string, verdict: HookVerdict): PostToolAnswer {
  const broken = heldByOthers(verdict);
  return broken.length === 0 ? { decision: 'none' } : { decision: 'block', reason: explainBreach(tool, verdict.agent?.callsign, broken) };
}

/** PostToolUse's answer as Claude Code and Codex read it from stdout (both: top-level decision and reason, or hookSpecificOutput.additionalContext). */
export function postToolUseOutput(answer: PostToolAnswer): string {
  if (answer.decision === 'none') return '';
  if (answer.decision === 'note') return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: answer.context } })}\n`;
  return `${JSON.stringify({ decision: 'block', reason: answer.reason })}\n`;
}

type Breach = { path: string; holders: string[] };
type UnattributedWrite = { worktree: string; path: string; holder: string };

/**
 * Writes into other agents' worktrees during this call that nobody could attribute: maybe this
 * call's (a form no check reads), maybe the holder's own unhooked work. Told, not blamed.
 */
function explainUnattributed(tool: string, writes: UnattributedWrite[]): string {
  const lines = [`Fleet territory: while your ${tool} call ran, ${writes.length === 1 ? 'a write' : `${writes.length} writes`} into another agent's worktree happened that the fleet cannot attribute (recorded as a territory violation by unknown):`];
  for (const { worktree, path, holder } of writes.slice(0, MAX_LISTED)) lines.push(`  ${join(worktree, path)}: held exclusively by ${holder}`);
  if (writes.length > MAX_LISTED) lines.push(`  … and ${writes.length - MAX_LISTED} more`);
  const holders = [...new Set(writes.map((w) => w.holder))];
  lines.push(
    `If it was yours, tell ${holders.join(', ')} what you changed (fleet_message_send {"to": {"callsign": "${holders[0]!}"}, "type": "INFO", "body": "…"}) and do not write there again without a claim. If it was not yours, nothing to do.`,
  );
  return lines.join('\n');
}

function heldByOthers(verdict: HookVerdict): Breach[] {
  const self = verdict.agent?.callsign;
  return verdict.results.flatMap((result) => {
    const holders = result.holders.filter((h) => h.mode === 'exclusive' && h.callsign !== self).map((h) => `${h.callsign} (claim ${h.pattern})`);
    return !result.allowed && holders.length > 0 ? [{ path: result.path, holders }] : [];
  });
}

function explainBreach(tool: string, self: string | undefined, broken: Breach[]): string {
  const lines = [`Fleet territory: your ${tool} call changed ${broken.length === 1 ? 'a file' : `${broken.length} files`} another agent holds exclusively${self ? ` (you are ${self})` : ''}; recorded as a territory violation:`];
  for (const { path, holders } of broken.slice(0, MAX_LISTED)) lines.push(`  ${path}: held by ${holders.join(', ')}`);
  if (broken.length > MAX_LISTED) lines.push(`  … and ${broken.length - MAX_LISTED} more`);
  const first = broken[0]!.holders[0]!.split(' ')[0]!;
  lines.push(
    'Nothing was reverted: the holder\'s own uncommitted work may be in these files. Do not release or take their claim.',
    `Tell the holder what you changed (fleet_message_send {"to": {"callsign": "${first}"}, "type": "INFO", "body": "…"}), or revert exactly your own change by hand, then claim before writing again.`,
  );
  return lines.join('\n');
}
