import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { fleetEventSchema } from '../../../contracts/events.js';
import { handoffEnvelopeSchema } from '../../../contracts/handoff.js';
import { limits } from '../../../contracts/limits.js';
import { methodList } from '../../../contracts/method-table.js';

/**
 * The enforcement that keeps every input bounded (DESIGN §12): each string, list and free-form
 * value of every method's params, found by walking the method table's schemas, must carry a
 * bound, and the schema must refuse a value one past it at exactly that parameter, with a message
 * naming the limit. A new unbounded field fails here.
 */

type Step = string | number;
interface JsonSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  maxItems?: number;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
/** A discriminator a union branch needs, so the parse reaches the field under test. */
interface Pin {
  at: Step[];
  key: string;
  value: unknown;
}
interface BoundedField {
  where: Step[];
  kind: 'string' | 'array' | 'json';
  max: number;
  pins: Pin[];
  item?: JsonSchema;
}

/** boundedJson says its bound in the description, where models read it too. */
const jsonBound = (node: JsonSchema): number | undefined => {
  const match = /at most (\d+) characters once serialized/.exec(node.description ?? '');
  return match ? Number(match[1]) : undefined;
};

function walk(node: JsonSchema, where: Step[], pins: Pin[], found: BoundedField[], unbounded: string[]): void {
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const branchPins = Object.entries(branch.properties ?? {})
      .filter(([, property]) => property.const !== undefined)
      .map(([key, property]) => ({ at: where, key, value: property.const }));
    walk(branch, where, [...pins, ...branchPins], found, unbounded);
  }
  const place = where.join('.') || '(params)';
  switch (node.type) {
    case 'string':
      if (node.enum !== undefined || node.const !== undefined) return;
      if (node.maxLength === undefined) unbounded.push(`${place}: a string without maxLength`);
      else found.push({ where, kind: 'string', max: node.maxLength, pins });
      return;
    case 'array':
      if (node.maxItems === undefined) unbounded.push(`${place}: a list without maxItems`);
      else found.push({ where, kind: 'array', max: node.maxItems, pins, item: node.items });
      if (node.items) walk(node.items, [...where, 0], pins, found, unbounded);
      return;
    case 'object':
      for (const [key, property] of Object.entries(node.properties ?? {})) walk(property, [...where, key], pins, found, unbounded);
      return;
    case undefined:
      if (node.anyOf || node.oneOf) return;
      if (jsonBound(node) === undefined) unbounded.push(`${place}: a free-form value without a size bound (use boundedJson)`);
      else found.push({ where, kind: 'json', max: jsonBound(node)!, pins });
      return;
    default:
      return; // numbers, booleans, null: fixed size
  }
}

function fieldsOf(params: z.ZodType) {
  const found: BoundedField[] = [];
  const unbounded: string[] = [];
  walk(z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as JsonSchema, [], [], found, unbounded);
  return { found, unbounded };
}

/** Puts `value` at `where` inside `root`, making objects and arrays on the way. */
function place(root: Record<string, unknown>, where: Step[], value: unknown): void {
  let container: Record<Step, unknown> = root;
  where.forEach((step, index) => {
    if (index === where.length - 1) {
      container[step] = value;
      return;
    }
    container[step] ??= typeof where[index + 1] === 'number' ? [] : {};
    container = container[step] as Record<Step, unknown>;
  });
}

const smallest = (item: JsonSchema | undefined): unknown => (item?.type === 'object' ? {} : item?.type === 'string' ? 'x' : 0);

function overLimit(field: BoundedField): unknown {
  if (field.kind === 'array') return Array.from({ length: field.max + 1 }, () => smallest(field.item));
  return 'x'.repeat(field.max + 1);
}

function inputWith(field: BoundedField, value: unknown): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const pin of field.pins) place(input, [...pin.at, pin.key], pin.value);
  place(input, field.where, value);
  return input;
}

type Issue = { path: PropertyKey[]; message: string; errors?: Issue[][] };
const flatten = (issues: Issue[]): Issue[] => issues.flatMap((issue) => [issue, ...flatten((issue.errors ?? []).flat())]);

test('every string, list and free-form value of every method param has a bound', () => {
  const problems = methodList.flatMap((method) => fieldsOf(method.params).unbounded.map((where) => `${method.name}: ${where}`));
  assert.deepEqual(problems, [], 'bound each with boundedText / boundedList / boundedJson from contracts/limits.ts');
});

test('every method refuses a value one past its bound, at that parameter, naming the limit', () => {
  let checked = 0;
  for (const method of methodList) {
    for (const field of fieldsOf(method.params).found) {
      const result = method.params.safeParse(inputWith(field, overLimit(field)));
      assert.equal(result.success, false, `${method.name} accepted ${field.where.join('.')} past ${field.max}`);
      const issues = flatten(result.error!.issues as Issue[]);
      const atField = issues.filter((issue) => issue.path.join('.') === field.where.join('.'));
      assert.ok(
        atField.some((issue) => issue.message.includes(`over the limit of ${field.max}`) && issue.message.includes('docs/limits.md')),
        `${method.name} ${field.where.join('.')}: no issue naming the limit of ${field.max}, got ${JSON.stringify(atField.map((i) => i.message))}`,
      );
      checked += 1;
    }
  }
  assert.ok(checked > 100, `only ${checked} bounded fields found: the walker missed the schemas`);
});

test('a value exactly at its bound is not refused for its size', () => {
  for (const method of methodList) {
    for (const field of fieldsOf(method.params).found.filter((f) => f.kind !== 'array')) {
      const atLimit = field.kind === 'json' ? 'x'.repeat(field.max - 2) : 'x'.repeat(field.max);
      const result = method.params.safeParse(inputWith(field, atLimit));
      const issues = result.success ? [] : flatten(result.error.issues as Issue[]);
      const sizeIssues = issues.filter((issue) => issue.path.join('.') === field.where.join('.') && issue.message.includes('over the limit'));
      assert.deepEqual(sizeIssues, [], `${method.name} ${field.where.join('.')} refused a value at its bound`);
    }
  }
});

test('the worst cases of issue 14 are refused by size: an 80,000-character root, a 40 KB worktree', () => {
  const claim = methodList.find((m) => m.name === 'fleet_claim_path')!;
  const join = methodList.find((m) => m.name === 'fleet_agent_join')!;
  const root = claim.params.safeParse({ patterns: ['src/**'], root: `/${'a'.repeat(80_000)}` });
  assert.match(String(result(root)), /root.*80001 characters is over the limit of 4096/);
  const worktree = join.params.safeParse({ callsign: 'ATLAS', runtime: 'script', worktree: `/${'w'.repeat(40 * 1024)}` });
  assert.match(String(result(worktree)), /worktree.*over the limit of 4096/);
});

const result = (parsed: { success: boolean; error?: z.ZodError }) => parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

test('stored records replay as recorded: limits never refuse what the log already holds', () => {
  const envelope = { from: 'ATLAS', to: { callsign: 'BOREAS' }, summary: 's'.repeat(limits.summary.max + 1), filesTouched: [`/${'p'.repeat(limits.path.max)}`] };
  assert.equal(handoffEnvelopeSchema.safeParse(envelope).success, true);
  const memo = { seq: 1, at: 0, type: 'memo.written', key: 'plan', value: 'v'.repeat(limits.json.max * 2), version: 1 };
  assert.equal(fleetEventSchema.safeParse(memo).success, true);
});
