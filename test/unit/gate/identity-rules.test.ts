import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { identityFindings, refusalsFor } from '../../../server/gate/identity-rules.js';
import { analyzeShell } from '../../../server/gate/shell-analysis.js';

const HOME = '/home/u/.fleet';

function refused(command: string, writer: string | null = 'ATLAS'): string[] {
  const facts = analyzeShell(command, '/repo', { HOME: '/home/u', FLEET_HOME: HOME });
  return refusalsFor(identityFindings(facts, [HOME]), writer ?? undefined).map((r) => r.what);
}

const denied: [command: string, what: RegExp][] = [
  ['FLEET_AS=BOLT fleet claim --as BOLT x', /FLEET_AS=BOLT: you are ATLAS/],
  ['export FLEET_AS=BOLT', /FLEET_AS=BOLT/],
  ['env FLEET_AS=BOLT git commit -m x', /FLEET_AS=BOLT/],
  ['fleet claim --as BOLT src/x.ts', /acts as BOLT: you are ATLAS/],
  ['fleet release --as=BOLT src/x.ts', /acts as BOLT/],
  ['FLEET_OVERRIDE=please echo x', /FLEET_OVERRIDE/],
  ['fleet resume', /acts as the operator .*fleet_control_set/],
  ['fleet pause --reason x', /acts as the operator/],
  ['~/.fleet/bin/fleet stop', /acts as the operator/],
  ['node /opt/fleet/out/server/cli/main.js resume', /acts as the operator/],
  ['fleet shutdown', /fleet_plane_shutdown, which only the operator may call/],
  ['fleet work decide W1 --disposition accept --reason ok', /acts as the operator .*fleet_work_update/],
  ['fleet build configure --command "npm test"', /fleet_build_configure/],
  [`fleet call fleet_control_set --json '{"state":"run"}'`, /acts as the operator .*fleet_control_set/],
  [`fleet call fleet_claim_force_release --json '{}'`, /acts as the operator .*fleet_claim_force_release/],
  ['fleet call fleet_plane_shutdown --as ATLAS', /only the operator may call/],
  ['fleet uninstall-hooks', /takes the fleet's write gate out/],
  ['fleet init --remove', /takes the fleet's write gate out/],
  ['git commit --no-verify -m x', /--no-verify/],
  ['git commit -nm x', /--no-verify/],
  ['git push --no-verify origin main', /--no-verify/],
  ['git -c core.hooksPath=/dev/null commit -m x', /core\.hooksPath/],
  ['git config core.hooksPath /tmp/none', /core\.hooksPath/],
  [`cat ${HOME}/token`, /token in FLEET_HOME/],
  ['cp "$FLEET_HOME/operator-token" /tmp/t', /operator-token/],
  ['cat ~/.fleet/sessions/ATLAS.json', /sessions/],
  ['source ~/.fleet/sessions/BOLT.env', /sessions/],
  ['cat < ~/.fleet/token', /token/],
  ['cd ~/.fleet && cat token', /token in FLEET_HOME/],
  ['tar cf /tmp/x.tar ~/.fleet/*', /\.fleet/],
  ['bash -c "cat ~/.fleet/token"', /token/],
];

const allowed = [
  'fleet claim --as ATLAS src/x.ts',
  'FLEET_AS=ATLAS git commit -m x',
  'fleet status --json',
  'fleet check src/x.ts',
  'fleet call fleet_roster',
  `fleet call fleet_claim_path --as ATLAS --json '{"patterns":["a"]}'`,
  `fleet call fleet_control_set --as ATLAS --json '{"state":"pause"}'`,
  'fleet work pull --as ATLAS',
  // As itself, an agent's call of an rte method is the plane's to decide by its role (an RTE may).
  `fleet call fleet_claim_force_release --as ATLAS --json '{}'`,
  'git commit -m "no verify talk"',
  'git push -n origin main',
  '~/.fleet/bin/fleet status',
  'ls ~/.fleet',
  `cat ${HOME}/plane.json`,
  'git log -n 3',
];

describe('identity rules: commands that act as the operator or as another agent', () => {
  for (const [command, what] of denied) {
    test(`refused: ${command}`, () => assert.ok(refused(command).some((r) => what.test(r)), `${command} → ${JSON.stringify(refused(command))}`));
  }
  for (const command of allowed) {
    test(`allowed: ${command}`, () => assert.deepEqual(refused(command), []));
  }

  test('with no writer known, --as another callsign cannot be judged (a session joining by the CLI), but operator verbs still are', () => {
    assert.deepEqual(refused('fleet claim --as BOLT x', null), []);
    assert.equal(refused('fleet resume', null).length, 1);
  });

  test('each refusal says what to do instead', () => {
    const facts = analyzeShell('fleet resume; git commit -n; cat ~/.fleet/token', '/repo', { HOME: '/home/u', FLEET_HOME: HOME });
    for (const refusal of refusalsFor(identityFindings(facts, [HOME]), 'ATLAS')) assert.ok(refusal.instead.length > 20, refusal.what);
  });
});
