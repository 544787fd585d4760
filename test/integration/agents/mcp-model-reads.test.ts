// What the model reads (issue 22 item 3): Claude Code and Codex hand the model only a result's
// structuredContent when it has one, so the brake's sentence must be in there, not only in `content`.
// The operator moves the switch from the terminal (`fleet pause|drain|stop`), as a user would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { startMcpAgent } from '../../support/mcp-agent.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { shutdownPlane } from './support.js';

test('after fleet pause, drain and stop, what the clients forward to the model opens with the notice; errors carry their guidance', async (t) => {
  const home = tempHome();
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const operator = (...args: string[]) => runCli(args, { home, cwd: repo });
  t.after(async () => {
    await shutdownPlane(home);
    removeHome(home);
    removeHome(repo);
  });
  const agent = await startMcpAgent(home, repo);
  t.after(() => agent.close());

  const unjoined = await agent.call('fleet_check_path', { paths: ['src/a.ts'] });
  assert.equal(unjoined.isError, true);
  assert.match(unjoined.forwarded, /call fleet_agent_join \{callsign, runtime\} first/, 'the join-first refusal reaches the model');
  await agent.ok('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code' });

  const running = await agent.call('fleet_check_path', { paths: ['src/a.ts'] });
  assert.equal(running.result.notice, undefined, 'no notice while the fleet runs');

  const cases = [
    { verb: 'pause', notice: /^FLEET IS PAUSED \(deploy\): start nothing new/ },
    { verb: 'drain', notice: /^FLEET IS DRAINING \(deploy\): finish the work you already hold/ },
    { verb: 'stop', notice: /^FLEET IS STOPPING \(deploy\): stop now\. .*fleet_agent_leave/ },
  ];
  for (const { verb, notice } of cases) {
    const moved = await operator(verb, '--reason', 'deploy');
    assert.equal(moved.code, 0, moved.stderr);
    const outcome = await agent.call('fleet_check_path', { paths: ['src/a.ts'] });
    assert.equal(outcome.isError, false, outcome.text);
    const forwarded = JSON.parse(outcome.forwarded) as Record<string, unknown>;
    assert.equal(Object.keys(forwarded)[0], 'notice', `after fleet ${verb}, the notice is the first thing the model reads`);
    assert.match(String(forwarded.notice), notice);
    assert.deepEqual(forwarded.control, { state: verb, reason: 'deploy' }, 'the plane result is still all there beside the notice');
  }

  // A refusal by the switch is a normal result: the model reads why and what to do in it.
  assert.equal((await operator('pause', '--reason', 'deploy')).code, 0);
  const refused = await agent.call('fleet_claim_path', { patterns: ['src/**'] });
  assert.equal(refused.result.refusedBy, 'control');
  assert.match(refused.forwarded, /FLEET IS PAUSED \(deploy\)/);
  // An error has no structuredContent, so the clients forward its text: the name, what to do, and the notice.
  const release = await agent.call('fleet_control_set', { state: 'run' });
  assert.equal(release.isError, true);
  assert.match(release.forwarded, /^FORBIDDEN: /);
  assert.match(release.forwarded, /What to do: /);
  assert.match(release.forwarded, /FLEET IS PAUSED \(deploy\)/);

  assert.equal((await operator('resume')).code, 0);
  const resumed = await agent.call('fleet_check_path', { paths: ['src/a.ts'] });
  assert.equal(resumed.result.notice, undefined, 'the notice goes once the fleet runs again');
});
