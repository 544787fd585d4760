// The fleet the seed-001 tests drive: a plane with a repository and a review worktree, a builder, a
// verifier and an RTE each on the official MCP client against `fleet mcp`, the operator on the CLI;
// and the record fields every handoff artifact carries.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { makeRepo } from '../../support/git-repo.js';
import { startMcpAgent, type Loose, type McpAgent } from '../../support/mcp-agent.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { shutdownPlane } from '../agents/support.js';

export const CRITERIA = ['parses nested lists', 'rejects trailing commas'];
export const artifact = { touchedFiles: ['src/parser.ts'], commands: [{ command: 'npm test', exitCode: 0, evidence: 'test/parser: 12 passing' }], criteria: CRITERIA };
export const plan = { intendedFiles: ['src/parser.ts'], validationPlan: ['npm test -- parser'], coverage: Object.fromEntries(CRITERIA.map((c) => [c, `a parser test for "${c}"`])) };
export const verdicts = (verdict: 'pass' | 'fail') => CRITERIA.map((criterion) => ({ criterion, verdict, evidence: `parser.test.ts: ${criterion} ${verdict}` }));

export interface Fleet {
  home: string;
  repo: string;
  head: string;
  operator: (...args: string[]) => Promise<Loose>;
  operatorFails: (...args: string[]) => Promise<string>;
  bolt: McpAgent;
  vera: McpAgent;
  rita: McpAgent;
}

/** A plane with a repository, a builder, a verifier and an RTE on MCP, and the operator's CLI. */
export async function fleet(t: { after(fn: () => Promise<unknown>): void }): Promise<Fleet> {
  const home = tempHome();
  const repo = makeRepo({ 'AGENTS.md': '# Rules\nRun the tests before completing.\n', 'src/parser.ts': 'export const parse = () => [];\n' });
  const review = `${repo}-review`;
  execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', review]);
  const head = execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const agents: McpAgent[] = [];
  t.after(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await shutdownPlane(home);
    for (const dir of [home, review, repo]) removeHome(dir);
  });
  const operator = async (...args: string[]) => {
    const result = await runCli([...args, '--json'], { home, cwd: repo });
    assert.equal(result.code, 0, `fleet ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout) as Loose;
  };
  const operatorFails = async (...args: string[]) => {
    const result = await runCli(args, { home, cwd: repo });
    assert.notEqual(result.code, 0, `fleet ${args.join(' ')} should be refused: ${result.stdout}`);
    return result.stderr;
  };
  const join = async (cwd: string, callsign: string, role: string) => {
    const agent = await startMcpAgent(home, cwd);
    agents.push(agent);
    await agent.ok('fleet_agent_join', { callsign, runtime: 'claude-code', role });
    return agent;
  };
  const vera = await join(review, 'VERA', 'verifier');
  const bolt = await join(repo, 'BOLT', 'builder');
  const rita = await join(repo, 'RITA', 'rte');
  return { home, repo, head, operator, operatorFails, bolt, vera, rita };
}

export function assertRecord(a: Loose, kind: string, expected: { workItem: string; role: string; by: string }): void {
  assert.equal(a.kind, kind);
  assert.match(a.artifactId, /^[a-z]{2,3}_/, `${kind} has an id`);
  assert.equal(a.id, a.artifactId, `${kind}: the reserved id holds the artifact id`);
  assert.equal(a.schemaVersion, 1);
  assert.equal(a.workItem, expected.workItem, `${kind} names its item (waypoint)`);
  assert.equal(a.producedByRole, expected.role, `${kind} producer role`);
  assert.equal(a.producedBy, expected.by, `${kind} producer`);
  assert.ok(Number.isFinite(Date.parse(a.producedAt)), `${kind} producedAt`);
  assert.ok(Array.isArray(a.sourceRefs), `${kind} sourceRefs`);
  assert.match(a.fingerprint, /^sha256:[0-9a-f]{64}$/, `${kind} fingerprint`);
}
