import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { analyzeCommand, unparsedCommand, type CommandAnalysis } from './command-analysis.js';
import type { KnownVariables } from './shell-word.js';

export interface AnalysisRequest {
  id: number;
  command: string;
  cwd: string;
  known: KnownVariables;
  homes: string[];
  /** The command runs on the plane's machine: what it runs may be read from disk. */
  local: boolean;
}
export type AnalysisReply = { id: number; analysis: CommandAnalysis } | { id: number; error: string };

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
  private readonly pending = new Map<number, { resolve: (analysis: CommandAnalysis) => void; fallback: CommandAnalysis; timer: NodeJS.Timeout }>();
  private readonly workerFile = ['./shell-worker.js', './shell-worker.cjs'].map((name) => fileURLToPath(new URL(name, import.meta.url))).find((file) => existsSync(file));

  analyze(command: string, cwd: string, known: KnownVariables, homes: string[], local: boolean): Promise<CommandAnalysis> {
    if (this.workerFile === undefined) {
      return Promise.resolve(command.length <= INLINE_LIMIT ? analyzeCommand(command, cwd, known, homes, local) : unparsedCommand(command, `longer than ${INLINE_LIMIT} characters`, homes));
    }
    if (this.pending.size >= MAX_PENDING) return Promise.resolve(unparsedCommand(command, 'the shell parser is busy', homes));
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.abandon(worker), PARSE_TIMEOUT_MS);
      this.pending.set(id, { resolve, fallback: unparsedCommand(command, `parsing took over ${PARSE_TIMEOUT_MS / 1000} s`, homes), timer });
      worker.postMessage({ id, command, cwd, known, homes, local } satisfies AnalysisRequest);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile!);
    worker.unref(); // a parser never keeps the plane process alive
    worker.on('message', (reply: AnalysisReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.settle(reply.id, 'analysis' in reply ? reply.analysis : { ...waiting.fallback, parseError: reply.error });
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

  private settle(id: number, analysis: CommandAnalysis): void {
    const waiting = this.pending.get(id)!;
    clearTimeout(waiting.timer);
    this.pending.delete(id);
    waiting.resolve(analysis);
  }
}
