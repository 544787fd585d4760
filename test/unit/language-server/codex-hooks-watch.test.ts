// The language server's look at Codex's trust in the fleet's hooks (codex-hooks-watch.ts): the
// real installHooks writes them to a temp CODEX_HOME; the watch tells at start, then again on each
// change to config.toml that changes the answer, and only then.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { CodexRepositoryHooks } from '../../../contracts/lsp.js';
import { installHooks } from '../../../server/hooks/install.js';
import { CodexHooksWatch } from '../../../server/language-server/codex-hooks-watch.js';
import { trustTables } from '../../support/codex-trust.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

const repo = makeRepo();
const home = tempHome('fleet-home-');
const codexHome = tempHome('fleet-codex-');
const other = makeRepo();
after(() => [repo, home, codexHome, other].forEach(removeHome));

test('untrusted at start, trusted after config.toml gains the trust, told once per change; a repository without fleet hooks is not named', async () => {
  const env = { ...process.env, CODEX_HOME: codexHome };
  installHooks(repo, home, { git: false, claude: false, codex: true, claudeScope: 'local' }, env);
  const told: CodexRepositoryHooks[][] = [];
  let next: (() => void) | undefined;
  const watch = new CodexHooksWatch(() => [repo, other], (repositories) => {
    told.push(repositories);
    next?.();
  }, () => undefined, env);
  const publication = (count: number) => new Promise<void>((resolve) => {
    next = () => told.length >= count && resolve();
    next();
  });
  // The watch does not hold the process open (the language server's connection does): this test does.
  const alive = setInterval(() => undefined, 1000);
  try {
    watch.start();
    await publication(1);
    assert.deepEqual(told[0]!.map((repository) => repository.worktree), [repo]);
    assert.ok(told[0]![0]!.hooks.every((hook) => hook.trust === 'untrusted'), JSON.stringify(told[0]));
    assert.match(told[0]![0]!.summary, /open Codex and run \/hooks/);

    const trusted = trustTables(codexHome, repo, (_event, hash) => hash);
    writeFileSync(join(codexHome, 'config.toml'), trusted);
    await publication(2);
    assert.ok(told[1]![0]!.hooks.every((hook) => hook.trust === 'trusted'), JSON.stringify(told[1]));

    // The same trust written again tells nothing; disabling a hook tells, as the third publication.
    writeFileSync(join(codexHome, 'config.toml'), trusted);
    writeFileSync(join(codexHome, 'config.toml'), `${trusted}enabled = false\n`);
    await publication(3);
    assert.equal(told.length, 3);
    assert.deepEqual(told[2]![0]!.hooks.map((hook) => hook.trust).sort(), ['disabled', 'trusted', 'trusted', 'trusted']);
  } finally {
    clearInterval(alive);
    watch.dispose();
  }
});
