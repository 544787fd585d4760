import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { FleetError } from '../../../contracts/index.js';
import { setGitConfigOnce } from '../../../server/plane/repository/git-config.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { removeHome } from '../../support/plane-process.js';

const run = promisify(execFile);
const RESOLVER = pathToFileURL(join(import.meta.dirname, '../../../server/plane/repository/scope-resolver.js')).href;

test('the value already set wins: a second writer gets the first id back, and git reads it', (t) => {
  const root = makeRepo();
  t.after(() => removeHome(root));
  const config = join(root, '.git', 'config');
  assert.equal(setGitConfigOnce(config, 'fleet', 'scope', 'first-id'), 'first-id');
  assert.equal(setGitConfigOnce(config, 'fleet', 'scope', 'second-id'), 'first-id');
  assert.equal(git(root, 'config', '--get', 'fleet.scope'), 'first-id');
  assert.equal(git(root, 'config', '--get', 'core.bare'), 'false', 'the rest of the config is as it was');
});

test('a lock another writer holds is waited for briefly, then refused with what to do', (t) => {
  const root = makeRepo();
  t.after(() => removeHome(root));
  const config = join(root, '.git', 'config');
  writeFileSync(`${config}.lock`, '');
  assert.throws(
    () => setGitConfigOnce(config, 'fleet', 'scope', 'x'),
    (error: unknown) => error instanceof FleetError && error.errorName === 'INVALID_STATE' && /config\.lock exists.*retry in a moment/.test(error.message),
  );
});

test('processes resolving a repository without origin at once all agree on one generated id', async (t) => {
  const root = makeRepo();
  t.after(() => removeHome(root));
  const script = `import(${JSON.stringify(RESOLVER)}).then(({ ScopeResolver }) => process.stdout.write(new ScopeResolver().resolve(${JSON.stringify(root)}).id))`;
  const ids = await Promise.all(Array.from({ length: 6 }, () => run(process.execPath, ['-e', script]).then((out) => out.stdout)));
  assert.equal(new Set(ids).size, 1, `one id: ${ids.join(', ')}`);
  assert.equal(git(root, 'config', '--get', 'fleet.scope'), ids[0]);
});
