import type { CompiledPattern } from './compiled-pattern.js';

class TrieNode<K, V> {
  readonly children = new Map<string, TrieNode<K, V>>();
  readonly entries = new Map<K, V>();

  constructor(
    readonly parent: TrieNode<K, V> | undefined,
    readonly segment: string,
  ) {}
}

/**
 * Entries keyed by the literal leading segments of their patterns, so that finding what a pattern
 * or a path can touch never scans every live claim: a pattern only matches paths that start with its
 * literal prefix, so two patterns can only overlap if one prefix lies along the other. Candidates are
 * a superset; the caller confirms each with `overlaps` or `matches`.
 */
export class PrefixIndex<K, V> {
  private readonly root = new TrieNode<K, V>(undefined, '');
  private readonly byKey = new Map<K, readonly TrieNode<K, V>[]>();

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
        let child = node.children.get(segment);
        if (!child) {
          child = new TrieNode(node, segment);
          node.children.set(segment, child);
        }
        node = child;
      }
      node.entries.set(key, value);
      nodes.add(node);
    }
    this.byKey.set(key, [...nodes]);
  }

  /** Removes the entry; returns whether there was one. */
  remove(key: K): boolean {
    const nodes = this.byKey.get(key);
    if (!nodes) return false;
    this.byKey.delete(key);
    for (const node of nodes) {
      node.entries.delete(key);
      this.prune(node);
    }
    return true;
  }

  /** Entries that may overlap `pattern`: prefixes along one of its prefixes, or below one. Each once. */
  candidatesOverlapping(pattern: CompiledPattern): Iterable<V> {
    const found = new Map<K, V>();
    for (const prefix of pattern.literalPrefixes) {
      const end = this.walk(prefix, found);
      if (end) this.collectBelow(end, found);
    }
    return found.values();
  }

  /** Entries that may match the normalized file `path`: those whose prefix lies along it. Each once. */
  candidatesCovering(path: string): Iterable<V> {
    const found = new Map<K, V>();
    this.walk(path.split('/'), found);
    return found.values();
  }

  // Collects the entries of every node along `segments`; returns the last node if the whole walk exists.
  private walk(segments: readonly string[], found: Map<K, V>): TrieNode<K, V> | undefined {
    let node = this.root;
    collect(node, found);
    for (const segment of segments) {
      const child = node.children.get(segment);
      if (!child) return undefined;
      node = child;
      collect(node, found);
    }
    return node;
  }

  private collectBelow(node: TrieNode<K, V>, found: Map<K, V>): void {
    const stack = [...node.children.values()];
    for (let next = stack.pop(); next; next = stack.pop()) {
      collect(next, found);
      stack.push(...next.children.values());
    }
  }

  // Empty branches would otherwise pile up as claims come and go.
  private prune(node: TrieNode<K, V>): void {
    for (let current = node; current.parent && current.entries.size === 0 && current.children.size === 0; current = current.parent) {
      current.parent.children.delete(current.segment);
    }
  }
}

function collect<K, V>(node: TrieNode<K, V>, found: Map<K, V>): void {
  for (const [key, value] of node.entries) found.set(key, value);
}
