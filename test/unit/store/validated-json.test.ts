import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { SchemaMismatchError, writeValidatedJson } from '../../../server/store/validated-json.js';

/** What writeValidatedJson writes, as one string, and in how many pieces. */
function written(schema: z.ZodType, value: unknown): { text: string; pieces: number } {
  const pieces: string[] = [];
  writeValidatedJson(schema, value, (piece) => pieces.push(piece));
  return { text: pieces.join(''), pieces: pieces.length };
}

const record = z.object({ id: z.string(), n: z.number().int(), note: z.string().optional() });
const state = z.preprocess(
  (raw) => raw, // stands for the snapshot's migrations, which only run on read
  z.object({
    seq: z.number().int(),
    items: z.array(record),
    byName: z.record(z.string(), z.number()),
    later: z.array(record).default([]),
    nested: z.object({ flag: z.boolean(), when: z.number().optional() }),
  }),
);

test('a snapshot-shaped value is written in pieces, and reads back as its JSON.stringify would', () => {
  const value = {
    seq: 7,
    items: [{ id: 'a', n: 1 }, { id: 'b', n: 2, note: 'x', extra: 'kept raw inside an item' }],
    byName: { a: 1, 'with "quotes"': 2, skipped: undefined },
    nested: { flag: true, when: undefined, unknown: 'dropped' },
    unknownTop: 'dropped',
  };
  const { text, pieces } = written(state, value);
  assert.ok(pieces > 5, 'written piece by piece, not as one string');
  const reread = JSON.parse(text) as Record<string, unknown>;
  assert.deepEqual(state.parse(reread), state.parse(JSON.parse(JSON.stringify(value))));
  assert.equal('unknownTop' in reread, false, 'fields the schema does not know are left out of walked objects');
  assert.deepEqual(reread.byName, { a: 1, 'with "quotes"': 2 }, 'an undefined record value is left out, as JSON.stringify does');
  assert.deepEqual(written(z.object({ list: z.array(z.number()), map: z.record(z.string(), z.number()) }), { list: [], map: {} }).text, '{"list":[],"map":{}}');
});

test('a mismatch is refused, naming the item', () => {
  assert.throws(() => written(state, { seq: 1, items: [{ id: 'a', n: 1 }, { id: 'b', n: 1.5 }], byName: {}, nested: { flag: true } }), (error: Error) => {
    assert.ok(error instanceof SchemaMismatchError);
    assert.match(error.message, /^at \$\.items\[1\]:/);
    return true;
  });
  assert.throws(() => written(state, { seq: 1, items: [], byName: {} }), /at \$\.nested/, 'a required field that is missing');
  assert.throws(() => written(state, { seq: 1, items: [], byName: { a: 'one' }, nested: { flag: true } }), /at \$\.byName\["a"\]/);
});

test('rules over a whole object, array or record are checked whole: what the reader would refuse is never written', () => {
  const ordered = z.object({ low: z.number(), high: z.number() }).refine((range) => range.low < range.high);
  assert.throws(() => written(z.object({ range: ordered }), { range: { low: 2, high: 1 } }), SchemaMismatchError);
  assert.throws(() => written(z.object({ list: z.array(z.number()).min(2) }), { list: [1] }), SchemaMismatchError);
  assert.throws(() => written(z.strictObject({ a: z.number() }), { a: 1, b: 2 }), SchemaMismatchError);
  assert.throws(() => written(z.record(z.enum(['a', 'b']), z.number()), { a: 1 }), SchemaMismatchError);
  const loose = z.looseObject({ a: z.number() });
  assert.deepEqual(JSON.parse(written(loose, { a: 1, b: 2 }).text), loose.parse({ a: 1, b: 2 }), 'a loose object keeps its other keys');
});
