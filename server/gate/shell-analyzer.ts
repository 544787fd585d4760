import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { analyzeShell, wordishTokens, type ShellFacts } from './shell-analysis.js';
import type { KnownVariables } from './shell-word.js';

export interface AnalysisRequest {
  id: number;
  command: string;
  cwd: string;
  known: KnownVariables;
}
export type AnalysisReply = { id: number; facts: ShellFacts } | { id: number; error: string };

/** A parse that takes longer is abandoned (the worker is replaced) and the command read as tokens. */
const PARSE_TIMEOUT_MS = 3000;
/** Requests waiting for the parser at most; past it, commands are read as tokens at once. */
const MAX_PENDING = 64;
/** Without a worker file (a bundle that lacks it), only commands this short are parsed on the loop. */
const INLINE_LIMIT = 1000;

/**
 * Runs the shell analysis off the plane's event loop, in one worker thread started on first use,
 * so that a long or pathological command never keeps the plane from answering others (§12).
 */
export class ShellAnalyzer {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (facts: ShellFacts) => void; fallback: ShellFacts; timer: NodeJS.Timeout }>();
  private readonly workerFile = ['./shell-worker.js', './shell-worker.cjs'].map((name) => fileURLToPath(new URL(name, import.meta.url))).find((file) => existsSync(file));

  analyze(command: string, cwd: string, known: KnownVariables): Promise<ShellFacts> {
    if (this.workerFile === undefined) {
      return Promise.resolve(command.length <= INLINE_LIMIT ? analyzeShell(command, cwd, known) : unparsed(command, `longer than ${INLINE_LIMIT} characters`));
    }
    if (this.pending.size >= MAX_PENDING) return Promise.resolve(unparsed(command, 'the shell parser is busy'));
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.abandon(worker), PARSE_TIMEOUT_MS);
      this.pending.set(id, { resolve, fallback: unparsed(command, `parsing took over ${PARSE_TIMEOUT_MS / 1000} s`), timer });
      worker.postMessage({ id, command, cwd, known } satisfies AnalysisRequest);
    });
  }

  close(): void {
    if (this.worker) void this.worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile!);
    worker.unref(); // a parser never keeps the plane process alive
    worker.on('message', (reply: AnalysisReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.settle(reply.id, 'facts' in reply ? reply.facts : { ...waiting.fallback, parseError: reply.error });
    });
    worker.on('error', () => this.abandon(worker));
    worker.on('exit', () => this.abandon(worker));
    this.worker = worker;
    return worker;
  }

  /** A stuck or dead parser: everything it was asked falls back to tokens, and the next request starts a new one. */
  private abandon(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    for (const [id, waiting] of this.pending) this.settle(id, waiting.fallback);
  }

  private settle(id: number, facts: ShellFacts): void {
    const waiting = this.pending.get(id)!;
    clearTimeout(waiting.timer);
    this.pending.delete(id);
    waiting.resolve(facts);
  }
}

/** What is known of a command the parser did not read: its tokens. */
function unparsed(command: string, why: string): ShellFacts {
  return { writes: [], commands: [], assignments: [], words: [], parseError: why, tokens: wordishTokens(command) };
}
