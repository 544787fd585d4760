/**
 * Working arrays for the overlap searches, kept between searches: allocating (and filling) fresh
 * megabyte arrays for every segment pair cost more than the searches themselves, and the garbage
 * they left stalled the plane. A search marks the states it reaches with a stamp of its own, so
 * nothing needs clearing. Searches never nest, and the plane is single-threaded.
 */
export class SearchScratch {
  private stamp = 0;
  private seen = new Uint32Array(0);
  cameFrom = new Int32Array(0);
  /** The character read on the way to each state (segment searches only). */
  charRead = new Int32Array(0);
  queue = new Int32Array(0);

  /** Arrays are kept up to this many states; a larger search (only ever an unbudgeted one) gets its own. */
  private static readonly MAX_KEPT = 1 << 21;

  /** Scratch for a search over `size` states, all unreached. */
  static for(size: number, shared: SearchScratch): SearchScratch {
    const scratch = size > SearchScratch.MAX_KEPT ? new SearchScratch() : shared;
    scratch.reserve(size);
    return scratch;
  }

  private reserve(size: number): void {
    if (size > this.seen.length) {
      const length = Math.max(size, Math.min(2 * this.seen.length, SearchScratch.MAX_KEPT));
      this.seen = new Uint32Array(length);
      this.cameFrom = new Int32Array(length);
      this.charRead = new Int32Array(length);
      this.queue = new Int32Array(length);
      this.stamp = 0;
    }
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
  }

  reached(state: number): boolean {
    return this.seen[state] === this.stamp;
  }

  /** Marks `state` reached from `from`; false if it already was. */
  reach(state: number, from: number): boolean {
    if (this.seen[state] === this.stamp) return false;
    this.seen[state] = this.stamp;
    this.cameFrom[state] = from;
    return true;
  }
}
