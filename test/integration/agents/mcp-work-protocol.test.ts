// The builder → verifier → decision protocol driven the way agents drive it: two runtimes, each
// through the official MCP client against `fleet mcp`, disagreeing until the rework budget sends
// the item to the operator, who sees it in the digest.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { startMcpAgent } from '../../support/mcp-agent.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { shutdownPlane } from './support.js';

const CRITERIA = ['parses nested lists', 'rejects trailing commas'];

test('builder and verifier disagree over MCP until the rework budget escalates the item to the operator, visible in the digest', async (t) => {
  const home = tempHome();
  const repo = makeRepo({ 'AGENTS.md': '# Rules\nRun the tests before completing.\n', 'src/parser.ts': 'export const parse = () => [];\n' });
  const review = `${repo}-review`;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { encoding: 'utf8' }).trim();
  git(repo, 'worktree', 'add', '-q', review);
  const operator = (...args: string[]) => runCli(args, { home, cwd: repo });
  t.after(async () => {
    await shutdownPlane(home);
    removeHome(home);
    removeHome(review);
    removeHome(repo);
  });

  // The verifier's bridge starts the plane; the operator sets the protocol from the terminal.
  const vera = await startMcpAgent(home, review);
  await vera.ok('fleet_agent_join', { callsign: 'VERA', runtime: 'codex', role: 'verifier' });
  const configured = await operator('work', 'configure', '--rework', '2', '--plan-required', 'yes', '--json');
  assert.equal(configured.code, 0, configured.stderr);
  assert.deepEqual(JSON.parse(configured.stdout).settings, { reworkRounds: 2, clarificationRounds: 3, planRequired: true });
  const added = await operator('work', 'add', 'nested list parser', ...CRITERIA.flatMap((c) => ['--criterion', c]), '--path', 'src/parser.ts', '--json');
  assert.equal(added.code, 0, added.stderr);
  const id: string = JSON.parse(added.stdout).item.id;

  const bolt = await startMcpAgent(home, repo);
  t.after(() => Promise.all([bolt.close(), vera.close()]));
  await bolt.ok('fleet_agent_join', { callsign: 'BOLT', runtime: 'claude-code', role: 'builder' });

  const startCommit = git(repo, 'rev-parse', 'HEAD');
  const agentsBlob = git(repo, 'rev-parse', 'HEAD:AGENTS.md');
  const artifact = { touchedFiles: ['src/parser.ts'], commands: [{ command: 'npm test', exitCode: 0 }], criteria: CRITERIA };
  const plan = { intendedFiles: ['src/parser.ts'], validationPlan: ['npm test -- parser'], coverage: Object.fromEntries(CRITERIA.map((criterion) => [criterion, `a parser test for "${criterion}"`])) };
  const guidanceVersions: number[] = [];

  for (let round = 1; round <= 3; round++) {
    const pulled = await bolt.ok('fleet_work_pull');
    assert.equal(pulled.item.id, id, `round ${round}: the builder gets the item back`);
    assert.equal(pulled.item.startCommit, startCommit, 'the rollback reference is the commit the item started from');
    guidanceVersions.push(pulled.guidance.version);
    if (round === 1) {
      assert.deepEqual(pulled.guidance.covenant, [{ path: 'AGENTS.md', blob: agentsBlob }]);
      const refused = await bolt.call('fleet_work_update', { id, action: 'complete', artifact });
      assert.equal(refused.isError, true, 'the fleet requires a plan before completion');
      assert.match(refused.text, /action plan/);
      await bolt.ok('fleet_work_update', { id, action: 'plan', plan });
      // The rules change between two pulls: AGENTS.md is committed anew.
      writeFileSync(join(repo, 'AGENTS.md'), '# Rules\nRun the tests and the linter before completing.\n');
      git(repo, 'commit', '-q', '-am', 'tighten the rules');
    }
    assert.equal((await bolt.ok('fleet_work_update', { id, action: 'complete', artifact })).item.status, 'review');

    const inReview = await vera.ok('fleet_work_pull');
    assert.equal(inReview.item.id, id);
    assert.deepEqual(inReview.item.verificationRequest.criteria, CRITERIA);
    assert.equal(inReview.item.verificationRequest.round, round);
    const unnamed = await vera.call('fleet_work_update', { id, action: 'verify', report: { verdicts: [{ criterion: CRITERIA[0], verdict: 'pass', evidence: 'test passes' }] } });
    assert.equal(unnamed.isError, true, 'a report must name every criterion');
    const verdicts = [
      { criterion: CRITERIA[0], verdict: 'pass', evidence: 'parser.test.ts: nested lists pass' },
      { criterion: CRITERIA[1], verdict: 'fail', evidence: `round ${round}: [1,] still parses` },
    ];
    const judged = await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts } });
    assert.equal(judged.item.status, round <= 2 ? 'rework' : 'escalated', `round ${round}`);
  }
  assert.deepEqual(guidanceVersions, [1, 2, 2], 'the pull after the commit shows a new guidance version');
  assert.equal((await bolt.ok('fleet_work_pull')).item, null, 'an escalated item is nobody\'s to pull');

  const { digest, markdown } = await vera.ok('fleet_digest');
  assert.deepEqual(digest.escalations, [{ id, title: 'nested list parser', budget: 'rework', spent: 2, limit: 2, by: 'VERA' }]);
  assert.deepEqual(digest.budgetsSpent, [{ id, title: 'nested list parser', reworkRounds: 2, reworkLimit: 2, clarificationRounds: 0, clarificationLimit: 3 }]);
  assert.ok(markdown.includes(`## Escalations waiting for the operator\n\n- nested list parser (${id}): rework budget spent, 2 of 2 rounds (by VERA)`), markdown);

  // The operator rolls it back to where it started.
  const rolledBack = await operator('work', 'decide', id, '--disposition', 'rollback', '--reason', 'budget-spent', '--note', 'three rounds, the same failure', '--json');
  assert.equal(rolledBack.code, 0, rolledBack.stderr);
  const listed = await operator('work', 'list', '--json');
  const item = JSON.parse(listed.stdout).items.find((w: { id: string }) => w.id === id);
  assert.equal(item.status, 'rolled_back');
  assert.equal(item.decision.rollbackRef, startCommit);
});
