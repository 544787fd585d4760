/**
 * A claim pattern or a file path that cannot be accepted. The message says what was wrong and
 * what to write instead, because it is shown to the agent or person who typed it.
 */
export class PatternError extends Error {
  readonly pattern: string;

  constructor(pattern: string, message: string) {
    super(message);
    this.name = 'PatternError';
    this.pattern = pattern;
  }
}
