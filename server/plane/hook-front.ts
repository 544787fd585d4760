import { FleetError } from '../../contracts/index.js';
import { PlaneCallError } from '../client/plane-call-error.js';
import type { HookPlane } from '../hooks/hook-plane.js';
import { runHook, type HookVerb } from '../hooks/hook-verbs.js';
import { ancestryFrom } from '../hooks/runtime-ancestry.js';
import { asFleetError, type Dispatch } from '../transport/connection.js';
import type { HookFrontAnswer, HookFrontRequest } from '../transport/hook-front-door.js';
import { unjoinedCaller, type Session } from './rpc/session.js';

/** The verbs the front posts: the PreToolUse hooks, run on every tool call (each answers on stdout alone). */
const FRONT_VERBS: readonly HookVerb[] = ['claude-pre-tool-use', 'codex-pre-tool-use'];

/**
 * Runs a hook front's event through the very verb the lean runner runs (runHook), with the plane
 * in-process where the runner has its socket: the same calls on a session of the credential the
 * front presented, the same answers (results as JSON carries them, errors as PlaneCallError), and the
 * writer's processes read from the front's parent up, as the runner reads its own. (A client with
 * the token could name any parent; it can name any runtimePids over WebSocket just the same.)
 */
export async function answerHookFront(home: string, dispatch: Dispatch, log: (message: string) => void, request: HookFrontRequest): Promise<HookFrontAnswer> {
  const verb = FRONT_VERBS.find((known) => known === request.verb);
  if (verb === undefined) throw new Error(`the plane answers ${FRONT_VERBS.join(' and ')} for the hook front, not "${request.verb}": run bin/fleet-hook`);
  const session: Session = {
    caller: unjoinedCaller(request.credential),
    credential: request.credential,
    closed: new AbortController().signal,
    // A hook subscribes to nothing.
    notify: () => undefined,
    notificationsBehind: () => false,
    notificationsDrained: () => Promise.resolve(),
  };
  const plane: HookPlane = {
    call: (async (method: string, params: unknown) => {
      try {
        return JSON.parse(JSON.stringify(await dispatch(session, method, params))) as unknown;
      } catch (error) {
        const failure = error instanceof FleetError ? error : asFleetError(error, log);
        throw new PlaneCallError(failure.code, failure.message, failure.errorName, failure.data);
      }
    }) as HookPlane['call'],
    close: () => undefined,
  };
  const env = { ...(request.env.FLEET_AS !== '' && { FLEET_AS: request.env.FLEET_AS }), ...(request.env.FLEET_OVERRIDE !== '' && { FLEET_OVERRIDE: request.env.FLEET_OVERRIDE }) };
  const outcome = await runHook(verb, { stdin: request.stdin, home, root: request.root, env, cwd: request.cwd, open: () => Promise.resolve(plane), runtimePids: ancestryFrom(request.parentPid) });
  return { stdout: outcome.stdout, code: outcome.code };
}
