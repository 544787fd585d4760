/**
 * The JSON Schema a tool advertises is read by a model on every turn, so it carries what a model
 * needs to form a call and nothing the plane enforces anyway: size limits (the plane refuses an
 * oversized value with an error naming the limit, docs/limits.md), `additionalProperties: false`,
 * empty defaults, and the reserved envelope fields (`fingerprint`, `trust`, and the `id` beside
 * them) that the plane fills. Measured with the official MCP client: these were ~40 % of the
 * 24 tools' tokens (BENCHMARKS.md, "MCP tool list").
 */
const ENFORCED_BY_THE_PLANE = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maximum'];

export function advertisedSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return flattenActions(prune(schema, true) as Record<string, unknown>);
}

/**
 * A top-level union of objects told apart by one constant field (fleet_work_update's `action`)
 * is advertised as one object: the field as an enum, the other fields side by side, required
 * only what every branch requires. Each branch repeated the shared fields; the plane still
 * checks the branch (a missing `artifact` for `complete` is refused, naming it).
 */
function flattenActions(schema: Record<string, unknown>): Record<string, unknown> {
  const branches = (schema.oneOf ?? schema.anyOf) as Record<string, unknown>[] | undefined;
  if (!branches?.every((branch) => branch.type === 'object')) return schema;
  const shapes = branches.map((branch) => branch.properties as Record<string, Record<string, unknown>>);
  const discriminator = Object.keys(shapes[0]!).find((key) => shapes.every((shape) => shape[key]?.const !== undefined));
  if (discriminator === undefined) return schema;
  const properties: Record<string, unknown> = { [discriminator]: { type: 'string', enum: shapes.map((shape) => shape[discriminator]!.const) } };
  for (const shape of shapes) for (const [key, value] of Object.entries(shape)) if (key !== discriminator) properties[key] ??= value;
  const requiredBy = branches.map((branch) => new Set((branch.required as string[] | undefined) ?? []));
  const required = Object.keys(properties).filter((key) => requiredBy.every((set) => set.has(key)));
  const flat: Record<string, unknown> = { ...schema, type: 'object', properties, required };
  delete flat.oneOf;
  delete flat.anyOf;
  return flat;
}

function prune(node: unknown, top: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => prune(item, false));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ENFORCED_BY_THE_PLANE.includes(key)) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'default' && isEmpty(value)) continue;
    // A JSON object's keys are strings anyway (a record's `propertyNames: {type: string}`).
    if (key === 'propertyNames' && JSON.stringify(prune(value, false)) === '{"type":"string"}') continue;
    out[key] = key === 'properties' ? withoutEnvelopeMeta(value as Record<string, unknown>, top) : prune(value, false);
  }
  return out;
}

/** Below the top level, an object with `fingerprint` and `trust` is an envelope: its meta fields go. */
function withoutEnvelopeMeta(properties: Record<string, unknown>, top: boolean): Record<string, unknown> {
  const envelope = !top && 'fingerprint' in properties && 'trust' in properties;
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (envelope && (name === 'fingerprint' || name === 'trust' || name === 'id')) continue;
    out[name] = prune(schema, false);
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (value !== null && typeof value === 'object' && Object.keys(value).length === 0);
}
