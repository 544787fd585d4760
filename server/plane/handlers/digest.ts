import { FleetError } from '../../../contracts/index.js';
import { isOperator, requireAgent } from '../../core/authority.js';
import { resumeAnchor } from '../../core/resume.js';
import { budgetUse } from '../../core/work-digest.js';
import { readArtifact } from '../../core/work-artifacts.js';
import { handoffView, messageView, workView } from '../../core/orchestration-views.js';
import { agentView, claimView } from '../../core/views.js';
import { conflictsOf, writeSetView } from '../../core/integration-forecast.js';
import type { State } from '../../core/state.js';
import type { HandlerTable } from './handler.js';

export const digestHandlers = {
  fleet_digest: async (params, session, { core, digests }) => {
    if (params.sinceSeq !== undefined && params.sinceSeconds !== undefined) throw new FleetError('INVALID_PARAMS', 'give sinceSeq or sinceSeconds, not both');
    const since = params.sinceSeq !== undefined ? { seq: params.sinceSeq } : params.sinceSeconds !== undefined ? { seconds: params.sinceSeconds } : undefined;
    if (params.publish && since) throw new FleetError('INVALID_PARAMS', 'publish covers the events since the last published digest: it takes no sinceSeq or sinceSeconds');
    if (params.publish && !isOperator(core.state, session.caller)) throw new FleetError('FORBIDDEN', 'publishing the digest (moving its baseline) is for the operator; read it without publish');
    return params.publish ? digests.publish() : since ? digests.over(since) : digests.current();
  },

  fleet_agent_resume: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const agent = requireAgent(ctx.state, session.caller);
      const anchor = resumeAnchor(ctx, agent);
      return {
        agent: agentView(agent, ctx.indexes, ctx.now, ctx.config),
        claims: anchor.claims.map((c) => claimView(c, ctx.state, ctx.config)),
        work: anchor.work.map((w) => workView(w, ctx.state)),
        unread: anchor.unread.messages.map(messageView),
        unreadCount: anchor.unread.unread,
        handoffsToMe: anchor.handoffsToMe.map(handoffView),
        handoffsFromMe: anchor.handoffsFromMe.map(handoffView),
        decisions: anchor.decisions.map((w) => workView(w, ctx.state)),
        rounds: anchor.work.map((w) => budgetUse(ctx.state, w)),
        guidance: anchor.guidance,
        ...writeSetOf(ctx.state, agent.agentId),
        conflicts: conflictsOf(ctx.state, agent.agentId),
        ...(params.artifact !== undefined && { artifact: readArtifact(ctx.state, params.artifact) }),
      };
    }),
} satisfies Partial<HandlerTable>;

function writeSetOf(state: State, agentId: string): { writeSet?: ReturnType<typeof writeSetView> } {
  const record = state.writeSets.get(agentId);
  return record ? { writeSet: writeSetView(record) } : {};
}
