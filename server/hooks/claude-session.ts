import { z } from 'zod';
import type { Handoff } from '../../contracts/handoff.js';
import type { PlaneClient } from '../client/plane-client.js';
import { connectToPlane } from '../client/connect.js';
import { loadSession, saveSession } from '../home/sessions.js';
import { hookEnvironment } from './hook-check-request.js';
import { worktreeRoot } from './git.js';

/** The fields of Claude Code's SessionStart / SessionEnd input the fleet reads (common fields, plus source or reason). */
const sessionEventSchema = z.looseObject({
  session_id: z.string().optional(),
  cwd: z.string().optional(),
  source: z.string().optional(),
  reason: z.string().optional(),
});

const RUNTIME = 'claude-code';

/**
 * `fleet hook claude-session-start`: joins or re-attaches the session's agent (FLEET_AS, with the
 * session token the CLI keeps in FLEET_HOME/sessions), takes back the claims its last session put
 * in escrow to itself, and hands Claude Code fleet_agent_resume as additional context, so an agent
 * that lost its context continues with zero tool calls. With no identity, it says how to join and
 * never invents a callsign. Never blocks the session: a failure is told to the model instead.
 */
export async function claudeSessionStart(stdin: string, home: string, env: NodeJS.ProcessEnv): Promise<string> {
  const event = parseEvent(stdin);
  const { callsign } = hookEnvironment(env);
  const worktree = worktreeRoot(event.cwd ?? process.cwd());
  if (callsign === undefined) return sessionContext(howToJoin(worktree));
  try {
    const client = await attach(home, callsign, worktree);
    try {
      const before = await client.call('fleet_agent_resume', {});
      const taken = await acceptOwnHandoffs(client, callsign, before.handoffsToMe);
      const resume = taken > 0 ? await client.call('fleet_agent_resume', {}) : before;
      return sessionContext(describeResume(callsign, resume, taken));
    } finally {
      client.close();
    }
  } catch (error) {
    return sessionContext(`The fleet could not re-attach you as ${callsign} (${(error as Error).message}). Call fleet_agent_join with callsign ${callsign} before writing; writes stay refused until you are on the roster.`);
  }
}

/**
 * `fleet hook claude-session-end`: puts the session's claims in escrow to its own callsign (a
 * handoff to itself), so they outlive the runtime's process and the next SessionStart takes them
 * back. Prints nothing: Claude Code reads no output from SessionEnd.
 */
export async function claudeSessionEnd(stdin: string, home: string, env: NodeJS.ProcessEnv): Promise<void> {
  const event = parseEvent(stdin);
  const { callsign } = hookEnvironment(env);
  if (callsign === undefined || loadSession(home, callsign) === undefined) return;
  const client = await attach(home, callsign, undefined);
  try {
    const resume = await client.call('fleet_agent_resume', {});
    const travelling = new Set(resume.handoffsFromMe.filter((h) => h.status === 'pending').flatMap((h) => h.envelope.claims));
    const claims = resume.claims.map((claim) => claim.id).filter((id) => !travelling.has(id));
    if (claims.length === 0) return;
    await client.call('fleet_agent_handoff', {
      to: { callsign },
      summary: `Claude Code session ${event.session_id ?? '(unknown)'} ended (${event.reason ?? 'no reason given'}): claims held in escrow for ${callsign}'s next session.`,
      claims,
    });
  } finally {
    client.close();
  }
}

/** SessionStart's answer as Claude Code reads it: the text goes into the model's context. */
function sessionContext(text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } })}\n`;
}

function parseEvent(stdin: string): z.infer<typeof sessionEventSchema> {
  try {
    return sessionEventSchema.parse(JSON.parse(stdin));
  } catch {
    // The identity comes from the environment; an unreadable event only loses cwd and session_id.
    return {};
  }
}

/**
 * Re-attaches with the saved session token, or joins fresh (and saves the token for the next
 * session's hooks). A hook holds the plane token only: an operator's agent is never continued here.
 */
async function attach(home: string, callsign: string, worktree: string | undefined): Promise<PlaneClient> {
  const saved = loadSession(home, callsign);
  const client = await connectToPlane({ home, client: 'fleet-hook-claude-session' });
  try {
    const joined = await client.call('fleet_agent_join', {
      callsign,
      runtime: saved?.runtime ?? RUNTIME,
      ...(saved !== undefined && { sessionToken: saved.sessionToken }),
      ...(saved === undefined && worktree !== undefined && { worktree }),
    });
    if (saved === undefined) await saveSession(home, { callsign, runtime: RUNTIME, agentId: joined.agentId, sessionToken: joined.sessionToken });
    return client;
  } catch (error) {
    client.close();
    throw error;
  }
}

/** Accepts the handoffs this agent sent to itself (its last SessionEnd): the escrowed claims are its own again. */
async function acceptOwnHandoffs(client: PlaneClient, callsign: string, waiting: Handoff[]): Promise<number> {
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

function howToJoin(worktree: string | undefined): string {
  return [
    'You are not on the fleet roster yet, and this session has no identity (FLEET_AS is unset).',
    `Before writing anything, join: call fleet_agent_join with the callsign the operator gave you, runtime "${RUNTIME}"${worktree !== undefined ? ` and worktree "${worktree}"` : ''}.`,
    'Do not make up a callsign: ask the operator if you have none. Starting Claude Code with FLEET_AS=<CALLSIGN> lets the hooks re-attach you on their own.',
  ].join('\n');
}
