import type { CompiledPattern } from './compiled-pattern.js';

class SoleEntry<K, V> {
  constructor(
    readonly key: K,
    public value: V,
  ) {}
}

// A live plane holds a node per claimed file, most of them leaves with one entry: children and
// entries get a Map only when they need one, which takes the index to a fraction of its memory.
class TrieNode<K, V> {
  children: Map<string, TrieNode<K, V>> | undefined;
  private entries: SoleEntry<K, V> | Map<K, V> | undefined;

  constructor(
    readonly parent: TrieNode<K, V> | undefined,
    readonly segment: string,
  ) {}

  get isEmpty(): boolean {
    return !this.entries && !this.children?.size;
  }

  set(key: K, value: V): void {
    if (this.entries === undefined) this.entries = new SoleEntry(key, value);
    else if (this.entries instanceof Map) this.entries.set(key, value);
    else if (this.entries.key === key) this.entries.value = value;
    else this.entries = new Map([[this.entries.key, this.entries.value], [key, value]]);
  }

  delete(key: K): void {
    if (this.entries instanceof Map) {
      this.entries.delete(key);
      if (this.entries.size === 0) this.entries = undefined;
    } else if (this.entries?.key === key) {
      this.entries = undefined;
    }
  }

  /** The values kept at this node itself. */
  values(): Iterable<V> {
    if (this.entries instanceof Map) return this.entries.values();
    return this.entries ? [this.entries.value] : [];
  }

  get(key: K): V | undefined {
    if (this.entries instanceof Map) return this.entries.get(key);
    return this.entries?.key === key ? this.entries.value : undefined;
  }

  /** The entries kept at this node itself, with their keys. */
  keyed(): Iterable<[K, V]> {
    if (this.entries instanceof Map) return this.entries.entries();
    return this.entries ? [[this.entries.key, this.entries.value]] : [];
  }
}

/**
 * Entries keyed by the literal leading segments of their patterns, so that finding what a pattern
 * or a path can touch never scans every live claim: a pattern only matches paths that start with its
 * literal prefix, so two patterns can only overlap if one prefix lies along the other. Candidates are
 * a superset; the caller confirms each with `overlaps` or `matches`.
 */
export class PrefixIndex<K, V> {
  private readonly root = new TrieNode<K, V>(undefined, '');
  /** Where each key's entries are: one node, or one per distinct brace-expansion prefix. */
  private readonly byKey = new Map<K, TrieNode<K, V> | readonly TrieNode<K, V>[]>();

  get size(): number {
    return this.byKey.size;
  }

  /** Indexes `value` under each brace expansion's literal prefix; a key added again replaces its entry. */
  add(key: K, pattern: CompiledPattern, value: V): void {
    this.remove(key);
    const nodes = new Set<TrieNode<K, V>>();
    for (const prefix of pattern.literalPrefixes) {
      let node = this.root;
      for (const segment of prefix) {
        let child = node.children?.get(segment);
        if (!child) {
          child = new TrieNode(node, segment);
          (node.children ??= new Map()).set(segment, child);
        }
        node = child;
      }
      node.set(key, value);
      nodes.add(node);
    }
    this.byKey.set(key, nodes.size === 1 ? nodes.values().next().value! : [...nodes]);
  }

  /** Removes the entry; returns whether there was one. */
  remove(key: K): boolean {
    const where = this.byKey.get(key);
    if (!where) return false;
    this.byKey.delete(key);
    for (const node of where instanceof TrieNode ? [where] : where) {
      node.delete(key);
      this.prune(node);
    }
    return true;
  }

  /** The entry kept under `key`, if any. */
  get(key: K): V | undefined {
    const where = this.byKey.get(key);
    const node = where instanceof TrieNode ? where : where?.[0];
    return node?.get(key);
  }

  /**
   * Entries that may overlap `pattern`: prefixes along one of its prefixes, or below one. Each
   * once, found as they are read, so a caller that stops early never pays for the rest.
   */
  *candidatesOverlapping(pattern: CompiledPattern): Iterable<V> {
    const seen = new Set<K>();
    for (const prefix of pattern.literalPrefixes) {
      const along = this.along(prefix);
      yield* unseen(along.nodes, seen);
      if (along.end) yield* unseen(this.below(along.end), seen);
    }
  }

  /** Entries kept exactly at `prefix`: among them, any whose pattern is the same as one with that first prefix. */
  entriesAt(prefix: readonly string[]): Iterable<V> {
    let node: TrieNode<K, V> | undefined = this.root;
    for (const segment of prefix) {
      node = node.children?.get(segment);
      if (!node) return [];
    }
    return node.values();
  }

  /** Entries that may match the normalized file `path`: those whose prefix lies along it. Each once. */
  candidatesCovering(path: string): Iterable<V> {
    return unseen(this.along(path.split('/')).nodes, new Set());
  }

  // The nodes along `segments` from the root, and the last one if the whole walk exists.
  private along(segments: readonly string[]): { nodes: TrieNode<K, V>[]; end: TrieNode<K, V> | undefined } {
    const nodes = [this.root];
    for (const segment of segments) {
      const child = nodes[nodes.length - 1]!.children?.get(segment);
      if (!child) return { nodes, end: undefined };
      nodes.push(child);
    }
    return { nodes, end: nodes[nodes.length - 1] };
  }

  private *below(node: TrieNode<K, V>): Iterable<TrieNode<K, V>> {
    const stack = [...(node.children?.values() ?? [])];
    for (let next = stack.pop(); next; next = stack.pop()) {
      yield next;
      if (next.children) stack.push(...next.children.values());
    }
  }

  // Empty branches would otherwise pile up as claims come and go.
  private prune(node: TrieNode<K, V>): void {
    for (let current = node; current.parent && current.isEmpty; current = current.parent) {
      current.parent.children?.delete(current.segment);
    }
  }
}

// A key with several brace-expansion prefixes sits at several nodes: it is a candidate once.
function* unseen<K, V>(nodes: Iterable<TrieNode<K, V>>, seen: Set<K>): Iterable<V> {
  for (const node of nodes) {
    for (const [key, value] of node.keyed()) {
      if (seen.has(key)) continue;
      seen.add(key);
      yield value;
    }
  }
}
