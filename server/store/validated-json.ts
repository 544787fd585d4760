import { z } from 'zod';

/**
 * Writes `value` as JSON through `write`, in pieces, checking it against `schema` on the way. A
 * snapshot of tens of thousands of records is thus never copied (as parsing it would) nor held as
 * one string: objects are walked field by field, and each item of an array or a record is
 * validated and stringified on its own. Fields the schema does not know are left out, as parsing
 * would drop them. Throws a SchemaMismatchError naming the first item that does not match.
 */
export function writeValidatedJson(schema: z.ZodType, value: unknown, write: (text: string) => void, path = '$'): void {
  const inner = lookThrough(schema);
  if (inner instanceof z.ZodObject && isPlainObject(value)) {
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
  } else if (inner instanceof z.ZodArray && Array.isArray(value)) {
    write('[');
    value.forEach((item, i) => write(`${i === 0 ? '' : ','}${stringified(inner.element as z.ZodType, item, `${path}[${i}]`)}`));
    write(']');
  } else if (inner instanceof z.ZodRecord && isPlainObject(value)) {
    write('{');
    let separator = '';
    for (const [key, item] of Object.entries(value)) {
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
// preprocessing step (a migration of older files) only when reading.
function lookThrough(schema: z.ZodType): z.ZodType {
  let inner = schema;
  for (;;) {
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe && inner.in instanceof z.ZodTransform) inner = inner.out as z.ZodType;
    else return inner;
  }
}

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
