import { ErrorCodes, LSPErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { z } from 'zod';
import { errorTable } from '../../contracts/index.js';
import { lspRequests, type FleetViewState, type LspRequestName, type LspRequestResult } from '../../contracts/lsp.js';
import { PlaneCallError, type PlaneClient } from '../client/plane-client.js';
import type { FleetMirror } from './fleet-mirror.js';
import { literalPattern } from './literal-pattern.js';
import { listPublishedDigests } from './published-digest.js';
import type { OperatorSession } from './operator-session.js';
import type { FileOwnership } from './ownership.js';
import type { WorkspaceScopes } from './workspace-scopes.js';
import type { WorkspaceTrain } from './workspace-train.js';

/** What the custom requests work with; the server provides it. */
export interface FleetServices {
  readonly home: string;
  readonly mirror: FleetMirror;
  readonly scopes: WorkspaceScopes;
  readonly operator: OperatorSession;
  readonly train: WorkspaceTrain;
  viewState(): FleetViewState;
  /** The file's ownership now; the server keeps the extension informed about it from here on. */
  watchOwnership(uri: string): FileOwnership;
  /** The observer connection (acting as the operator, the local person), or a "no plane" error. */
  observer(): PlaneClient;
  reconnect(start: boolean): Promise<void>;
}

type Handler<N extends LspRequestName> = (params: z.infer<(typeof lspRequests)[N]['params']>) => Promise<LspRequestResult<N>> | LspRequestResult<N>;

function handle<N extends LspRequestName>(connection: Connection, name: N, handler: Handler<N>): void {
  connection.onRequest(name, async (raw: unknown) => {
    const parsed = lspRequests[name].params.safeParse(raw ?? {});
    if (!parsed.success) throw new ResponseError(ErrorCodes.InvalidParams, `${name}: ${z.prettifyError(parsed.error)}`);
    try {
      return await handler(parsed.data as z.infer<(typeof lspRequests)[N]['params']>);
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      if (error instanceof PlaneCallError) throw new ResponseError(error.code, error.message, error.data);
      throw new ResponseError(LSPErrorCodes.RequestFailed, error instanceof Error ? error.message : String(error));
    }
  });
}

export function registerCustomRequests(connection: Connection, services: FleetServices): void {
  handle(connection, 'fleet/getState', () => services.viewState());

  handle(connection, 'fleet/ownership', ({ uris }) => ({
    entries: uris.map((uri) => ({ uri, ...services.watchOwnership(uri) })),
  }));

  handle(connection, 'fleet/setControl', async ({ state, reason }) => {
    const client = services.operator.current?.client ?? services.observer();
    const result = await client.call('fleet_control_set', { state, ...(reason !== undefined && { reason }) });
    return { state: result.state, ...(result.reason !== undefined && { reason: result.reason }), setBy: result.setBy, setAt: result.setAt };
  });

  handle(connection, 'fleet/joinAsOperator', async ({ callsign }) => {
    services.observer(); // refuse early, with the plain "no plane" message, when none is connected
    return services.operator.join(callsign);
  });

  handle(connection, 'fleet/claimFile', async ({ uri, mode, reason }) => {
    const session = services.operator.current;
    if (!session) throw new ResponseError(errorTable.NOT_JOINED.code, 'Claims belong to agents on the roster: run "Fleet: Join as Operator" first, then claim.');
    const location = services.scopes.locate(uri);
    if (!location) throw new ResponseError(errorTable.OUTSIDE_REPOSITORY.code, `${uri} is not a file inside a git repository: territory is per repository.`);
    const result = await session.client.call('fleet_claim_path', {
      patterns: [literalPattern(location.path)],
      root: location.worktree,
      ...(mode !== undefined && { mode }),
      ...(reason !== undefined && { reason }),
    });
    return {
      granted: result.granted,
      ...(result.refusedBy !== undefined && { refusedBy: result.refusedBy }),
      path: location.path,
      claimIds: result.claims.map((claim) => claim.id),
      conflicts: result.conflicts,
      control: result.control,
    };
  });

  handle(connection, 'fleet/releaseClaim', async ({ claimId }) => {
    const claim = services.mirror.claim(claimId);
    const session = services.operator.current;
    if (claim && session && claim.agentId === session.identity.agentId) {
      const result = await session.client.call('fleet_release_path', { claimIds: [claimId] });
      return { released: result.released, forced: false };
    }
    // Another agent's claim: the operator may force it, and the plane records who did and why.
    const client = session?.client ?? services.observer();
    const who = session ? `operator ${session.identity.callsign}` : 'the operator';
    const result = await client.call('fleet_claim_force_release', { claimIds: [claimId], reason: `released by ${who} from VS Code` });
    return { released: result.released, forced: true };
  });

  handle(connection, 'fleet/digest', async ({ sinceSeq }) => {
    const { digest, markdown } = await services.observer().call('fleet_digest', sinceSeq !== undefined ? { sinceSeq } : {});
    return { digest, markdown };
  });

  handle(connection, 'fleet/digestHistory', async ({ limit }) => ({ digests: await listPublishedDigests(services.home, limit) }));

  handle(connection, 'fleet/requestHandoff', async ({ claimId, path }) => {
    const claim = services.mirror.claim(claimId);
    if (!claim) throw new ResponseError(errorTable.NOT_FOUND.code, 'That claim has ended: nothing to hand off.');
    const session = services.operator.current;
    const client = session?.client ?? services.observer();
    const me = session?.identity.callsign ?? 'the operator';
    const what = path ?? claim.pattern;
    const result = await client.call('fleet_message_send', {
      to: { callsign: claim.holder },
      type: 'REQUEST',
      subject: `Handoff request: ${what}`,
      body:
        `${me} (in VS Code) asks you to hand over ${what}, which your claim ${claim.pattern} covers. ` +
        `At a safe point, hand it off with fleet_agent_handoff${session ? ` to ${me}` : ''}, or release the claim with fleet_release_path, and reply to this message.`,
      refs: [claim.id],
    });
    return { messageId: result.message.id, to: claim.holder };
  });

  handle(connection, 'fleet/updateWork', async (update) => {
    // As the person: the joined operator's agent when there is one (the plane records its callsign), else the operator credential.
    const client = services.operator.current?.client ?? services.observer();
    const { item } = await client.call('fleet_work_update', update);
    return { id: item.id, status: item.status };
  });

  handle(connection, 'fleet/followTrainLog', ({ follow }) => {
    services.train.follow(follow);
    return {};
  });

  handle(connection, 'fleet/reconnect', async ({ start }) => {
    await services.reconnect(start);
    return {};
  });
}
