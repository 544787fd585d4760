// Agents on worktrees and branches of their own in a workspace's repository, with accepted work for
// the plane's train (real git: worktrees, commits, the train's merges). Shared by the in-host
// "train" phase and the on-screen train test.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectToPlane } from '../../../server/client/connect.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';

const CRITERIA = ['it works'];

export const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', ...args], { cwd, encoding: 'utf8' }).trim();

export class TrainFleet {
  /** Where the agents' worktrees (and a test's gate files) go. */
  readonly trees = mkdtempSync(join(tmpdir(), 'fleet-train-trees-'));
  private readonly clients: PlaneClient[] = [];

  private constructor(
    private readonly home: string,
    readonly workspace: string,
    readonly operator: PlaneClient,
    private readonly verifier: PlaneClient,
  ) {}

  /** The workspace checked out on a branch of its own (so the train may move main), the operator and a verifier. */
  static async open(home: string, workspace: string): Promise<TrainFleet> {
    git(workspace, 'checkout', '-q', '-b', 'operator');
    const operator = await connectToPlane({ home, client: 'vscode-test-operator', autoStart: false, credential: 'operator' });
    const verifier = await connectToPlane({ home, client: 'vscode-test-verifier', autoStart: false });
    await verifier.call('fleet_agent_join', { callsign: 'VESTA', runtime: 'codex', role: 'verifier' });
    const fleet = new TrainFleet(home, workspace, operator, verifier);
    fleet.clients.push(operator, verifier);
    return fleet;
  }

  /** A builder on a worktree and branch of its own completes an item changing `files`; the verifier passes it; the operator accepts it. */
  async acceptedItem(callsign: string, title: string, files: Record<string, string>): Promise<string> {
    const branch = `${callsign.toLowerCase()}-work`;
    const worktree = join(this.trees, branch);
    git(this.workspace, 'worktree', 'add', '-q', '-b', branch, worktree, 'main');
    const builder = await connectToPlane({ home: this.home, client: `vscode-test-${callsign}`, autoStart: false });
    this.clients.push(builder);
    await builder.call('fleet_agent_join', { callsign, runtime: 'claude-code', role: 'builder', worktree });
    const { item } = await this.operator.call('fleet_work_add', { title, paths: Object.keys(files), criteria: CRITERIA, root: this.workspace });
    assert.equal((await builder.call('fleet_work_pull', {})).item?.id, item.id);
    for (const [path, content] of Object.entries(files)) writeFileSync(join(worktree, path), content);
    git(worktree, 'add', '-A');
    git(worktree, 'commit', '-q', '-m', title);
    await builder.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: Object.keys(files), commands: [{ command: 'npm test', exitCode: 0 }], criteria: CRITERIA } });
    assert.equal((await this.verifier.call('fleet_work_pull', {})).item?.id, item.id);
    await this.verifier.call('fleet_work_update', { id: item.id, action: 'verify', report: { verdicts: CRITERIA.map((criterion) => ({ criterion, verdict: 'pass' as const, evidence: 'npm test: 3 passing' })) } });
    await this.operator.call('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'verified', refs: [], note: 'the verifier passed it' } });
    return item.id;
  }

  /** A build that prints a line, then waits until `gate` exists (the batch stays "building" until then). */
  gatedBuild(gate: string): string {
    return `echo "compiling the parser"; while [ ! -e '${gate}' ]; do sleep 0.1; done; echo "all tests pass"`;
  }

  close(): void {
    for (const client of this.clients) client.close();
    rmSync(this.trees, { recursive: true, force: true });
  }
}
