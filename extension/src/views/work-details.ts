import type { WorkItem } from '../../../contracts/index.js';

/** One line under a work item in the Work view; no vscode here, so it is tested without an editor. */
export interface WorkDetail {
  label: string;
  description?: string;
  children?: WorkDetail[];
}

/** Who or what the item waits for now, in the words the person acts on. */
export function waitsFor(item: WorkItem): string | undefined {
  const open = item.clarifications.filter((c) => c.response === undefined).map((c) => c.request.id);
  if (item.status === 'escalated') {
    const why = item.escalation ? `${item.escalation.budget} budget spent (${item.escalation.spent} of ${item.escalation.limit} rounds)` : (item.statusReason ?? 'escalated');
    return `the operator: ${why}`;
  }
  if (item.blockedBy.length > 0) {
    const questions = item.blockedBy.map((id) => (open.includes(id) ? `an answer to "${item.clarifications.find((c) => c.request.id === id)!.request.question}"` : `message ${id}`));
    return questions.join(', ');
  }
  switch (item.status) {
    case 'ready':
    case 'rework':
      return 'a builder to pull it';
    case 'in_progress':
      return `${item.assignee ?? 'its builder'} to complete it`;
    case 'review':
      return item.verifier ? `${item.verifier}'s verdicts` : 'a verifier to pull it';
    case 'verified':
      return 'a decision by an RTE or the operator';
    default:
      return undefined;
  }
}

/** The item's plan, its rounds, what its build changed, how to apply its rollback and what it waits for. */
export function workDetails(item: WorkItem): WorkDetail[] {
  const details: WorkDetail[] = [];
  const waiting = waitsFor(item);
  if (waiting !== undefined) details.push({ label: 'Waits for', description: waiting });
  if (item.plan) {
    const { intendedFiles, validationPlan, coverage, budgetMinutes } = item.plan;
    details.push({
      label: 'Plan',
      description: `${intendedFiles.length} file(s), ${validationPlan.length} check(s)`,
      children: [
        { label: 'Files', description: intendedFiles.join(', ') },
        { label: 'Validation', description: validationPlan.join('; ') },
        ...Object.entries(coverage).map(([criterion, how]) => ({ label: criterion, description: how })),
        ...(budgetMinutes !== undefined ? [{ label: 'Budget', description: `${budgetMinutes} min` }] : []),
      ],
    });
  }
  const rework = `rework ${item.reworkRounds}${item.budgets?.reworkRounds !== undefined ? `/${item.budgets.reworkRounds}` : ''}`;
  const clarification = `clarification ${item.clarifications.length}${item.budgets?.clarificationRounds !== undefined ? `/${item.budgets.clarificationRounds}` : ''}`;
  details.push({
    label: 'Rounds',
    description: `${rework}, ${clarification}`,
    children: item.clarifications.map(({ request, response }) => ({
      label: `Q${request.round}: ${request.question}`,
      description: response ? `→ ${response.chosen} (${response.answeredBy}: ${response.rationale})` : `open, asked by ${request.askedBy}`,
    })),
  });
  const diff = item.artifact?.diffSummary;
  if (diff) {
    details.push({
      label: 'Changes',
      description: `${diff.files.length + diff.more} file(s) since ${diff.since.slice(0, 12)}`,
      children: [
        ...diff.files.map((f) => ({ label: f.path, description: f.untracked ? 'new, untracked' : f.added === undefined ? 'binary' : `+${f.added} −${f.removed ?? 0}` })),
        ...(diff.more > 0 ? [{ label: `${diff.more} more`, description: 'fleet work artifact lists the build' }] : []),
      ],
    });
  }
  // A rollback the plane did not apply: what to run (seed invariant 4).
  if (item.status === 'rolled_back' && item.decision?.remediation !== undefined) details.push({ label: 'Rollback', description: item.decision.remediation });
  if (item.verificationRequest && (item.status === 'review' || item.status === 'verified')) {
    details.push({
      label: 'Verification',
      description: `round ${item.verificationRequest.round}`,
      children: item.verificationRequest.expectedEvidence.map((e) => ({ label: e.criterion, description: e.evidence })),
    });
  }
  return details;
}
