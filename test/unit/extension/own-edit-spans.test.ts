// The editor's own edits, followed through changes from disk: Revert's replacements undo exactly
// them and keep what the holder wrote, and an own edit the holder wrote over is counted, not undone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OwnEditSpans } from '../../../extension/src/own-edit-spans.js';

/** A document and its spans, changed as the editor would: `own` by the person, `disk` by a reload. */
class Doc {
  readonly spans = new OwnEditSpans();
  constructor(public text: string) {}

  own(offset: number, removedLength: number, inserted: string): void {
    const removed = this.text.slice(offset, offset + removedLength);
    this.text = this.text.slice(0, offset) + inserted + this.text.slice(offset + removedLength);
    const now = this.text;
    this.spans.own(offset, removed, inserted.length, (start, end) => now.slice(start, end));
  }

  disk(offset: number, removedLength: number, inserted: string): void {
    this.text = this.text.slice(0, offset) + inserted + this.text.slice(offset + removedLength);
    this.spans.external(offset, removedLength, inserted.length);
  }

  reverted(): string {
    let text = this.text;
    for (const undo of this.spans.undos()) text = text.slice(0, undo.start) + undo.text + text.slice(undo.start + undo.length);
    return text;
  }
}

test('typing, then the holder appends on disk: revert keeps the append and drops the typing', () => {
  const doc = new Doc('line one\nline two\n');
  for (const [i, ch] of [...'// mine\n'].entries()) doc.own(i, 0, ch);
  doc.disk(doc.text.length, 0, 'holder line\n');
  assert.equal(doc.reverted(), 'line one\nline two\nholder line\n');
});

test('edits on both sides of a holder change, a deletion and a replacement merged with typing', () => {
  const doc = new Doc('aaa\nbbb\nccc\nddd\n');
  doc.own(0, 3, 'AAA'); // replace aaa
  doc.own(3, 0, '!'); // typed right after: merged
  doc.disk(9, 4, 'CCC-holder\n'); // holder rewrote line 3
  doc.own(doc.text.length - 4, 4, ''); // person deleted ddd
  assert.equal(doc.text, 'AAA!\nbbb\nCCC-holder\n');
  assert.equal(doc.reverted(), 'aaa\nbbb\nCCC-holder\nddd\n');
  assert.equal(doc.spans.overwrittenByDisk, 0);
});

test('typed and deleted again leaves nothing to undo', () => {
  const doc = new Doc('x = 1\n');
  doc.own(0, 0, 'abc');
  doc.own(1, 2, '');
  doc.own(0, 1, '');
  assert.equal(doc.spans.empty, true);
});

test('a holder write over the person\'s own text is counted and left as the holder wrote it', () => {
  const doc = new Doc('one\ntwo\n');
  doc.own(4, 3, 'TWO');
  doc.disk(0, doc.text.length, 'checked out\n'); // git checkout -- file: the whole file back
  assert.equal(doc.spans.empty, true);
  assert.equal(doc.spans.overwrittenByDisk, 1);
  assert.equal(doc.reverted(), 'checked out\n');
});

test('overlapping own edits merge into one that restores the original text', () => {
  const doc = new Doc('0123456789');
  doc.own(2, 3, 'XY'); // 01XY56789
  doc.own(7, 0, 'Z'); // 01XY567Z89
  doc.own(3, 3, 'Q'); // 01XQ7Z89: spans the first edit and the original 56
  assert.equal(doc.text, '01XQ7Z89');
  assert.equal(doc.reverted(), '0123456789');
});
