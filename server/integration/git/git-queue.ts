/**
 * Runs git jobs a few at a time: write-set and forecast work never occupies more than `width` git
 * processes, however many agents save at once, so the machine (and the plane's other git, such as
 * the build gate's) keeps its breath.
 */
export class GitQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly width: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.width) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
