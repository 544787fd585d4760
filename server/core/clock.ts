/** Injected so the core stays deterministic under test: wall-clock milliseconds. */
export interface Clock {
  now(): number;
}

/** Injected id and token source; tests use a counter, the plane uses crypto randomness. */
export interface IdSource {
  id(prefix: string): string;
  token(): string;
}
