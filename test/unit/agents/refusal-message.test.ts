import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HookVerdict } from '../../../server/hooks/hook-check.js';
import { explainRefusal } from '../../../server/hooks/refusal-message.js';

const now = Date.parse('2030-01-01T12:00:00Z');
const verdict = (partial: Partial<HookVerdict>): HookVerdict => ({ agent: null, allowed: false, overridden: false, results: [], control: { state: 'run' }, ...partial });

describe('refusals a model or a person can act on', () => {
  test("another agent's exclusive claim: whose, which pattern, until when, how to ask", () => {
    const text = explainRefusal(
      verdict({
        agent: { callsign: 'ATLAS', status: 'active' },
        results: [{ path: 'src/a.ts', allowed: false, holders: [{ callsign: 'BOLT', mode: 'exclusive', pattern: 'src/**', expiresAt: '2030-01-01T12:01:40.000Z' }] }],
      }),
      { hook: 'git-pre-commit', now },
    );
    assert.match(text, /^fleet: commit refused: 1 staged path is outside ATLAS's territory:/);
    assert.match(text, /src\/a\.ts: held exclusively by BOLT \(claim src\/\*\*, until 2030-01-01T12:01:40.000Z, in 1m 40s\)/);
    assert.match(text, /Claim before writing: fleet claim --as ATLAS src\/a\.ts/);
    assert.match(text, /Held by BOLT: .*ask for a handoff: fleet_message_send \{"to": \{"callsign": "BOLT"\}/);
    assert.match(text, /git commit --no-verify skips every git hook/);
  });

  test('unclaimed paths, shared holders, escrow, and paths that need quoting', () => {
    const text = explainRefusal(
      verdict({
        agent: { callsign: 'ATLAS', status: 'active' },
        results: [
          { path: 'README.md', allowed: false, holders: [] },
          { path: 'docs/a b.md', allowed: false, holders: [{ callsign: 'BOLT', mode: 'shared', pattern: 'docs/**', expiresAt: '2030-01-01T12:10:00.000Z' }] },
          { path: 'lib/x.ts', allowed: false, holders: [{ callsign: 'ATLAS', mode: 'exclusive', pattern: 'lib/**', expiresAt: '2030-01-01T12:10:00.000Z' }] },
        ],
      }),
      { hook: 'claude-pre-tool-use', now },
    );
    assert.match(text, /^Fleet territory: ATLAS may not write these files now:/);
    assert.match(text, /README\.md: unclaimed: ATLAS holds no live claim covering it/);
    assert.match(text, /docs\/a b\.md: held shared by BOLT .*ATLAS holds no claim covering it/);
    assert.match(text, /lib\/x\.ts: your claim on it travels with a pending handoff/);
    assert.match(text, /fleet claim --as ATLAS README\.md 'docs\/a b\.md' lib\/x\.ts/);
    assert.doesNotMatch(text, /--no-verify/);
  });

  test('an agent that expired is told it holds nothing; a Claude session that never joined is told to join', () => {
    const expired = explainRefusal(verdict({ agent: { callsign: 'GONE', status: 'expired' }, results: [{ path: 'a', allowed: false, holders: [] }] }), { hook: 'git-pre-commit', now });
    assert.match(expired, /GONE is not on the roster any more \(expired\): an agent that expired holds no territory/);
    const stranger = explainRefusal(verdict({ results: [{ path: 'a', allowed: false, holders: [] }] }), { hook: 'claude-pre-tool-use', now });
    assert.match(stranger, /has not joined the fleet.*writes as a person.*fleet_agent_join/);
  });
});
