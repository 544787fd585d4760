import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ViewAgent } from '../../../contracts/lsp.js';
import { rosterDescription } from '../../../extension/src/views/roster-description.js';

const agent: ViewAgent = {
  agentId: 'ag_1',
  callsign: 'ZED',
  runtime: 'claude-code',
  role: 'worker',
  tier: 'local',
  status: 'active',
  joinedAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  claimCount: 12,
  mark: 'ZE',
};

test('a roster row leads with the claim count: a long task cut at the sidebar edge never takes the count with it', () => {
  const task = 'rewrite the tokenizer so that the parser can stream very long files without buffering them whole';
  const description = rosterDescription({ ...agent, task });
  assert.ok(description.startsWith('12 claims · '), description);
  assert.ok(description.endsWith(task));
  assert.equal(rosterDescription({ ...agent, claimCount: 0, status: 'idle' }), 'idle', 'no count when it holds nothing');
});
