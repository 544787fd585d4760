import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ledgerSchema } from '../../contracts/index.js';
import { isAlive } from '../../server/plane/processes/process-identity.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, tempHome } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';

describe('fleet CLI against a plane it starts itself', () => {
  const home = tempHome();
  const repo = makeRepo();
  const fleet = (...args: string[]) => runCli(args, { home, cwd: repo });

  before(async () => {
    const joined = await fleet('join', '--callsign', 'ATLAS', '--runtime', 'script', '--json');
    assert.equal(joined.code, 0, joined.stderr);
    assert.equal((await fleet('join', '--callsign', 'BOLT', '--runtime', 'codex')).code, 0);
  });
  after(async () => {
    await fleet('shutdown');
    removeHome(home);
    removeHome(repo);
  });

  test('the first command started a plane that outlives it and announced itself in plane.json', () => {
    const discovery = JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as { port: number; pid: number; version: string };
    assert.ok(discovery.port > 0);
    assert.ok(isAlive(discovery.pid), 'the plane process is gone');
  });

  test('join keeps the session token so --as continues as the same agent', async () => {
    const again = await fleet('join', '--callsign', 'ATLAS', '--runtime', 'script', '--json');
    assert.equal(again.code, 0, again.stderr);
    assert.equal((JSON.parse(again.stdout) as { rejoined: boolean }).rejoined, true);
  });

  test('claim grants, a conflicting claim exits 3 naming the holder, check reports both', async () => {
    const granted = await fleet('claim', '--as', 'ATLAS', 'src/**', '--reason', 'refactor', '--json');
    assert.equal(granted.code, 0, granted.stderr);
    const grant = JSON.parse(granted.stdout) as { granted: boolean; claims: { fence: number; pattern: string }[] };
    assert.equal(grant.granted, true);
    assert.equal(grant.claims[0]!.pattern, 'src/**');

    const refused = await fleet('claim', '--as', 'BOLT', 'src/a.ts');
    assert.equal(refused.code, 3);
    assert.match(refused.stdout, /src\/a\.ts overlaps src\/\*\* held exclusive by ATLAS/);

    assert.equal((await fleet('check', '--as', 'ATLAS', 'src/a.ts')).code, 0);
    const bolt = await fleet('check', '--as', 'BOLT', 'src/a.ts', '--json');
    assert.equal(bolt.code, 3);
    assert.equal((JSON.parse(bolt.stdout) as { results: { holders: { callsign: string }[] }[] }).results[0]!.holders[0]!.callsign, 'ATLAS');
    assert.equal((await fleet('check', 'README.md')).code, 0, 'a person may write an unclaimed file');
    assert.equal((await fleet('check', join(repo, 'src/a.ts'))).code, 3, 'absolute paths inside the repository are checked too');
  });

  test('status --json prints control, agents and claims', async () => {
    const status = await fleet('status', '--json');
    assert.equal(status.code, 0, status.stderr);
    const parsed = JSON.parse(status.stdout) as { control: { state: string }; agents: { callsign: string }[]; claims: { pattern: string; holder: string }[]; plane: { socket?: string } };
    assert.equal(parsed.control.state, 'run');
    assert.equal(parsed.plane.socket, join(home, 'plane.sock'), 'status names the socket clients use');
    assert.deepEqual(parsed.agents.map((a) => a.callsign).sort(), ['ATLAS', 'BOLT']);
    assert.deepEqual(parsed.claims.map((c) => `${c.holder}:${c.pattern}`), ['ATLAS:src/**']);
  });

  test('ledger.json mirrors roster and ownership and satisfies the ledger schema', async () => {
    await fleet('status'); // any call after the claim: the ledger is debounced, so poll briefly
    let ledger;
    for (let i = 0; i < 100; i++) {
      ledger = ledgerSchema.parse(JSON.parse(readFileSync(join(home, 'ledger.json'), 'utf8')));
      if (Object.values(ledger.ownership).some((patterns) => 'src/**' in patterns)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const owners = Object.values(ledger!.ownership).flatMap((patterns) => patterns['src/**'] ?? []);
    assert.equal(owners[0]?.holder, 'ATLAS');
  });

  test('pause refuses new claims with exit 3; resume lets them through', async () => {
    assert.equal((await fleet('pause', '--reason', 'night')).code, 0);
    const refused = await fleet('claim', '--as', 'BOLT', 'docs/**');
    assert.equal(refused.code, 3);
    assert.match(refused.stdout, /pause \(night\)/);
    assert.equal((await fleet('resume')).code, 0);
    assert.equal((await fleet('claim', '--as', 'BOLT', 'docs/**')).code, 0);
  });

  test('release by pattern frees the territory', async () => {
    assert.equal((await fleet('release', '--as', 'ATLAS', 'src/**')).code, 0);
    assert.equal((await fleet('claim', '--as', 'BOLT', 'src/a.ts')).code, 0);
  });

  test('bad input exits 2 with a message saying what was wrong', async () => {
    const escape = await fleet('claim', '--as', 'ATLAS', '../outside');
    assert.equal(escape.code, 2);
    assert.match(escape.stderr, /\.\./);
    const extglob = await fleet('claim', '--as', 'ATLAS', '+(a|b)');
    assert.equal(extglob.code, 2);
    const unknownFlag = await fleet('claim', '--as', 'ATLAS', '--bogus', 'x');
    assert.equal(unknownFlag.code, 2);
    assert.match(unknownFlag.stderr, /bogus/);
    const noSession = await fleet('claim', '--as', 'NOBODY', 'x');
    assert.equal(noSession.code, 2);
    assert.match(noSession.stderr, /fleet join/);
    const notARepo = tempHome('fleet-not-a-repo-');
    const outside = await runCli(['check', 'x'], { home, cwd: notARepo });
    removeHome(notARepo);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /not inside a git repository/);
    const unknownVerb = await fleet('frobnicate');
    assert.equal(unknownVerb.code, 2);
  });

  test('fleet call reaches any method of the table, defaulting root to the working directory', async () => {
    const result = await fleet('call', 'fleet_check_path', '--json', '{"paths":["docs/x.md"]}');
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { allowed: boolean }).allowed, false);
    const listed = await fleet('call', '--list');
    assert.match(listed.stdout, /fleet_claim_path/);
  });

  test('agents cannot release the brake: an agent-side resume is FORBIDDEN (exit 3)', async () => {
    assert.equal((await fleet('call', 'fleet_control_set', '--as', 'BOLT', '--json', '{"state":"pause"}')).code, 0);
    const resume = await fleet('call', 'fleet_control_set', '--as', 'BOLT', '--json', '{"state":"run"}');
    assert.equal(resume.code, 3);
    assert.match(resume.stderr, /only the operator/);
    assert.equal((await fleet('resume')).code, 0);
  });
});
