/**
 * Runs the language client's starts, stops and restarts one at a time, in the order asked.
 * vscode-languageclient cannot stop a client that is still starting ("Client is not running and
 * can't be stopped"), so a restart asked for mid-start must wait its turn. Asking again for what
 * already waits its turn (three fleet.home edits in a row) joins that turn instead of adding one.
 */
export class LifecycleQueue<Kind extends string> {
  private tail: Promise<void> = Promise.resolve();
  private waiting: { kind: Kind; done: Promise<void> } | undefined;

  run(kind: Kind, step: () => Promise<void>): Promise<void> {
    if (this.waiting?.kind === kind) return this.waiting.done;
    const turn = { kind, done: this.tail.then(() => {
      if (this.waiting === turn) this.waiting = undefined;
      return step();
    }) };
    this.waiting = turn;
    // The next turn runs whether this one failed or not; its caller hears about the failure.
    this.tail = turn.done.catch(() => undefined);
    return turn.done;
  }

  /** Settles once every turn asked for so far has run (failed or not). */
  settled(): Promise<void> {
    return this.tail;
  }
}
