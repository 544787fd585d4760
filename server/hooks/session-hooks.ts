import type { Handoff } from '../../contracts/handoff.js';
import { loadSession, saveSession } from '../home/sessions.js';
import { hookEnvironment, payloadSessionId, writerHints } from './hook-check-request.js';
import type { HookPlane, OpenHookPlane } from './hook-plane.js';
import { worktreeRoot } from './git.js';
import { answerWithin } from './plane-deadline.js';
import { OPTIONAL_STRING, readEvent } from './tool-event.js';

/** The fields of Claude Code's and Codex's SessionStart (and Claude Code's SessionEnd) input the fleet reads: common fields, plus source or reason. */
interface SessionEvent {
  session_id?: unknown;
  cwd?: string;
  source?: string;
  reason?: string;
}

/** The runtimes whose session hooks the fleet installs: the `runtime` they join with, and how they are named to a person. */
export const SESSION_RUNTIMES = {
  'claude-code': { runtime: 'claude-code', name: 'Claude Code' },
  codex: { runtime: 'codex', name: 'Codex' },
} as const;
export type SessionRuntime = (typeof SESSION_RUNTIMES)[keyof typeof SESSION_RUNTIMES];

/**
 * `fleet hook claude-session-start` and `codex-session-start`: finds the session's agent
 * (FLEET_AS, else the agent this session_id is bound to, else the one registered for the
 * worktree of cwd), joins or re-attaches it (with the session token kept in FLEET_HOME/sessions),
 * binds the payload's session_id to it, takes back the claims its last session put in escrow to
 * itself, and hands the runtime fleet_agent_resume as additional context, so an agent that lost
 * its context continues with zero tool calls. With no identity, it says how to join and never
 * invents a callsign. Never blocks the session: a failure is told to the model instead.
 */
export async function sessionStart(runtime: SessionRuntime, stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<string> {
  const event = parseEvent(stdin);
  const worktree = worktreeRoot(event.cwd ?? process.cwd());
  const sessionId = payloadSessionId(event);
  let plane: HookPlane | undefined;
  let callsign: string | undefined;
  const failed = (message: string) =>
    sessionContext(
      callsign === undefined
        ? `The fleet could not tell which agent this session is (${message}). Set FLEET_AS=<CALLSIGN> in ${runtime.name}'s environment, or call fleet_agent_join before writing; writes stay refused until then.`
        : `The fleet could not re-attach you as ${callsign} (${message}). Call fleet_agent_join with callsign ${callsign} before writing; writes stay refused until you are on the roster.`,
    );
  const resumed = async () => {
    try {
      callsign = hookEnvironment(env).callsign; // known before the plane answers anything
      plane = await open(`fleet-hook-${runtime.runtime}-session-start`);
      callsign = await sessionWriter(plane, env, sessionId, worktree);
      if (callsign === undefined) return sessionContext(howToJoin(runtime, worktree));
      await attach(plane, home, runtime, callsign, worktree);
      if (sessionId !== undefined) await plane.call('fleet_hook_session', { sessionId, bind: true });
      const before = await plane.call('fleet_agent_resume', {});
      const taken = await acceptOwnHandoffs(plane, callsign, before.handoffsToMe);
      const resume = taken > 0 ? await plane.call('fleet_agent_resume', {}) : before;
      return sessionContext(describeResume(callsign, resume, taken));
    } catch (error) {
      return failed((error as Error).message);
    } finally {
      plane?.close();
    }
  };
  return answerWithin(home, resumed(), failed);
}

/**
 * `fleet hook claude-session-end`: puts the session's claims in escrow to its own callsign (a
 * handoff to itself), so they outlive the runtime's process and the next SessionStart takes them
 * back, then unbinds the session from the agent (FLEET_AS, else the agent bound to the session). Prints nothing: Claude Code reads no output from SessionEnd.
 */
export function claudeSessionEnd(stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<void> {
  return answerWithin(home, escrowClaims(stdin, home, env, open), (why) => {
    throw new Error(`${why}; this session's claims were not put in escrow (they stay with the agent until they expire)`);
  });
}

async function escrowClaims(stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<void> {
  const event = parseEvent(stdin);
  const sessionId = payloadSessionId(event);
  const client = await open('fleet-hook-claude-session-end');
  try {
    // FLEET_AS or the session's own binding only: escrow takes claims out of use, so it is never
    // done on a guess (the worktree's agent may be another session's, still working).
    const callsign = await sessionWriter(client, env, sessionId, undefined);
    if (callsign === undefined || loadSession(home, callsign) === undefined) return;
    await attach(client, home, SESSION_RUNTIMES['claude-code'], callsign, undefined);
    const resume = await client.call('fleet_agent_resume', {});
    const travelling = new Set(resume.handoffsFromMe.filter((h) => h.status === 'pending').flatMap((h) => h.envelope.claims));
    const claims = resume.claims.map((claim) => claim.id).filter((id) => !travelling.has(id));
    if (claims.length > 0) {
      await client.call('fleet_agent_handoff', {
        to: { callsign },
        summary: `Claude Code session ${sessionId ?? '(unknown)'} ended (${event.reason ?? 'no reason given'}): claims held in escrow for ${callsign}'s next session.`,
        claims,
      });
    }
    if (sessionId !== undefined) await client.call('fleet_hook_session', { sessionId, bind: false });
  } finally {
    client.close();
  }
}

/**
 * After the model joined through the fleet's MCP tool (PostToolUse on mcp__…__fleet_agent_join): its
 * SessionStart came before the join and bound nothing, so this binds the session to the agent this
 * runtime's own bridge joined — the live agent whose registered process runs this hook. What the
 * tool's input named decides nothing: a refused join (the callsign taken), or another server's tool
 * of that name, leaves no agent registered under this runtime, and binds nothing.
 */
export async function bindJoinedSession(runtime: SessionRuntime, home: string, event: { session_id?: unknown }, open: OpenHookPlane): Promise<void> {
  const sessionId = payloadSessionId(event);
  if (sessionId === undefined) return;
  const client = await open(`fleet-hook-${runtime.runtime}-post-tool-use`);
  try {
    const found = await client.call('fleet_hook_writer', writerHints({ sessionId }));
    if (found.by !== 'process' || found.agent === null || loadSession(home, found.agent.callsign) === undefined) return;
    await attach(client, home, runtime, found.agent.callsign, undefined);
    await client.call('fleet_hook_session', { sessionId, bind: true });
  } finally {
    client.close();
  }
}

/** Who this session is, in the order of DESIGN §11: FLEET_AS, the agent bound to session_id, the worktree's agent. */
async function sessionWriter(client: HookPlane, env: NodeJS.ProcessEnv, sessionId: string | undefined, worktree: string | undefined): Promise<string | undefined> {
  const { callsign } = hookEnvironment(env);
  if (callsign !== undefined) return callsign;
  if (sessionId === undefined && worktree === undefined) return undefined;
  const found = await client.call('fleet_hook_writer', { ...writerHints({ ...(sessionId !== undefined && { sessionId }) }), ...(worktree !== undefined && { worktree }) });
  return found.agent?.callsign;
}

/** SessionStart's answer as Claude Code and Codex read it: the text goes into the model's context. */
function sessionContext(text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`;
}

function parseEvent(stdin: string): SessionEvent {
  const read = readEvent<SessionEvent>(stdin, { cwd: OPTIONAL_STRING, source: OPTIONAL_STRING, reason: OPTIONAL_STRING });
  // The identity comes from the environment; an unreadable event only loses cwd and session_id.
  return 'event' in read ? read.event : {};
}

/**
 * Re-attaches `client` with the saved session token, or joins fresh (and saves the token for the
 * next session's hooks). A hook holds the plane token only: an operator's agent is never continued here.
 */
async function attach(client: HookPlane, home: string, runtime: SessionRuntime, callsign: string, worktree: string | undefined): Promise<void> {
  const saved = loadSession(home, callsign);
  const joined = await client.call('fleet_agent_join', {
    callsign,
    runtime: saved?.runtime ?? runtime.runtime,
    ...(saved !== undefined && { sessionToken: saved.sessionToken }),
    ...(saved === undefined && worktree !== undefined && { worktree }),
  });
  if (saved === undefined) await saveSession(home, { callsign, runtime: runtime.runtime, agentId: joined.agentId, sessionToken: joined.sessionToken });
}

/** Accepts the handoffs this agent sent to itself (its last SessionEnd): the escrowed claims are its own again. */
async function acceptOwnHandoffs(client: HookPlane, callsign: string, waiting: Handoff[]): Promise<number> {
  let taken = 0;
  for (const handoff of waiting) {
    if (handoff.status !== 'pending' || handoff.envelope.from !== callsign) continue;
    await client.call('fleet_handoff_respond', { handoffId: handoff.id, accept: true });
    // Between sessions of one agent the claims stay as they are (no new fence), so none are "granted".
    taken += handoff.envelope.claims.length;
  }
  return taken;
}

/** The resume, short enough for a context window: what you hold, what you work on, what waits for you. */
export function describeResume(
  callsign: string,
  resume: {
    claims: { id: string; pattern: string; mode: string; expiresAt: string | null }[];
    work: { id: string; title: string; status: string }[];
    unreadCount: number;
    unread: { from: string; type: string; subject?: string | undefined; body: string }[];
    handoffsToMe: { id: string; envelope: { from: string; summary: string } }[];
  },
  escrowTaken: number,
): string {
  const lines = [`You are ${callsign} in the fleet (re-attached by the SessionStart hook; this is fleet_agent_resume).`];
  if (escrowTaken > 0) lines.push(`Your last session's ${escrowTaken} claim(s) came back out of escrow.`);
  lines.push(resume.claims.length === 0 ? 'Claims: none.' : 'Claims you hold:');
  for (const claim of resume.claims) lines.push(`- ${claim.pattern} (${claim.mode}, id ${claim.id}, ${claim.expiresAt === null ? 'while your process runs' : `until ${claim.expiresAt}`})`);
  if (resume.work.length > 0) lines.push('Your work:', ...resume.work.map((item) => `- ${item.id} ${item.title} [${item.status}]`));
  if (resume.unreadCount > 0) {
    lines.push(`Unread messages: ${resume.unreadCount}.`, ...resume.unread.slice(0, 5).map((m) => `- ${m.type} from ${m.from}: ${m.subject ?? m.body.slice(0, 200)}`));
  }
  const waiting = resume.handoffsToMe.filter((h) => h.envelope.from !== callsign);
  if (waiting.length > 0) lines.push('Handoffs waiting for you (fleet_handoff_respond):', ...waiting.map((h) => `- ${h.id} from ${h.envelope.from}: ${h.envelope.summary}`));
  lines.push('Call fleet_agent_resume for the full record.');
  return lines.join('\n');
}

function howToJoin(runtime: SessionRuntime, worktree: string | undefined): string {
  return [
    'You are not on the fleet roster yet, and this session has no identity (FLEET_AS is unset, and no agent is bound to this session or joined through its MCP bridge): until you join you write as a person, and files other agents hold are refused.',
    `Before writing anything, join: call fleet_agent_join with the callsign the operator gave you, runtime "${runtime.runtime}"${worktree !== undefined ? ` and worktree "${worktree}"` : ''}.`,
    `The fleet's tools may be deferred behind your tool search: load them by name first (${runtime.runtime === 'codex' ? 'tool_search for the mcp__fleet namespace' : 'ToolSearch with "select:mcp__fleet__fleet_agent_join"'}).`,
    `Do not make up a callsign: ask the operator if you have none. Starting ${runtime.name} with FLEET_AS=<CALLSIGN> lets the hooks re-attach you on their own.`,
  ].join('\n');
}
