/**
 * `{ ...base, ...extra }`, for sites that objects of many shapes pass through. There V8's spread
 * goes megamorphic and gives every copy a hidden class of its own: measured ~1 KB and ~1.4 µs a
 * copy, against ~0.2 µs and shared classes for Object.assign (BENCHMARKS.md, step 9).
 */
export function copyWith<T extends object, X extends object>(base: T, extra: X): T & X {
  return Object.assign({}, base, extra);
}
