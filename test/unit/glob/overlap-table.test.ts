import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePattern, normalizePattern, overlaps, overlapWitness } from '../../../server/core/glob/index.js';
import { OVERLAP_CASES } from './overlap-cases.js';

const compile = (pattern: string) => compilePattern(normalizePattern(pattern));

for (const [a, b, expected] of OVERLAP_CASES) {
  test(`${a}  ×  ${b}  →  ${expected ? 'overlap' : 'disjoint'}`, () => {
    const ca = compile(a);
    const cb = compile(b);
    assert.equal(overlaps(ca, cb), expected, `overlaps(${a}, ${b})`);
    assert.equal(overlaps(cb, ca), expected, `overlaps(${b}, ${a})`);
    const witness = overlapWitness(ca, cb);
    if (expected) {
      assert.ok(witness !== undefined);
      assert.ok(ca.matches(witness) && cb.matches(witness), `witness ${JSON.stringify(witness)} matches both`);
    }
  });
}
