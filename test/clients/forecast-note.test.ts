// The conflict-forecast note on a file tool, through the real Claude Code CLI (2.1.328, installed by
// .ci/install-agent-clients.sh) in a repository set up by `fleet init`: the PreToolUse hook that lets
// a Write through answers additionalContext (no permissionDecision), and the model reads it after
// the tool's result; no fleet PostToolUse runs on the file tools. Pre-written for the headless run as
// in claude-code.test.ts (the allow-list `--allowedTools Write Edit Bash mcp__fleet`, the scripted
// model server as base URL and proxy). MINE (a script agent) works in the repository on branch
// `mine` with an uncommitted edit; THEIRS, in a linked worktree on `theirs`, committed a conflicting
// one: the plane forecasts their conflict in src/shared.ts.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { git } from '../support/git-repo.js';
import { until } from '../integration/agents/support.js';
import { runClaude } from './harness/claude-code.js';
import { describeRun, type ClientRun } from './harness/client-run.js';
import type { FleetCheckout } from './harness/fleet-checkout.js';
import { fleetCheckout } from './harness/fleet-checkout.js';
import { clientOrSkip } from './harness/installed-clients.js';
import { startModelServer, type ModelServer } from './harness/model-server.js';
import { lastAgentRequest, readAfterResult, resultOfCallNaming, scriptOf } from './harness/model-turn.js';

const { client, skip } = clientOrSkip('claude-code');

const SHARED = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`);
const edited = (text: string) => `${SHARED.map((line, i) => (i === 1 ? text : line)).join('\n')}\n`;

describe('Claude Code: a Write to a file in a forecast conflict', { skip }, () => {
  let server: ModelServer;
  let checkout: FleetCheckout;
  let run: ClientRun;

  before(async () => {
    server = await startModelServer();
    checkout = await fleetCheckout({ 'src/shared.ts': `${SHARED.join('\n')}\n`, 'README.md': '# repo\n' });
    git(checkout.repo, 'checkout', '-q', '-b', 'mine');
    const theirs = checkout.linkedWorktree('theirs');
    writeFileSync(join(theirs, 'src/shared.ts'), edited('THEIRS says two'));
    git(theirs, 'commit', '-q', '-am', 'theirs edits line 2');
    writeFileSync(join(checkout.repo, 'src/shared.ts'), edited('MINE says two'));
    await checkout.scriptAgentClaims('THEIRS', theirs, ['docs/**']);
    await checkout.scriptAgentClaims('MINE', checkout.repo, ['README.md']);
    const forecast = async () => (JSON.parse((await checkout.fleet('conflicts', '--json')).stdout) as { conflicts: unknown[] }).conflicts.length > 0;
    await until(forecast, 60_000, 'the MINE–THEIRS conflict forecast');
    server.play(scriptOf([{ calls: [{ name: 'Write', input: { file_path: join(checkout.repo, 'src/shared.ts'), content: edited('the session says two') } }] }]));
    run = await runClaude(client!, checkout, server, 'rewrite line 2 of src/shared.ts');
  });
  after(async () => {
    await checkout?.dispose();
    await server?.close();
  });

  test('the Write goes through and the model reads the note after its result, naming the other branch', () => {
    const write = resultOfCallNaming(lastAgentRequest(server.requests), 'Write', 'src/shared.ts');
    assert.ok(write, describeRun(run));
    assert.equal(write.isError, false, write.text);
    assert.equal(readFileSync(join(checkout.repo, 'src/shared.ts'), 'utf8'), edited('the session says two'));
    const read = readAfterResult(lastAgentRequest(server.requests), write);
    assert.doesNotMatch(read, /PostToolUse:Write hook/, 'no fleet hook after a file tool');
    assert.match(read, /PreToolUse:Write hook additional context: Fleet conflict forecast: merging your branch would conflict in files you just touched \(nothing was blocked\):\\n {2}src\/shared\.ts: with THEIRS's branch refs\/heads\/theirs/, read);
  });
});
