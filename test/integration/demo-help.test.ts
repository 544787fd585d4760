// `fleet demo --help` tells a person every flag the demo takes, not only what the demo is.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { runCli } from '../support/run-cli.js';

test('fleet demo --help lists each of its flags with what it does', async () => {
  const { code, stdout } = await runCli(['demo', '--help'], { home: tmpdir(), cwd: tmpdir() });
  assert.equal(code, 0);
  for (const flag of ['--here', '--duration S', '--pace N', '--seed N', '--keep', '--home DIR', '--json']) assert.match(stdout, new RegExp(`^  ${flag} +\\S`, 'm'), `${flag} is explained`);
});
