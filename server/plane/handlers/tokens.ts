import { actorName } from '../../core/authority.js';
import type { HandlerTable } from './handler.js';

/** The operator's verbs over the TLS listener's service tokens (the method table makes them operator-only). */
export const tokenHandlers = {
  fleet_token_create: (params, session, { core, tokens }) => tokens.create(params.callsign, params.role, params.ttlSeconds, actorName(core.state, session.caller)),
  fleet_token_list: (_params, _session, { tokens }) => ({ tokens: tokens.list() }),
  fleet_token_revoke: async (params, _session, { tokens }) => ({ revoked: await tokens.revoke(params) }),
} satisfies Partial<HandlerTable>;
