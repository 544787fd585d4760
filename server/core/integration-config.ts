import { DEFAULT_INTEGRATION, FleetError, type IntegrationConfig, type ParsedParams, type ReleaseAt } from '../../contracts/index.js';
import { actorName, isRteOrOperator } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { State } from './state.js';

/** When an item's claims end for work on a branch of its own: by default once it lands. */
export function releaseAtOf(state: State, scope: string): ReleaseAt {
  return state.integrationConfigs.get(scope)?.releaseAt ?? DEFAULT_INTEGRATION.releaseAt;
}

export type IntegrationSettings = Omit<ParsedParams<'fleet_integrate_configure'>, 'root' | 'scope'>;

/** A repository's integration settings, as configured or by default. */
export function integrationConfigOf(state: State, scope: string): Omit<IntegrationConfig, 'configuredBy'> {
  return state.integrationConfigs.get(scope) ?? { scope, ...DEFAULT_INTEGRATION };
}

/** Sets a repository's integration (operator or RTE): what is not given keeps its current value. */
export function configureIntegration(ctx: Ctx, caller: Caller, scope: string, settings: IntegrationSettings): IntegrationConfig {
  if (!isRteOrOperator(ctx.state, caller)) throw new FleetError('FORBIDDEN', 'configuring integration needs role rte or the operator');
  const current = integrationConfigOf(ctx.state, scope);
  const next = { ...current, ...settings, scope };
  if (next.push && next.remote === undefined) throw new FleetError('INVALID_PARAMS', 'push needs a remote: pass remote (the name of a git remote of the repository, e.g. origin)');
  ctx.emit({ type: 'integration.configured', by: actorName(ctx.state, caller), ...next });
  return ctx.state.integrationConfigs.get(scope)!;
}
