import { landedAs, type ClarificationRequest, type WorkItem } from '../../../contracts/index.js';
import type { FleetChanges, FleetViewState, ViewAgent } from '../../../contracts/lsp.js';

/**
 * What waits for the operator, one entry per item or agent, in the order a person deals with it:
 * a question past its budget (answer it), another escalation (decide it), verified work (accept or
 * send it back), a question put to the operator by callsign, an agent whose runtime waits for a
 * person. No vscode here: the view, the status bar and the tests share it.
 */
export type AttentionKind = 'question' | 'escalated' | 'landing' | 'decision' | 'clarification' | 'waiting';

export interface AttentionDetail {
  label: string;
  description?: string;
}

export interface AttentionEntry {
  /** `work:ID` or `agent:AGENT_ID`. */
  key: string;
  kind: AttentionKind;
  label: string;
  description: string;
  /** When it started waiting (ISO). */
  since: string;
  itemId?: string;
  agentId?: string;
  /** The question to answer (question and clarification entries). */
  question?: ClarificationRequest;
  /** Why it could not land, or why its revert could not (landing entries): Show Reason opens it. */
  reason?: string;
  details: AttentionDetail[];
}

const ORDER: Record<AttentionKind, number> = { question: 0, escalated: 1, landing: 2, decision: 3, clarification: 4, waiting: 5 };
const WAIT_WORDS = { permission: 'asks permission', input: 'waits for your input', question: 'asks you a question' } as const;

/** The entries kept up to date from the state and its changes: work proportional to what changed. */
export class AttentionEntries {
  private readonly byKey = new Map<string, AttentionEntry>();
  private operator: string | undefined;

  /** The whole state again (start-up, reconnect, after a gap). */
  replace(state: FleetViewState | undefined): void {
    this.byKey.clear();
    this.operator = state?.operator?.callsign;
    for (const item of state?.work ?? []) this.putWork(item);
    for (const agent of state?.agents ?? []) this.putAgent(agent);
  }

  /** One batch of changes; returns whether any entry appeared, went or changed. */
  apply(changes: FleetChanges): boolean {
    let changed = false;
    for (const item of changes.work) changed = this.putWork(item) || changed;
    for (const itemId of changes.removedWork) changed = this.byKey.delete(`work:${itemId}`) || changed;
    for (const agent of changes.agents) changed = this.putAgent(agent) || changed;
    for (const agentId of changes.removedAgents) changed = this.byKey.delete(`agent:${agentId}`) || changed;
    return changed;
  }

  get list(): AttentionEntry[] {
    return [...this.byKey.values()].sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.since.localeCompare(b.since));
  }

  get count(): number {
    return this.byKey.size;
  }

  private putWork(item: WorkItem): boolean {
    return this.put(`work:${item.id}`, workEntry(item, this.operator));
  }

  private putAgent(agent: ViewAgent): boolean {
    return this.put(`agent:${agent.agentId}`, agentEntry(agent));
  }

  private put(key: string, entry: AttentionEntry | undefined): boolean {
    const held = this.byKey.get(key);
    if (!entry) return this.byKey.delete(key);
    this.byKey.set(key, entry);
    return held === undefined || held.description !== entry.description || held.kind !== entry.kind || held.label !== entry.label;
  }
}

/** The entry a work item makes, if it waits for the operator. */
export function workEntry(item: WorkItem, operator: string | undefined): AttentionEntry | undefined {
  const base = { key: `work:${item.id}`, label: item.title, since: item.updatedAt, itemId: item.id };
  const landing = landingEntry(item);
  if (landing) return { ...base, ...landing };
  if (item.status === 'escalated') {
    const escalation = item.escalation;
    const question = escalation?.question;
    const budget = escalation ? `${escalation.budget} budget spent (${escalation.spent} of ${escalation.limit} rounds), by ${escalation.by}` : (item.statusReason ?? 'escalated');
    if (question) {
      return { ...base, kind: 'question', description: `${question.askedBy} asks: ${question.question}`, question, details: [...questionDetails(question), { label: 'Escalated', description: `${budget}; answering returns it to ${escalation?.waitedIn ?? 'ready'}` }] };
    }
    return { ...base, kind: 'escalated', description: `escalated: ${budget}`, details: [...artifactDetails(item), { label: 'Decide', description: 'send it back (rework) or roll it back, with a reason' }] };
  }
  if (item.status === 'verified') {
    const verdicts = item.report?.verdicts ?? [];
    const passed = verdicts.filter((v) => v.verdict === 'pass').length;
    return {
      ...base,
      kind: 'decision',
      description: `verified${item.verifier ? ` by ${item.verifier}` : ''}: ${passed} of ${verdicts.length} criteria pass${item.assignee ? `; built by ${item.assignee}` : ''}`,
      details: [...verdicts.map((v) => ({ label: `${v.verdict === 'pass' ? '✓' : v.verdict === 'fail' ? '✗' : '?'} ${v.criterion}`, description: v.evidence })), ...artifactDetails(item)],
    };
  }
  const asked = operator !== undefined ? item.clarifications.find((round) => !round.response && round.request.to === operator)?.request : undefined;
  if (asked) return { ...base, kind: 'clarification', description: `${asked.askedBy} asks you: ${asked.question}`, question: asked, details: questionDetails(asked) };
  return undefined;
}

/**
 * Work the train could not land (land_failed), or whose rollback it could not land: a revert that
 * conflicts with later landings or breaks the build escalates to the operator (DESIGN §14).
 */
function landingEntry(item: WorkItem): Pick<AttentionEntry, 'kind' | 'description' | 'reason' | 'details'> | undefined {
  const reason = item.statusReason ?? 'no reason recorded';
  const where = item.integration ? [{ label: 'Branch', description: `${item.integration.branch} at ${item.integration.commit.slice(0, 12)} → ${item.integration.target}` }] : [];
  if (item.status === 'land_failed') {
    return { kind: 'landing', description: `could not land: ${reason}`, reason, details: [...where, { label: 'Show Reason', description: 'opens why, then land it again (fleet land) or send it back' }] };
  }
  if (item.status === 'escalated' && item.escalation === undefined && item.decision?.disposition === 'rollback' && item.landedCommit !== undefined) {
    return { kind: 'landing', description: `its revert could not land: ${reason}`, reason, details: [...where, { label: 'Landed as', description: landedAs(item)! }, { label: 'Show Reason', description: 'opens why; nothing was rewritten: revert it by hand or decide again' }] };
  }
  return undefined;
}

/** The entry an agent makes while its runtime waits for a person. */
export function agentEntry(agent: ViewAgent): AttentionEntry | undefined {
  const wait = agent.waitingForPerson;
  if (!wait || agent.status === 'left' || agent.status === 'expired') return undefined;
  return {
    key: `agent:${agent.agentId}`,
    kind: 'waiting',
    label: `${agent.callsign} ${WAIT_WORDS[wait.reason]}`,
    description: wait.message,
    since: wait.since,
    agentId: agent.agentId,
    details: [
      { label: 'Runtime', description: `${agent.runtime}${agent.worktree ? ` in ${agent.worktree}` : ''}` },
      ...(wait.tool !== undefined ? [{ label: 'Tool', description: wait.tool }] : []),
      { label: 'Answer it', description: `in ${agent.runtime}'s own window: the fleet only tells you, it never answers for you` },
      ...(agent.claimCount > 0 ? [{ label: 'Claims', description: `${agent.claimCount} held meanwhile` }] : []),
    ],
  };
}

function questionDetails(question: ClarificationRequest): AttentionDetail[] {
  return [
    ...(question.context !== undefined ? [{ label: 'Context', description: question.context }] : []),
    ...(question.confidence !== undefined ? [{ label: 'Confidence', description: `${question.confidence}, going on without an answer` }] : []),
    ...question.options.map((option, index) => ({ label: `Option ${index + 1}`, description: option })),
  ];
}

function artifactDetails(item: WorkItem): AttentionDetail[] {
  return [
    ...(item.report?.artifactId ? [{ label: 'Verification report', description: item.report.artifactId }] : []),
    ...(item.artifact?.artifactId ? [{ label: 'Build artifact', description: `${item.artifact.artifactId}${item.artifact.summary ? `: ${item.artifact.summary}` : ''}` }] : []),
  ];
}
