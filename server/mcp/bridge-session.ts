import { isAbsolute, resolve } from 'node:path';
import { describeIssues, errorTable, methods, type ControlBrief, type Params } from '../../contracts/index.js';
import { connectToPlane } from '../client/connect.js';
import { PlaneCallError, type PlaneClient } from '../client/plane-client.js';
import { refuseReattach, rememberIdentity, samePath, tokenOfEndedSession, type BridgeIdentity } from './bridge-identity.js';
import type { BridgeTool } from './tool-catalog.js';
import { errorResult, toolError, toolResult, type ToolCallResult } from './tool-result.js';

export interface BridgeOptions {
  home: string;
  /** The bridge's working directory: `root` of every path-taking tool defaults to it. */
  cwd: string;
  /** The worktree registered at join unless the model names one (the repository root of cwd). */
  worktree: string;
  tools: ReadonlyMap<string, BridgeTool>;
  heartbeatMs: number;
  /** The agent runtime's pid, registered at join whatever the model passes (runtime-pid.ts). */
  runtimePid?: number | undefined;
  log(message: string): void;
}

/**
 * One MCP session's link to the plane: it holds the agent's identity once joined, keeps the agent
 * alive while the session lasts, and after a lost connection reconnects (starting a plane if none
 * runs) and re-joins with the session token before the next call goes through.
 */
export class BridgeSession {
  private client: PlaneClient | undefined;
  private connecting: Promise<PlaneClient> | undefined;
  private identity: BridgeIdentity | undefined;
  private lastControl: ControlBrief | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: BridgeOptions) {}

  async call(name: string, args: Record<string, unknown> | undefined): Promise<ToolCallResult> {
    const tool = this.options.tools.get(name);
    if (!tool) return toolError('METHOD_NOT_FOUND', `no fleet tool named "${name}"; the tools are ${[...this.options.tools.keys()].join(', ')}`);
    if (name === 'fleet_agent_join') return this.join(args ?? {});
    if (!this.identity) {
      return toolError('NOT_JOINED', `${name} acts as a fleet agent: call fleet_agent_join {callsign, runtime} first (once per session; this bridge remembers you after that).`);
    }
    // root defaults to the bridge's working directory (unless the model names the repository by
    // scope); a relative one is taken relative to it.
    const root = args?.root;
    const params = tool.takesRoot && ((root === undefined && args?.scope === undefined) || (typeof root === 'string' && !isAbsolute(root))) ? { ...args, root: resolve(this.options.cwd, typeof root === 'string' ? root : '.') } : (args ?? {});
    try {
      const client = await this.connection();
      const raw = await client.callRaw(name, params);
      const parsed = tool.spec.result.safeParse(raw);
      if (!parsed.success) return toolError('INTERNAL', `the plane's reply to ${name} does not match the contract: ${describeIssues(parsed.error)}`);
      const result = parsed.data as Record<string, unknown>;
      this.noteControl(result);
      if (name === 'fleet_agent_leave') this.forget();
      return toolResult(result);
    } catch (error) {
      return errorResult(error, this.lastControl);
    }
  }

  /** Ends the session: stops heartbeating and closes the plane connection. The agent stays joined. */
  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.client?.close();
    this.client = undefined;
  }

  private async join(args: Record<string, unknown>): Promise<ToolCallResult> {
    if (args.role === 'operator') {
      return toolError(
        'FORBIDDEN',
        'an MCP session never takes role operator: a model can always pull the brake (fleet_control_set toward drain, pause or stop) but never release it. Join as worker, builder, verifier or rte.',
      );
    }
    const parsed = methods.fleet_agent_join.params.safeParse(args);
    if (!parsed.success) return toolError('INVALID_PARAMS', `fleet_agent_join: ${describeIssues(parsed.error)}`);
    // Hooks tell agents apart by worktree: a session registers (and re-attaches) only where it runs.
    if (parsed.data.worktree !== undefined && !samePath(parsed.data.worktree, this.options.worktree)) {
      return toolError('FORBIDDEN', `this MCP session runs in ${this.options.worktree}: it joins for that worktree only, not ${parsed.data.worktree}. Leave worktree out.`);
    }
    const request: Params<'fleet_agent_join'> = { ...parsed.data, worktree: this.options.worktree, pid: this.options.runtimePid };
    // Joining again under the name this session already holds continues it, token or not.
    if (request.sessionToken === undefined && this.identity?.callsign === request.callsign) request.sessionToken = this.identity.sessionToken;
    try {
      const client = await this.connection();
      const result = await this.joinOrContinue(client, request);
      this.identity = { callsign: result.callsign, runtime: request.runtime, agentId: result.agentId, sessionToken: result.sessionToken, worktree: request.worktree! };
      this.noteControl(result);
      await rememberIdentity(this.options.home, this.identity).catch((error: Error) => this.options.log(`could not save the session of ${result.callsign}: ${error.message}`));
      this.startHeartbeat();
      return toolResult(result);
    } catch (error) {
      return errorResult(error, this.lastControl);
    }
  }

  /** A callsign held by this agent's own ended session (same worktree, bridge gone) is continued. */
  private async joinOrContinue(client: PlaneClient, request: Params<'fleet_agent_join'>) {
    if (request.sessionToken !== undefined) return this.reattach(client, request, request.sessionToken);
    try {
      return await client.call('fleet_agent_join', request);
    } catch (error) {
      if (!(error instanceof PlaneCallError) || error.errorName !== 'CALLSIGN_TAKEN') throw error;
      const token = tokenOfEndedSession(this.options.home, request.callsign, this.options.worktree);
      if (token === undefined) throw error;
      this.options.log(`continuing ${request.callsign} from its previous session in ${this.options.worktree}`);
      return this.reattach(client, request, token);
    }
  }

  /** A session token, whoever supplied it, continues only an agent registered at this bridge's worktree. */
  private async reattach(client: PlaneClient, request: Params<'fleet_agent_join'>, sessionToken: string) {
    const { agents } = await client.call('fleet_roster', { includeGone: true });
    const refusal = refuseReattach(agents, request.callsign, this.options.worktree);
    // Refused here, as the plane refuses: the model reads it like any other FORBIDDEN.
    if (refusal !== undefined) throw new PlaneCallError(errorTable.FORBIDDEN.code, refusal, 'FORBIDDEN', undefined);
    return client.call('fleet_agent_join', { ...request, sessionToken });
  }

  private connection(): Promise<PlaneClient> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open(true).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(autoStart: boolean): Promise<PlaneClient> {
    const client = await connectToPlane({ home: this.options.home, client: 'fleet-mcp', autoStart });
    client.onClose(() => {
      if (this.client === client) this.client = undefined;
    });
    const identity = this.identity;
    if (identity) {
      try {
        await client.call('fleet_agent_join', { callsign: identity.callsign, runtime: identity.runtime, sessionToken: identity.sessionToken, worktree: identity.worktree });
        this.options.log(`reconnected to the plane and re-joined as ${identity.callsign}`);
      } catch (error) {
        client.close();
        if (error instanceof PlaneCallError && (error.errorName === 'SESSION_INVALID' || error.errorName === 'NOT_FOUND')) this.forget();
        throw error;
      }
    }
    this.client = client;
    return client;
  }

  /** Any call counts as a heartbeat; a cheap read keeps the agent alive without logging an event. */
  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    if (!this.identity) return;
    try {
      // Reconnect quietly, but never start a plane the operator shut down just to heartbeat.
      const client = this.client ?? (this.connecting ? await this.connecting : await (this.connecting = this.open(false).finally(() => (this.connecting = undefined))));
      this.noteControl(await client.call('fleet_control_get', {}));
    } catch (error) {
      this.options.log(`heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private noteControl(result: { control?: unknown }): void {
    const control = result.control as ControlBrief | undefined;
    if (control) this.lastControl = control;
  }

  private forget(): void {
    this.identity = undefined;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
