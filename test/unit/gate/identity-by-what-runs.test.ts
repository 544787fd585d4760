// Issue 27 item 3: the fleet CLI recognised by what runs (its real path), not by the word `fleet`;
// git's ways past the pre-commit hook (abbreviated --no-verify, core.hooksPath from the environment
// or --config-env, aliases from the command, the repository and the user's configuration). Real
// files, a real fleet package (this checkout), real git.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { identityFindings, refusalsFor } from '../../../server/gate/identity-rules.js';
import { analyzeShell } from '../../../server/gate/shell-analysis.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

/** This checkout: a real fleet package (package.json names fleet-coordination; bin/fleet.js, out/server/cli/main.js). */
const PACKAGE = fileURLToPath(new URL('../../../../', import.meta.url));

describe('identity rules read what a command runs', () => {
  const home = tempHome('fleet-ident-home-');
  const elsewhere = tempHome('fleet-ident-elsewhere-');
  const bundle = tempHome('fleet-ident-bundle-');
  const userConfig = join(elsewhere, 'gitconfig');
  let repo: string;
  const savedGlobal = process.env.GIT_CONFIG_GLOBAL;

  function refused(command: string, local = true): string[] {
    const facts = analyzeShell(command, repo, { HOME: elsewhere, FLEET_HOME: home });
    return refusalsFor(identityFindings(facts, [home], local), 'ATLAS').map((r) => r.what);
  }

  before(() => {
    // FLEET_HOME/bin/fleet as install-hooks writes it, a copy of it and a link to it under other names.
    mkdirSync(join(home, 'bin'));
    writeFileSync(join(home, 'bin', 'fleet'), `#!/bin/sh\nexec '${process.execPath}' '${join(PACKAGE, 'bin', 'fleet.js')}' "$@"\n`, { mode: 0o755 });
    copyFileSync(join(home, 'bin', 'fleet'), join(elsewhere, 'launch'));
    symlinkSync(join(home, 'bin', 'fleet'), join(elsewhere, 'f'));
    symlinkSync(join(PACKAGE, 'bin', 'fleet.js'), join(elsewhere, 'tool.js'));
    // The bundle the VS Code extension ships: dist/fleet.cjs in a package named fleet-coordination.
    mkdirSync(join(bundle, 'dist'));
    writeFileSync(join(bundle, 'package.json'), JSON.stringify({ name: 'fleet-coordination', bin: { fleet: 'bin/fleet.js' } }));
    writeFileSync(join(bundle, 'dist', 'fleet.cjs'), '// bundle\n');
    repo = makeRepo({ 'package.json': JSON.stringify({ name: 'app' }), 'scripts/build.js': 'console.log(1)\n', 'src/a.ts': '' });
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args]);
    git('config', 'alias.x', 'commit -n');
    git('config', 'alias.sx', '!git add -A && git commit --no-verify');
    git('config', 'alias.st', 'status --short');
    git('config', 'alias.chain', 'x');
    writeFileSync(userConfig, '[alias]\n\tquick = commit --no-verif\n');
    process.env.GIT_CONFIG_GLOBAL = userConfig;
  });

  after(() => {
    if (savedGlobal === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = savedGlobal;
    for (const dir of [home, elsewhere, bundle, repo]) removeHome(dir);
  });

  const denied: [command: () => string, what: RegExp][] = [
    [() => `node ${join(PACKAGE, 'bin', 'fleet.js')} resume`, /acts as the operator .*fleet_control_set/],
    [() => `node ${join(PACKAGE, 'bin', 'fleet.js')} call fleet_claim_force_release --json '{}'`, /fleet_claim_force_release/],
    [() => `node --no-warnings ${join(bundle, 'dist', 'fleet.cjs')} resume`, /acts as the operator/],
    [() => `node ${join(elsewhere, 'tool.js')} resume`, /acts as the operator/],
    [() => `${join(elsewhere, 'f')} resume`, /acts as the operator/],
    [() => `${join(elsewhere, 'launch')} stop`, /acts as the operator/],
    [() => `sh ${join(home, 'bin', 'fleet')} drain`, /acts as the operator/],
    [() => `cd ${PACKAGE} && node bin/fleet.js resume`, /acts as the operator/],
    [() => 'npx --yes fleet-coordination resume', /acts as the operator/],
    [() => 'npm exec fleet -- release --as BOLT x', /acts as BOLT/],
    [() => 'git commit --no-verif -m x', /--no-verify/],
    [() => 'git commit --no-veri -m x', /--no-verify/],
    [() => 'git --config-env=core.hooksPath=HP commit -m x', /core\.hooksPath/],
    [() => 'git config --local core.hooksPath /tmp/none', /core\.hooksPath/],
    [() => 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x', /core\.hooksPath/],
    [() => `export GIT_CONFIG_PARAMETERS="'core.hooksPath'='/dev/null'"`, /core\.hooksPath/],
    [() => "git -c alias.ci='commit -n' ci -m x", /alias of `commit -n`.*--no-verify/],
    [() => "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.ci GIT_CONFIG_VALUE_0='commit --no-verify' git ci -m x", /alias .*--no-verify/],
    [() => 'git x -m "from the repository\'s config"', /git x, an alias of `commit -n`/],
    [() => 'git sx -m x', /git sx, an alias .*--no-verify/],
    [() => 'git chain -m x', /git chain, an alias of `x`: git x, an alias of `commit -n`/],
    [() => 'git quick -m x', /git quick, an alias of `commit --no-verif`/],
  ];

  for (const [command, what] of denied) {
    test(`refused: ${command().replace(PACKAGE, '<checkout>/')}`, () => {
      const found = refused(command());
      assert.ok(found.some((r) => what.test(r)), `${command()} → ${JSON.stringify(found)}`);
    });
  }

  const allowed = [
    'node scripts/build.js',
    `node ${join(PACKAGE, 'out', 'server', 'cli', 'main.js')} status --json`,
    `${join(elsewhere, 'f')} claim --as ATLAS src/a.ts`,
    'git commit -m x',
    'git config user.name',
    'git config user.name "A Person"',
    'git st',
    'git commit --no-verbose -m x',
    'git pull --no-verify-signatures',
    'git -C . log --oneline -n 3',
    'npx tsc -b',
    'npm exec eslint -- src',
    "node -e 'process.exit(0)' resume",
  ];
  for (const command of allowed) {
    test(`allowed: ${command.replace(PACKAGE, '<checkout>/')}`, () => assert.deepEqual(refused(command), []));
  }

  test("a remote agent's programs and git configuration are not read from the plane's disk: only their names are judged", () => {
    assert.deepEqual(refused(`${join(elsewhere, 'f')} resume`, false), []);
    assert.deepEqual(refused('git x -m x', false), []);
    assert.ok(refused(`node /their/checkout/bin/fleet.js resume`, false).some((r) => /acts as the operator/.test(r)));
    assert.ok(refused("git -c alias.ci='commit -n' ci", false).some((r) => /--no-verify/.test(r)));
  });

  test('a read of git\'s configuration that does not end (an include of a pipe nobody writes) is cut at the deadline, and the command refused', () => {
    const fifo = join(elsewhere, 'never');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    assert.ok(refused(`git -c include.path=${fifo} ci2 -m x`).some((r) => /git ci2: the gate could not read whether it is an alias/.test(r)));
    assert.ok(Date.now() - started < 2500, 'within the parser thread\'s 3 s');
  });

  test('past eight git commands that may be aliases in one command, the next is refused rather than read', () => {
    const many = Array.from({ length: 9 }, (_, i) => `git nosuch${i}`).join('; ');
    assert.ok(refused(many).some((r) => /git nosuch8: the gate could not read whether it is an alias/.test(r)));
  });
});
