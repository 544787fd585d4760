import sh from 'mvdan-sh';

/**
 * mvdan-sh's syntax tree, read directly. The package is mvdan/sh compiled by GopherJS; its
 * documented accessors convert every Go slice to a fresh JS array on each property read (a walk
 * of 500 nodes took 350 ms). The Go values underneath are plain objects: a node is a pointer to a
 * struct whose type (constructor) lists its fields, a slice is {$array, $offset, $length}.
 */
export interface GoNode {
  readonly constructor: GoType;
  readonly [field: string]: unknown;
}
interface GoType {
  readonly string: string;
  readonly kind: number;
  readonly nil: unknown;
  readonly elem: { readonly fields: readonly { readonly prop: string; readonly typ: { readonly kind: number } }[] };
}
interface GoSlice {
  readonly $array: readonly unknown[];
  readonly $offset: number;
  readonly $length: number;
}

/** GopherJS's kind numbers (reflect.Kind). */
const KIND_INTERFACE = 20;
const KIND_POINTER = 22;
const KIND_SLICE = 23;
const SYNTAX_PREFIX = '*syntax.';

export class ShellSyntaxError extends Error {}

/** Parses bash source; a syntax error becomes a ShellSyntaxError with the parser's message. */
export function parseShell(source: string): GoNode {
  try {
    return (sh.syntax.NewParser().Parse(source, 'command') as unknown as { __internal_object__: GoNode }).__internal_object__;
  } catch (error) {
    const goError = error as { Error?: () => string };
    throw new ShellSyntaxError(typeof goError?.Error === 'function' ? goError.Error() : String(error));
  }
}

/** The node's syntax type (`CallExpr`, `Redirect`, …), or undefined for nil and non-nodes. */
export function nodeType(value: unknown): string | undefined {
  const type = (value as GoNode | null | undefined)?.constructor as GoType | undefined;
  if (type?.kind !== KIND_POINTER || value === type.nil || !type.string?.startsWith(SYNTAX_PREFIX)) return undefined;
  return type.string.slice(SYNTAX_PREFIX.length);
}

/** A node field that is a pointer or interface: the node, or undefined when nil. */
export function child(node: GoNode, field: string): GoNode | undefined {
  const value = node[field];
  return nodeType(value) === undefined ? undefined : (value as GoNode);
}

/** A slice field's elements. */
export function items(node: GoNode, field: string): GoNode[] {
  const slice = node[field] as GoSlice;
  return slice.$array.slice(slice.$offset, slice.$offset + slice.$length) as GoNode[];
}

/** Visits every node in source order, like syntax.Walk; `visit` returning false skips the children. */
export function walkTree(node: GoNode, visit: (type: string, node: GoNode) => boolean): void {
  const type = nodeType(node);
  if (type !== undefined && visit(type, node)) walkChildren(node, visit);
}

/** Walks the node's children (not the node itself): for a visitor that takes over a node's walk. */
export function walkChildren(node: GoNode, visit: (type: string, node: GoNode) => boolean): void {
  for (const field of node.constructor.elem.fields) {
    const kind = field.typ.kind;
    if (kind === KIND_POINTER || kind === KIND_INTERFACE) {
      const value = node[field.prop];
      if (nodeType(value) !== undefined) walkTree(value as GoNode, visit);
    } else if (kind === KIND_SLICE) {
      for (const element of items(node, field.prop)) walkTree(element, visit);
    }
  }
}
