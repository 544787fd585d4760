import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentMarks, callsignMark, markCandidates } from '../../../server/language-server/agent-marks.js';

test('BOREAS and BOLT get different marks; the first to join keeps BO', () => {
  const marks = new AgentMarks();
  assert.equal(marks.assign('a1', 'BOREAS'), 'BO');
  assert.equal(marks.assign('a2', 'BOLT'), 'BL');
  assert.equal(marks.assign('a1', 'BOREAS'), 'BO', 'a live agent keeps its mark');
});

test('a freed mark goes to the next agent that wants it', () => {
  const marks = new AgentMarks();
  marks.assign('a1', 'BOREAS');
  marks.release('a1');
  assert.equal(marks.assign('a2', 'BOLT'), 'BO');
  assert.equal(marks.of('a1'), undefined);
});

test('marks stay unique among 200 agents with colliding callsigns', () => {
  const marks = new AgentMarks();
  const seen = new Set<string>();
  for (let index = 0; index < 200; index++) {
    const mark = marks.assign(`a${index}`, index % 2 === 0 ? 'BOT' : 'BO');
    assert.equal(mark.length, 2);
    assert.ok(!seen.has(mark), `mark ${mark} given twice`);
    seen.add(mark);
  }
});

test('candidates start with the usual mark: initials of a compound name, else the first two letters', () => {
  assert.equal(callsignMark('claude-bob'), 'CB');
  assert.equal(callsignMark('ATLAS'), 'AT');
  assert.deepEqual([...markCandidates('BOLT')].slice(0, 4), ['BO', 'BO', 'BL', 'BT']);
});
