// The work protocol's CLI verbs against a plane they start: plan, clarify, answer, configure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

test('fleet work plan | clarify | answer | configure --item, with the errors a person can act on', async (t) => {
  const home = tempHome();
  const repo = makeRepo();
  const fleet = (...args: string[]) => runCli(args, { home, cwd: repo });
  t.after(async () => {
    await fleet('shutdown');
    removeHome(home);
    removeHome(repo);
  });
  assert.equal((await fleet('join', '--callsign', 'ATLAS', '--runtime', 'script', '--role', 'builder')).code, 0);
  const added = await fleet('work', 'add', 'auth', '--criterion', 'logs in', '--json');
  const id: string = JSON.parse(added.stdout).item.id;

  const unsure = await fleet('work', 'clarify', id, '--as', 'ATLAS', '--question', 'OAuth or API keys?', '--context', 'the login flow for SSO customers', '--option', 'OAuth');
  assert.equal(unsure.code, 2, 'a question says how sure its asker is');
  assert.match(unsure.stderr, /--confidence is required\n[^]*fleet work clarify .*--confidence low\|medium\|high/);
  const asked = await fleet('work', 'clarify', id, '--as', 'ATLAS', '--question', 'OAuth or API keys?', '--context', 'the login flow for SSO customers', '--confidence', 'low', '--option', 'OAuth', '--option', 'API keys');
  assert.equal(asked.code, 0, asked.stderr);
  const requestId = /clarification request (\S+)/.exec(asked.stdout)![1]!;
  const offMenu = await fleet('work', 'answer', id, '--request', requestId, '--choose', 'SAML', '--rationale', 'r');
  assert.equal(offMenu.code, 2);
  assert.match(offMenu.stderr, /one of the options offered: OAuth; API keys/);
  const answered = await fleet('work', 'answer', id, '--request', requestId, '--choose', 'OAuth', '--rationale', 'SSO customers', '--constraint', 'no keys in config');
  assert.equal(answered.code, 0, answered.stderr);

  const item = await fleet('work', 'configure', '--item', id, '--rework', '1');
  assert.equal(item.code, 0, item.stderr);
  assert.match(item.stdout, new RegExp(`${id}: 1 rework rounds, 3 clarification rounds`));
  const badRounds = await fleet('work', 'configure', '--rework', 'many');
  assert.equal(badRounds.code, 2);
  assert.match(badRounds.stderr, /--rework many: expected a whole number of rounds/);
  const agentConfigures = await fleet('work', 'configure', '--as', 'ATLAS', '--rework', '9');
  assert.equal(agentConfigures.code, 3, 'configuring is for an RTE or the operator');
  assert.match(agentConfigures.stderr, /needs role rte or the operator/);

  assert.equal((await fleet('work', 'pull', '--as', 'ATLAS')).code, 0);
  const badPlan = await fleet('work', 'plan', id, '--as', 'ATLAS', '--plan', JSON.stringify({ intendedFiles: ['src/a.ts'], validationPlan: ['npm test'], coverage: {} }));
  assert.equal(badPlan.code, 2);
  assert.match(badPlan.stderr, /misses criteria .*: logs in/);
  const planned = await fleet('work', 'plan', id, '--as', 'ATLAS', '--plan', JSON.stringify({ intendedFiles: ['src/a.ts'], validationPlan: ['npm test'], coverage: { 'logs in': 'login.test.ts' } }));
  assert.equal(planned.code, 0, planned.stderr);

  const listed = JSON.parse((await fleet('work', 'list', '--json')).stdout).items[0];
  assert.deepEqual(listed.plan.coverage, { 'logs in': 'login.test.ts' });
  const { chosen, rationale, updatedConstraints } = listed.clarifications[0].response;
  assert.deepEqual({ requestId: listed.clarifications[0].response.requestId, chosen, rationale, updatedConstraints }, { requestId, chosen: 'OAuth', rationale: 'SSO customers', updatedConstraints: ['no keys in config'] });
  assert.deepEqual(listed.budgets, { reworkRounds: 1 });
});
