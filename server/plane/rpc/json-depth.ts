/**
 * The top-level key under which a parsed JSON object nests deeper than `limit`, if any.
 * Iterative, so hostile input cannot blow the stack here; the limit keeps it from blowing the
 * stack later (JSON.stringify when the event is logged or the snapshot written).
 */
export function keyNestedDeeperThan(params: unknown, limit: number): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  for (const [key, value] of Object.entries(params)) {
    const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
    while (stack.length > 0) {
      const { value: current, depth } = stack.pop()!;
      if (typeof current !== 'object' || current === null) continue;
      if (depth >= limit) return key;
      for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return undefined;
}
