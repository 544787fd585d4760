// What the random agents saw acknowledged, kept to be held against the event log afterwards.
import type { GrantChecker } from './grant-checker.js';

export interface AckedClaim {
  id: string;
  agentId: string;
  pattern: string;
  fence: number;
}

/** One response to a claim request that carried a requestId, in the order the requests were sent. */
export interface RequestAnswer {
  granted: boolean;
  ids: string[];
}

export class LoadRecorder {
  /** Operations issued, by kind (each duplicate or retry counts as one). */
  readonly ops: Record<string, number> = {};
  readonly outcomes: Record<string, number> = {};
  readonly errors: Record<string, number> = {};
  /** Every claim some client saw granted, by claim id. */
  readonly ackedClaims = new Map<string, AckedClaim>();
  /** Answers per `agentId requestId`, in send order (a slot is reserved when the request is sent). */
  readonly requests = new Map<string, (RequestAnswer | undefined)[]>();
  /** Things a client saw that the plane must never answer; each one fails the run. */
  readonly problems: string[] = [];
  unplannedRejoins = 0;
  planned = { naps: 0, leaves: 0 };

  count(kind: string): void {
    this.ops[kind] = (this.ops[kind] ?? 0) + 1;
  }

  outcome(kind: string): void {
    this.outcomes[kind] = (this.outcomes[kind] ?? 0) + 1;
  }

  error(name: string): void {
    this.errors[name] = (this.errors[name] ?? 0) + 1;
  }

  problem(message: string): void {
    if (this.problems.length < 200) this.problems.push(message);
  }

  get totalOps(): number {
    return Object.values(this.ops).reduce((sum, n) => sum + n, 0);
  }

  acked(claim: AckedClaim): void {
    const earlier = this.ackedClaims.get(claim.id);
    if (earlier && (earlier.agentId !== claim.agentId || earlier.fence !== claim.fence || earlier.pattern !== claim.pattern)) {
      this.problem(`claim ${claim.id} acknowledged twice with different contents: ${JSON.stringify(earlier)} then ${JSON.stringify(claim)}`);
    }
    this.ackedClaims.set(claim.id, claim);
  }

  /** Reserves the answer slot of a request with a requestId; call at send time to keep send order. */
  reserve(key: string): (answer: RequestAnswer) => void {
    let answers = this.requests.get(key);
    if (!answers) {
      answers = [];
      this.requests.set(key, answers);
    }
    const slot = answers.length;
    answers.push(undefined);
    return (answer) => (answers[slot] = answer);
  }
}

/** Acknowledged grants that the log lacks or records differently. */
export function ackedGrantsMissingFromLog(recorder: LoadRecorder, checker: GrantChecker): string[] {
  const missing: string[] = [];
  for (const claim of recorder.ackedClaims.values()) {
    const logged = checker.grants.get(claim.id);
    if (!logged) missing.push(`${claim.id} (${claim.pattern}, fence ${claim.fence}) was acknowledged but never granted in the log`);
    else if (logged.agentId !== claim.agentId || logged.fence !== claim.fence || logged.pattern !== claim.pattern) {
      missing.push(`${claim.id}: acknowledged as ${JSON.stringify(claim)}, logged as agent ${logged.agentId} pattern ${logged.pattern} fence ${logged.fence}`);
    }
  }
  return missing;
}

/**
 * Invariant 2 as the clients saw it, and held against the log. A retry of a granted request id
 * returns that same grant while any of it lives; once all of it has ended the plane may decide
 * the retry afresh (server/core/territory.ts, previousGrant). Either way an answer is all or
 * nothing: granted:true never comes with only part of a grant. And the log grants nothing under
 * a request id that no answer acknowledged.
 */
export function requestIdProblems(recorder: LoadRecorder, checker: GrantChecker): string[] {
  const problems: string[] = [];
  const loggedByRequest = new Map<string, string[]>();
  for (const grant of checker.grants.values()) {
    if (grant.requestId === undefined) continue;
    const key = `${grant.agentId} ${grant.requestId}`;
    loggedByRequest.set(key, [...(loggedByRequest.get(key) ?? []), grant.claimId]);
  }
  const endSeq = (id: string) => checker.endings.get(id)?.seq ?? Infinity;
  for (const [key, answers] of recorder.requests) {
    let current: string[] | undefined; // the grant retries must return while any of it lives
    const acknowledged = new Set<string>();
    for (const answer of answers) {
      if (answer === undefined) continue;
      if (!answer.granted) {
        const live = current?.filter((id) => endSeq(id) === Infinity) ?? [];
        if (live.length > 0) problems.push(`request ${key}: a retry was refused although its grant [${live.join(', ')}] never ended`);
        continue;
      }
      for (const id of answer.ids) acknowledged.add(id);
      if (!current || sameSet(answer.ids, current)) {
        current = answer.ids;
        continue;
      }
      if (answer.ids.every((id) => !current!.includes(id))) {
        const regrantedAt = Math.min(...answer.ids.map((id) => checker.grants.get(id)?.seq ?? Infinity));
        const live = current.filter((id) => endSeq(id) > regrantedAt);
        if (live.length > 0) problems.push(`request ${key}: a retry was granted anew [${answer.ids.join(', ')}] at seq ${regrantedAt} while [${live.join(', ')}] of its grant were still live`);
        current = answer.ids;
        continue;
      }
      const missing = current.filter((id) => !answer.ids.includes(id));
      problems.push(
        `request ${key}: a retry answered granted:true with [${answer.ids.join(', ')}], only part of its grant [${current.join(', ')}] ` +
          `(${missing.map((id) => `${id} ${describeEnding(checker, id)}`).join('; ')}): all or nothing is broken for retries`,
      );
    }
    const stray = (loggedByRequest.get(key) ?? []).filter((id) => !acknowledged.has(id));
    if (stray.length > 0) problems.push(`request ${key}: the log grants ${stray.join(', ')} for it, which no answer acknowledged`);
  }
  return problems;
}

function describeEnding(checker: GrantChecker, id: string): string {
  const ending = checker.endings.get(id);
  return ending ? `had ended (${ending.reason}, seq ${ending.seq})` : 'never ended';
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
