import { z } from 'zod';
import { controlBriefSchema } from './records.js';

/**
 * Who may call a method:
 * - `anyone`: any connection: a joined agent, one that holds only the plane token and has not
 *   joined, or the operator.
 * - `agent`: only a connection that has joined as an agent.
 * - `rte_or_operator`: an agent with role rte, or the operator.
 * - `operator`: only the operator: a connection that presented the operator credential
 *   (FLEET_HOME/operator-token), or an agent of role operator (which only such a connection can join).
 */
export type Access = 'anyone' | 'agent' | 'rte_or_operator' | 'operator';

export interface MethodSpec<P extends z.ZodType, R extends z.ZodType> {
  readonly name: `fleet_${string}`;
  /** One paragraph a model or a person can act on: when to call it and what comes back. */
  readonly summary: string;
  readonly params: P;
  readonly result: R;
  readonly access: Access;
  /** A mutating method's reply is sent only once its events are durable. */
  readonly mutates: boolean;
  /** Agent-facing methods are also MCP tools. */
  readonly mcpTool: boolean;
}

/** Every reply to an agent carries the control switch, so agents notice a pause on their next call. */
export function withControl<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.object({ ...shape, control: controlBriefSchema });
}

export function defineMethod<P extends z.ZodType, R extends z.ZodType>(spec: MethodSpec<P, R>): MethodSpec<P, R> {
  return spec;
}

export type ParamsOf<M> = M extends MethodSpec<infer P, z.ZodType> ? z.input<P> : never;
export type ResultOf<M> = M extends MethodSpec<z.ZodType, infer R> ? z.infer<R> : never;
