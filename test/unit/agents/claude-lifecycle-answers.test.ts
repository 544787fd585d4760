import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { breachAnswer, postToolUseOutput } from '../../../server/hooks/post-tool-use.js';
import { describeResume } from '../../../server/hooks/session-hooks.js';
import type { HookVerdict } from '../../../server/hooks/hook-check.js';

const verdict = (partial: Partial<HookVerdict>): HookVerdict => ({ agent: null, allowed: false, overridden: false, results: [], control: { state: 'run' }, ...partial });
const bolt = { callsign: 'BOLT', mode: 'exclusive' as const, pattern: 'src/**', expiresAt: '2030-01-01T12:01:40.000Z' };

describe('PostToolUse: what a call changed, as Claude Code reads it', () => {
  test("a path another agent holds exclusively is a block naming path, holder and what to do", () => {
    const answer = breachAnswer('Bash', verdict({ agent: { callsign: 'ATLAS', status: 'active' }, results: [{ path: 'src/a.ts', allowed: false, holders: [bolt] }] }));
    assert.equal(answer.decision, 'block');
    const printed = JSON.parse(postToolUseOutput(answer)) as { decision: string; reason: string };
    assert.equal(printed.decision, 'block');
    assert.match(printed.reason, /your Bash call changed a file another agent holds exclusively \(you are ATLAS\)/);
    assert.match(printed.reason, /src\/a\.ts: held by BOLT \(claim src\/\*\*\)/);
    assert.match(printed.reason, /Nothing was reverted.*Do not release or take their claim/s);
    assert.match(printed.reason, /fleet_message_send \{"to": \{"callsign": "BOLT"\}/);
  });

  test('allowed paths, unclaimed ones and the agent\'s own escrowed claim are not reported after the fact', () => {
    const own = { ...bolt, callsign: 'ATLAS' };
    const answer = breachAnswer(
      'mcp__fs__write_file',
      verdict({
        agent: { callsign: 'ATLAS', status: 'active' },
        results: [
          { path: 'docs/a.md', allowed: true, holders: [own] },
          { path: 'README.md', allowed: false, holders: [] },
          { path: 'src/b.ts', allowed: false, holders: [own] },
          { path: 'lib/x.ts', allowed: false, holders: [{ ...bolt, mode: 'shared' }] },
        ],
      }),
    );
    assert.deepEqual(answer, { decision: 'none' });
    assert.equal(postToolUseOutput(answer), '');
  });
});

describe('SessionStart: the resume, short enough for a context window', () => {
  const empty = { claims: [], work: [], unreadCount: 0, unread: [], handoffsToMe: [] };

  test('claims, work, unread messages, handoffs from others; the escrow taken back is said', () => {
    const text = describeResume(
      'ATLAS',
      {
        claims: [{ id: 'cl_1', pattern: 'src/**', mode: 'exclusive', expiresAt: '2030-01-01T12:00:00.000Z' }],
        work: [{ id: 'w_1', title: 'Parser', status: 'in_progress' }],
        unreadCount: 7,
        unread: Array.from({ length: 7 }, (_, i) => ({ from: 'BOLT', type: 'INFO', body: `note ${i}` })),
        handoffsToMe: [
          { id: 'ho_1', envelope: { from: 'BOLT', summary: 'take the lexer' } },
          { id: 'ho_2', envelope: { from: 'ATLAS', summary: 'my own escrow' } },
        ],
      },
      1,
    );
    assert.match(text, /^You are ATLAS in the fleet/);
    assert.match(text, /1 claim\(s\) came back out of escrow/);
    assert.match(text, /- src\/\*\* \(exclusive, id cl_1, until 2030-01-01T12:00:00.000Z\)/);
    assert.match(text, /- w_1 Parser \[in_progress\]/);
    assert.match(text, /Unread messages: 7/);
    assert.equal(text.match(/- INFO from BOLT/g)?.length, 5, 'five messages listed, the rest counted');
    assert.match(text, /- ho_1 from BOLT: take the lexer/);
    assert.doesNotMatch(text, /ho_2/, 'its own handoff was just taken back');
  });

  test('nothing held: says so, and no escrow line', () => {
    const text = describeResume('ATLAS', empty, 0);
    assert.match(text, /Claims: none\./);
    assert.doesNotMatch(text, /escrow/);
  });
});
