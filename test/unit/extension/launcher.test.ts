// The extension's launchers: beside bin/fleet and bin/fleet-hook it installs the hook front (POSIX),
// which hands an event it cannot post to the plane (no plane here) to the bin/fleet-hook it installed,
// with the same arguments and every byte of the event.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOOK_FRONT_SCRIPT } from '../../../contracts/hook-front.js';
import { installLauncher } from '../../../extension/src/launcher.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

test('installLauncher writes bin/fleet-hook-front, which runs bin/fleet-hook with the same arguments and event when no plane answers', { skip: process.platform === 'win32' && 'no hook front on Windows' }, async () => {
  const home = tempHome('fleet-ext-launcher-');
  const dist = join(home, 'dist');
  mkdirSync(dist);
  // The bundled runner, standing in: says what it was given.
  writeFileSync(join(dist, 'fleet-hook.cjs'), `process.stdout.write(JSON.stringify({ args: process.argv.slice(2), stdin: require('node:fs').readFileSync(0, 'utf8') }));\n`);
  try {
    await installLauncher(home, join(dist, 'fleet.cjs'), process.execPath);
    const front = join(home, 'bin', 'fleet-hook-front');
    assert.equal(readFileSync(front, 'utf8'), HOOK_FRONT_SCRIPT);
    assert.equal(statSync(front).mode & 0o777, 0o755);
    const event = JSON.stringify({ tool_name: 'Write', tool_input: { file_path: 'ü.md', content: 'a\\b\n' } });
    const ran = spawnSync(front, ['codex-pre-tool-use', '--home', home, '--root', '/repo'], { input: event, encoding: 'utf8' });
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(JSON.parse(ran.stdout), { args: ['codex-pre-tool-use', '--home', home, '--root', '/repo'], stdin: event });
  } finally {
    removeHome(home);
  }
});
