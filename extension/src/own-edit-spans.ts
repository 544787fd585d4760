/**
 * Where a document's own edits (typed in the editor, or applied by an in-editor agent) sit now and
 * what they replaced, so they alone can be undone while changes that came from disk (a reload after
 * the holder wrote the file) stay. Offsets are UTF-16 code units, as VS Code counts them. Pure: the
 * caller tells it each change, in order, and whether it was the editor's own.
 */

/** One own edit: `length` characters at `start` now stand where `removed` stood. */
export interface OwnEdit {
  start: number;
  length: number;
  removed: string;
}

/** A replacement that undoes own edits: put `text` over `length` characters at `start`. */
export interface Undo {
  start: number;
  length: number;
  text: string;
}

export class OwnEditSpans {
  /** Sorted by start, never overlapping or touching (touching edits are merged). */
  private edits: OwnEdit[] = [];
  /** Own edits a change from disk overlapped since: the holder rewrote those characters. */
  private overwritten = 0;

  get empty(): boolean {
    return this.edits.length === 0;
  }

  /** How many own edits a later change from disk wrote over (they are no longer undoable). */
  get overwrittenByDisk(): number {
    return this.overwritten;
  }

  /**
   * An own change: `removed` (the text that stood at `offset`) became `insertedLength` characters.
   * It merges with the own edits it touches; the ones after it move.
   */
  own(offset: number, removed: string, insertedLength: number, textNow: (start: number, end: number) => string): void {
    const end = offset + removed.length;
    const delta = insertedLength - removed.length;
    const before = this.edits.filter((edit) => edit.start + edit.length < offset);
    const touched = this.edits.filter((edit) => edit.start + edit.length >= offset && edit.start <= end);
    const after = this.edits.filter((edit) => edit.start > end);
    // The merged span, in the text before this change, and what stood there before any own edit.
    const start = Math.min(offset, ...touched.map((edit) => edit.start));
    const stop = Math.max(end, ...touched.map((edit) => edit.start + edit.length));
    let original = '';
    let at = start;
    for (const edit of touched) {
      original += textBefore(at, edit.start) + edit.removed;
      at = edit.start + edit.length;
    }
    original += textBefore(at, stop);
    const merged = { start, length: stop - start + delta, removed: original };
    // Typed and deleted again: nothing of the person's is left there.
    const undone = textNow(merged.start, merged.start + merged.length) === merged.removed;
    this.edits = [...before, ...(undone ? [] : [merged]), ...after.map((edit) => ({ ...edit, start: edit.start + delta }))];

    /** Text of the document before this change, for a stretch outside every own edit. */
    function textBefore(from: number, to: number): string {
      if (to <= from) return '';
      // Before `offset` the text is unchanged; inside the change it is what was removed; after it, shifted.
      let text = '';
      for (let position = from; position < to; ) {
        if (position < offset) {
          const until = Math.min(to, offset);
          text += textNow(position, until);
          position = until;
        } else if (position < end) {
          const until = Math.min(to, end);
          text += removed.slice(position - offset, until - offset);
          position = until;
        } else {
          text += textNow(position + delta, to + delta);
          position = to;
        }
      }
      return text;
    }
  }

  /**
   * A change from disk (the holder's write, reloaded): own edits before it stay, those after it
   * move, and those it overlaps are the holder's now (counted, no longer undoable).
   */
  external(offset: number, removedLength: number, insertedLength: number): void {
    const end = offset + removedLength;
    const delta = insertedLength - removedLength;
    const kept: OwnEdit[] = [];
    for (const edit of this.edits) {
      const editEnd = edit.start + edit.length;
      const overlaps =
        Math.max(edit.start, offset) < Math.min(editEnd, end) ||
        (edit.length === 0 && offset < edit.start && edit.start < end) ||
        (removedLength === 0 && edit.start < offset && offset < editEnd);
      if (overlaps) this.overwritten++;
      else kept.push(editEnd <= offset ? edit : { ...edit, start: edit.start + delta });
    }
    this.edits = kept;
  }

  /** The replacements that undo every own edit, last first (each leaves the earlier offsets valid). */
  undos(): Undo[] {
    return [...this.edits].reverse().map((edit) => ({ start: edit.start, length: edit.length, text: edit.removed }));
  }

  clear(): void {
    this.edits = [];
    this.overwritten = 0;
  }
}
