import * as vscode from 'vscode';
import { OwnEditSpans } from './own-edit-spans.js';

/** Largest file whose edits are followed (the text is kept to know what each edit removed). */
const MAX_FOLLOWED_CHARS = 8_000_000;
/** How long a change that left the file clean waits for VS Code's dirty state before it counts as a reload. */
const SETTLE_MS = 1_000;

/** One change of an event: `removed` stood at `offset`, `after` is the whole text once it was made. */
interface Change {
  offset: number;
  removed: string;
  insertedLength: number;
  after: string;
}

interface Followed {
  /** The text as of the last change seen. */
  text: string;
  spans: OwnEditSpans;
  /** Changes that left the file clean, waiting to be told apart (reload or first edit). */
  pending?: Change[];
  timer?: NodeJS.Timeout;
}

/**
 * Tells the editor's own edits (what the person types, or an in-editor agent applies) from reloads
 * after someone wrote the file on disk, and keeps, per open file, where the own edits sit and what
 * they replaced. A change is the editor's own when it leaves the document dirty, or when it is an
 * undo or redo (the person's keys); VS Code reloads a file from disk only while it is clean, and a
 * reload leaves it clean. Each file's text as of the last change is kept to know what an edit removed.
 */
export class EditorEdits implements vscode.Disposable {
  private readonly files = new Map<string, Followed>();
  private readonly ownEdits = new vscode.EventEmitter<vscode.TextDocument>();
  /** After each own edit of a file (the spans already include it). */
  readonly onDidEditOwn = this.ownEdits.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    for (const document of vscode.workspace.textDocuments) this.open(document);
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => this.open(document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        clearTimeout(this.files.get(document.uri.toString())?.timer);
        this.files.delete(document.uri.toString());
      }),
      vscode.workspace.onDidChangeTextDocument((event) => this.changed(event)),
    ];
  }

  /** The own edits of `uri` followed since the last forget (undefined when the file is not followed). */
  of(uri: vscode.Uri): OwnEditSpans | undefined {
    return this.files.get(uri.toString())?.spans;
  }

  /** Whether the text kept for `document` is its text now (the edits were followed without a gap). */
  inStep(document: vscode.TextDocument): boolean {
    const file = this.files.get(document.uri.toString());
    return file !== undefined && file.pending === undefined && file.text === document.getText();
  }

  /**
   * Tells apart now the changes still waiting: the editor's own when `own` says so (the caller just
   * made them), else by whether the file is dirty by now.
   */
  settleNow(document: vscode.TextDocument, own = document.isDirty): void {
    const file = this.files.get(document.uri.toString());
    if (file) this.settle(document, file, own);
  }

  /** Own edits made so far are no longer followed (they were allowed, or undone). */
  forget(uri: vscode.Uri): void {
    this.files.get(uri.toString())?.spans.clear();
  }

  private open(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file' || document.getText().length > MAX_FOLLOWED_CHARS) return;
    this.files.set(document.uri.toString(), { text: document.getText(), spans: new OwnEditSpans() });
  }

  private changed({ document, contentChanges, reason }: vscode.TextDocumentChangeEvent): void {
    const key = document.uri.toString();
    const file = this.files.get(key);
    if (!file) return;
    if (contentChanges.length === 0) {
      // The dirty state changed: a pending change that made the file dirty was the editor's own.
      this.settle(document, file, document.isDirty);
      return;
    }
    this.settle(document, file, false);
    const changes: Change[] = [];
    // VS Code lists one event's changes last first, each against the text before the event: applied in order, each offset holds.
    for (const change of contentChanges) {
      const removed = file.text.slice(change.rangeOffset, change.rangeOffset + change.rangeLength);
      file.text = file.text.slice(0, change.rangeOffset) + change.text + file.text.slice(change.rangeOffset + change.rangeLength);
      changes.push({ offset: change.rangeOffset, removed, insertedLength: change.text.length, after: file.text });
    }
    if (document.isDirty || reason !== undefined) return this.apply(document, file, changes, true);
    // Clean after the change: a reload from disk, or the first edit of a clean file whose dirty state
    // VS Code sends just after (microsoft/vscode#27231). The next event or a moment tells.
    file.pending = changes;
    file.timer = setTimeout(() => this.settle(document, file, false), SETTLE_MS);
  }

  private settle(document: vscode.TextDocument, file: Followed, own: boolean): void {
    const pending = file.pending;
    if (!pending) return;
    clearTimeout(file.timer);
    file.pending = undefined;
    if (this.files.get(document.uri.toString()) === file) this.apply(document, file, pending, own);
  }

  private apply(document: vscode.TextDocument, file: Followed, changes: Change[], own: boolean): void {
    for (const { offset, removed, insertedLength, after } of changes) {
      if (own) file.spans.own(offset, removed, insertedLength, (start, end) => after.slice(start, end));
      else file.spans.external(offset, removed.length, insertedLength);
    }
    if (own) this.ownEdits.fire(document);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.ownEdits.dispose();
  }
}
