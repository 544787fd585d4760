import { z } from 'zod';

/**
 * Writes `value` as JSON through `write`, in pieces, checking it against `schema` on the way. A
 * snapshot of tens of thousands of records is thus never copied (as parsing it would) nor held as
 * one string: plain objects are walked field by field, and each item of a plain array or record is
 * validated and stringified on its own. Anything with rules over the whole (refinements, length
 * limits, strict or loose objects, enum-keyed records) is validated and stringified whole, so what
 * is written is always what the reader's parse accepts. Walked objects leave out fields the schema
 * does not know, as parsing would drop them. Throws a SchemaMismatchError naming the first item that
 * does not match.
 */
export function writeValidatedJson(schema: z.ZodType, value: unknown, write: (text: string) => void, path = '$'): void {
  const inner = lookThrough(schema);
  if (inner instanceof z.ZodObject && isWalkableObject(inner) && isPlainObject(value)) {
    write('{');
    let separator = '';
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const item = value[key];
      if (item === undefined) {
        stringified(field, undefined, `${path}.${key}`); // only checks that the field may be missing
        continue;
      }
      write(`${separator}${JSON.stringify(key)}:`);
      separator = ',';
      writeValidatedJson(field, item, write, `${path}.${key}`);
    }
    write('}');
  } else if (inner instanceof z.ZodArray && !hasChecks(inner) && Array.isArray(value)) {
    write('[');
    value.forEach((item, i) => write(`${i === 0 ? '' : ','}${stringified(inner.element as z.ZodType, item, `${path}[${i}]`)}`));
    write(']');
  } else if (inner instanceof z.ZodRecord && !hasChecks(inner) && inner.keyType instanceof z.ZodString && isPlainObject(value)) {
    write('{');
    let separator = '';
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue; // JSON has no undefined: the key is left out, as JSON.stringify does
      const itemPath = `${path}[${JSON.stringify(key)}]`;
      stringified(inner.keyType as z.ZodType, key, itemPath);
      write(`${separator}${JSON.stringify(key)}:${stringified(inner.valueType as z.ZodType, item, itemPath)}`);
      separator = ',';
    }
    write('}');
  } else {
    write(stringified(schema, value, path));
  }
}

// Defaults and optionality only matter for missing fields (handled by the caller), and a
// preprocessing step (a migration of older files) only when reading. A wrapper with rules of its
// own is not looked through: the value is then checked whole.
function lookThrough(schema: z.ZodType): z.ZodType {
  let inner = schema;
  for (;;) {
    if (hasChecks(inner)) return inner;
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe && inner.in instanceof z.ZodTransform) inner = inner.out as z.ZodType;
    else return inner;
  }
}

const hasChecks = (schema: z.ZodType): boolean => (schema._zod.def.checks?.length ?? 0) > 0;

/** No rules over the whole object, and unknown keys stripped (z.object's default). */
const isWalkableObject = (schema: z.ZodObject): boolean => !hasChecks(schema) && schema._zod.def.catchall === undefined;

/** A value that does not match the schema it was to be written with. */
export class SchemaMismatchError extends TypeError {
  override name = 'SchemaMismatchError';
}

function stringified(schema: z.ZodType, value: unknown, path: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SchemaMismatchError(`at ${path}: ${z.prettifyError(parsed.error)}`);
  return JSON.stringify(value) ?? 'null';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
