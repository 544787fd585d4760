import { describeIssues, FleetError, isMethodName, limits, methods, type MethodName } from '../../../contracts/index.js';
import { isOperator, isRteOrOperator } from '../../core/authority.js';
import { copyWith } from '../../core/copy-with.js';
import { decidedLater } from '../../core/later-decision.js';
import { controlBrief } from '../../core/views.js';
import { StoreRetryError } from '../../store/store.js';
import type { Handler, PlaneServices } from '../handlers/handler.js';
import { handlers } from '../handlers/index.js';
import { keyNestedDeeperThan } from './json-depth.js';
import type { Session } from './session.js';

/**
 * Runs one call from any transport: the method table decides the params schema and who may call;
 * the reply waits until every event it depends on is durable, and carries the control switch.
 */
export async function dispatch(plane: PlaneServices, session: Session, method: string, rawParams: unknown): Promise<unknown> {
  if (!isMethodName(method)) {
    throw new FleetError('METHOD_NOT_FOUND', `unknown method "${truncate(method)}": every method is named fleet_…, e.g. fleet_claim_path`);
  }
  const spec = methods[method];
  const parsed = spec.params.safeParse(rawParams ?? {});
  if (!parsed.success) throw new FleetError('INVALID_PARAMS', `${method}: ${describeIssues(parsed.error)}`);
  authorize(plane, session, method);
  // zod descends only as deep as the schema; free-form values (memos, artifacts) are bounded here.
  const tooDeep = keyNestedDeeperThan(parsed.data, limits.nesting.max);
  if (tooDeep !== undefined) throw new FleetError('INVALID_PARAMS', `${method}: ${tooDeep}: nests deeper than the limit of ${limits.nesting.max} levels (see docs/limits.md): flatten the value`);
  const health = plane.storeHealth();
  if (health.health === 'unavailable' && spec.mutates) {
    // Refused, but a sign of life all the same: the plane logs it once its store answers again.
    plane.core.run(session.caller, () => undefined);
    throw storeUnavailable(health.problems?.[0]);
  }
  const body = await decide(plane, handlers[method] as Handler<MethodName>, parsed.data, session, spec.mutates);
  const store = plane.storeHealth(); // as it is now: the call may have waited through a cut-off
  const stale = store.staleSeconds === undefined ? {} : { store: { health: store.health, staleSeconds: store.staleSeconds } };
  return copyWith(body as object, { control: controlBrief(plane.core.state.control), ...stale });
}

/**
 * Runs the handler and waits until what it saw is durable. A replicated store may answer that
 * another plane's events took that place in the shared order: the state is then caught up and
 * the call decided again, as if it had arrived a moment later (the embedded store never does).
 * A mutation that changed nothing is checked against the shared log's head the same way.
 */
async function decide(plane: PlaneServices, handler: Handler<MethodName>, params: unknown, session: Session, mutates: boolean): Promise<unknown> {
  let readRolledBack = false;
  for (;;) {
    const seqBefore = plane.core.state.seq;
    const barrier = mutates ? plane.storeBarrier?.() : undefined;
    const result = handler(params as never, session, plane);
    // No await between a synchronous decision and registering for its durability: a rollback
    // in that gap would reset the seq the call waits for and answer it with a discarded change.
    // A decision made in a later run (a waiting claim) has that gap: it says what it rests on.
    const body = result instanceof Promise ? await result.catch(unavailableRead) : result;
    const later = decidedLater(body);
    const changed = (later?.seq ?? plane.core.state.seq) > seqBefore;
    if (later && later.state !== plane.core.state && !later.kept(plane.core.state)) continue;
    try {
      await plane.journal.whenDurable(later?.state === plane.core.state ? later.seq : plane.core.state.seq);
      // A change refused (a conflict, the switch) logs nothing, so no publish checked it against
      // the shared order: it must rest on all of it, or another plane's release or resume is missed
      // (one that arrives while this call waits counts too: the decision was made before it).
      if (barrier && !changed && (await barrier())) continue;
      return body;
    } catch (error) {
      if (!(error instanceof StoreRetryError)) throw error;
      // A read that waited on changes the store did not take is answered from the rolled-back state;
      // once only: decided again, it may sweep the same due deadlines, which the cut-off refuses again.
      if (error.kind === 'unavailable' && (mutates || readRolledBack)) throw storeUnavailable(error.message, changed);
      readRolledBack ||= error.kind === 'unavailable';
      await error.settled;
    }
  }
}

/** A handler that reads the shared log (a history, an event replay) and finds it out of reach is refused as retryable, never as an internal error. */
function unavailableRead(error: unknown): never {
  if (error instanceof StoreRetryError && error.kind === 'unavailable') throw storeUnavailable(error.message);
  throw error;
}

/**
 * Refused before deciding, or a call that changed nothing, left nothing to store; a change refused
 * after it was handed to the store may have been stored just as the answer was lost (it then
 * applies once the plane catches up): say which.
 */
function storeUnavailable(why = 'no quorum of the JetStream cluster answers', changed = false): FleetError {
  const outcome = changed
    ? 'the change was not acknowledged but may have been stored: retry the same call (a claim with the same requestId returns its grant if it was stored), or read before redoing anything else'
    : 'nothing was changed: retry it';
  return new FleetError('STORE_UNAVAILABLE', `the fleet's store is out of reach (${why}): ${outcome} in a few seconds (the plane reconnects and catches up by itself), and if it lasts check the NATS servers \`fleet status\` names`);
}

function authorize(plane: PlaneServices, session: Session, method: MethodName): void {
  const access = methods[method].access;
  const state = plane.core.state;
  if (typeof session.credential === 'object') {
    // A service token acts only as its agent: checked at every call, so a revocation holds at once.
    plane.tokens.assertStillValid(session.credential);
    if (session.caller.kind !== 'agent' && method !== 'fleet_agent_join' && methods[method].mutates) {
      throw new FleetError('NOT_JOINED', `${method}: a service token acts only as its agent: call fleet_agent_join {"callsign": "${session.credential.callsign}"} on this connection first`);
    }
  }
  if (access === 'agent' && session.caller.kind !== 'agent') {
    throw new FleetError('NOT_JOINED', `${method} acts as an agent: call fleet_agent_join on this connection first (CLI: --as CALLSIGN)`);
  }
  if (access === 'operator' && !isOperator(state, session.caller)) {
    throw new FleetError('FORBIDDEN', `${method} is for the operator only: the person's tools present FLEET_HOME/operator-token (the CLI's operator verbs, \`fleet call\` without --as, the editor); the plane token is not the operator`);
  }
  if (access === 'rte_or_operator' && !isRteOrOperator(state, session.caller)) {
    throw new FleetError('FORBIDDEN', `${method} needs role rte or the operator (who presents FLEET_HOME/operator-token, as the CLI's operator verbs and the editor do)`);
  }
}

const truncate = (text: string): string => (text.length > 80 ? `${text.slice(0, 80)}…` : text);
