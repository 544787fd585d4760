import { connectToPlane } from '../client/connect.js';
import { PlaneCallError, type PlaneClient } from '../client/plane-client.js';
import { loadSession, saveSession } from '../home/sessions.js';

const HEARTBEAT_MS = 30_000;

export interface OperatorIdentity {
  callsign: string;
  agentId: string;
}

/**
 * The person on the roster: after "Join as Operator" this window holds a second connection that
 * has joined with role operator, so the person can claim files (claims belong to agents) and the
 * plane records the callsign on what the person does. The session token is kept where the CLI
 * keeps it (FLEET_HOME/sessions), so `fleet claim --as ALICE` in a terminal, a reload or another
 * window all continue as the same agent. Role operator is joined (and re-joined) only with the
 * operator credential, which this connection presents. It heartbeats while the window is open.
 */
export class OperatorSession {
  private client: PlaneClient | undefined;
  private identity: OperatorIdentity | undefined;
  private wanted: string | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly home: string,
    private readonly log: (message: string) => void,
    private readonly changed: () => void,
  ) {}

  get current(): { client: PlaneClient; identity: OperatorIdentity } | undefined {
    return this.client && this.identity ? { client: this.client, identity: this.identity } : undefined;
  }

  /**
   * The agent the person joined as, also while its connection is re-made after the plane came
   * back (it re-joins with the saved token as the same agent): their claims stay theirs.
   */
  get agentId(): string | undefined {
    return this.wanted !== undefined ? this.identity?.agentId : undefined;
  }

  /** Joins (or re-joins with the saved token) as `callsign`, role operator. */
  async join(callsign: string): Promise<OperatorIdentity & { rejoined: boolean }> {
    this.wanted = callsign;
    this.drop();
    const client = await connectToPlane({ home: this.home, client: 'fleet-language-server/operator', autoStart: false, credential: 'operator' });
    try {
      const saved = loadSession(this.home, callsign);
      const join = (sessionToken?: string) =>
        client.call('fleet_agent_join', { callsign, runtime: 'vscode', role: 'operator', ...(sessionToken !== undefined && { sessionToken }) });
      let result;
      try {
        result = await join(saved?.sessionToken);
      } catch (error) {
        // A token from an agent that has since expired or left no longer opens that identity.
        if (!(saved && error instanceof PlaneCallError && error.errorName === 'SESSION_INVALID')) throw error;
        result = await join();
      }
      await saveSession(this.home, { callsign: result.callsign, runtime: 'vscode', agentId: result.agentId, sessionToken: result.sessionToken, role: 'operator' });
      this.client = client;
      this.identity = { callsign: result.callsign, agentId: result.agentId };
      client.onClose(() => {
        if (this.client !== client) return;
        this.client = undefined;
        clearInterval(this.heartbeat);
        this.changed();
      });
      this.heartbeat = setInterval(() => {
        client.call('fleet_agent_heartbeat', { status: 'active' }).catch((error: Error) => this.log(`operator heartbeat failed: ${error.message}`));
      }, HEARTBEAT_MS);
      this.heartbeat.unref();
      this.log(`joined the fleet as operator ${result.callsign}${result.rejoined ? ' (re-joined)' : ''}`);
      this.changed();
      return { ...this.identity, rejoined: result.rejoined };
    } catch (error) {
      client.close();
      throw error;
    }
  }

  /** After the plane came back: continue as the same operator, if the person had joined. */
  async rejoin(): Promise<void> {
    if (this.wanted === undefined || this.client) return;
    try {
      await this.join(this.wanted);
    } catch (error) {
      this.log(`re-joining as operator ${this.wanted} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    this.wanted = undefined;
    this.drop();
  }

  private drop(): void {
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    client?.close();
  }
}
