// An agent as the plane sees one: a WebSocket JSON-RPC connection that has joined under a callsign.
import { readDiscovery } from '../../../server/client/connect.js';
import { PlaneClient } from '../../../server/client/plane-client.js';
import type { Params, Result } from '../../../contracts/index.js';

export class TestAgent {
  private constructor(
    private client: PlaneClient,
    readonly callsign: string,
    readonly sessionToken: string,
    private readonly home: string,
  ) {}

  /** `worktree`: the agent works in a git worktree of its own (its write-set is kept from it). */
  static async join(home: string, callsign: string, sessionToken?: string, worktree?: string): Promise<TestAgent> {
    const client = await connect(home);
    const joined = await client.call('fleet_agent_join', { callsign, runtime: 'script', role: 'worker', ...(sessionToken !== undefined && { sessionToken }), ...(worktree !== undefined && { worktree }) });
    return new TestAgent(client, callsign, joined.sessionToken, home);
  }

  /** After the plane restarted: a new connection, re-joined as the same agent. */
  async rejoin(): Promise<void> {
    this.client.close();
    this.client = await connect(this.home);
    await this.client.call('fleet_agent_join', { callsign: this.callsign, runtime: 'script', role: 'worker', sessionToken: this.sessionToken });
  }

  claim(patterns: string[], root: string, extra: Omit<Params<'fleet_claim_path'>, 'patterns' | 'root'> = {}): Promise<Result<'fleet_claim_path'>> {
    return this.client.call('fleet_claim_path', { patterns, root, ...extra });
  }

  release(patterns: string[], root: string): Promise<Result<'fleet_release_path'>> {
    return this.client.call('fleet_release_path', { patterns, root });
  }

  heartbeat(status?: 'active' | 'idle' | 'blocked', note?: string, task?: string): Promise<Result<'fleet_agent_heartbeat'>> {
    return this.client.call('fleet_agent_heartbeat', { ...(status !== undefined && { status }), ...(note !== undefined && { note }), ...(task !== undefined && { task }) });
  }

  inbox(): Promise<Result<'fleet_inbox'>> {
    return this.client.call('fleet_inbox', {});
  }

  addWork(title: string, root: string, paths: string[]): Promise<Result<'fleet_work_add'>> {
    return this.client.call('fleet_work_add', { title, root, paths, criteria: ['the parser tests pass'] });
  }

  pull(): Promise<Result<'fleet_work_pull'>> {
    return this.client.call('fleet_work_pull', {});
  }

  complete(id: string): Promise<Result<'fleet_work_update'>> {
    return this.client.call('fleet_work_update', { id, action: 'complete', artifact: { touchedFiles: [], commands: [{ command: 'npm test', exitCode: 0 }], criteria: ['the parser tests pass'] } });
  }

  check(paths: string[], root: string): Promise<Result<'fleet_check_path'>> {
    return this.client.call('fleet_check_path', { paths, root });
  }

  /** The hooks' question: a mark, or (with `since`) what the plane's watcher saw change in `worktree` after it. */
  worktreeChanges(worktree: string, since?: number): Promise<Result<'fleet_worktree_changes'>> {
    return this.client.call('fleet_worktree_changes', { worktree, ...(since !== undefined && { since }) });
  }

  async leave(): Promise<void> {
    await this.client.call('fleet_agent_leave', {});
    this.client.close();
  }

  close(): void {
    this.client.close();
  }
}

async function connect(home: string): Promise<PlaneClient> {
  const found = readDiscovery(home);
  if (!found) throw new Error(`no plane is running on ${home}`);
  return PlaneClient.connect(found.discovery, found.token, 'vscode-test-agent');
}
