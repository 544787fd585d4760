// The runtimes' hook events as the hooks read them, checked with node builtins only (the lean
// runner reads every event, and must not load zod to do it): a JSON object whose named fields
// hold what the fleet expects; every other field is kept as it came.

type FieldCheck = readonly [check: (value: unknown) => boolean, expected: string];

const isString = (value: unknown) => typeof value === 'string';
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
const optional = ([check, expected]: FieldCheck): FieldCheck => [(value) => value === undefined || check(value), `${expected} or nothing`];

export const STRING: FieldCheck = [isString, 'a string'];
export const OPTIONAL_STRING = optional(STRING);
export const OPTIONAL_OBJECT = optional([isObject, 'an object']);
export const NON_EMPTY_STRING: FieldCheck = [(value) => isString(value) && value !== '', 'a non-empty string'];
export const exactly = (expected: string): FieldCheck => [(value) => value === expected, JSON.stringify(expected)];

/** `stdin` as an event whose fields pass `fields`' checks, or what is wrong with it (one line). */
export function readEvent<T>(stdin: string, fields: Record<string, FieldCheck>): { event: T } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch (error) {
    return { problem: (error as Error).message.split('\n')[0]! };
  }
  if (!isObject(value)) return { problem: 'the input is not a JSON object' };
  for (const [name, [check, expected]] of Object.entries(fields)) {
    if (!check((value as Record<string, unknown>)[name])) return { problem: `${name}: expected ${expected}` };
  }
  return { event: value as T };
}
