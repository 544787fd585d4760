// Runs an extension tests module in a real VS Code (web workbench + VS Code server) and reports its exit code.
import type { Engine } from './engines.js';
import { openWorkbench, type AutomationLogFile, type Workbench } from './workbench.js';

export interface RunExtensionTestsOptions {
  engine: Engine;
  extensionPath: string;
  /** Tests module (file or folder with index.js) exporting `async run()`. */
  testsPath: string;
  workspacePath: string;
  /** Added to the VS Code server's environment; the extension host inherits it. */
  env?: Record<string, string | undefined>;
  /** Whole run, server start included. */
  timeoutMs?: number;
  /** Streams each log line; defaults to printing it. */
  onLog?: (line: string) => void;
  /** Where the server data dir and browser profile go (default: the OS temp dir); both are removed. */
  tempDir?: string;
}

export interface RunExtensionTestsResult {
  /** 0 when run() resolved, 1 when it threw. */
  exitCode: number;
  /** codeAutomationLog lines, in order. */
  logs: string[];
  /** Log files the workbench hands over at exit (window, extension host...). */
  logFiles: AutomationLogFile[];
}

export async function runExtensionTests(opts: RunExtensionTestsOptions): Promise<RunExtensionTestsResult> {
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const tag = `[vscode ${opts.engine.vscodeVersion}]`;
  const logs: string[] = [];
  const print = opts.onLog ?? ((line: string) => console.log(`${tag} ${line}`));
  const aborter = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      aborter.abort();
      reject(new Error(`${tag} tests did not finish within ${timeoutMs} ms; last logs:\n${logs.slice(-30).join('\n')}`));
    }, timeoutMs);
  });
  const opening = openWorkbench({
    engine: opts.engine, workspacePath: opts.workspacePath, extensionPath: opts.extensionPath,
    testsPath: opts.testsPath, env: opts.env, tempDir: opts.tempDir, signal: aborter.signal,
    onLog: (line) => { logs.push(line); print(line); },
  });
  let workbench: Workbench | undefined;
  try {
    workbench = await Promise.race([opening, timedOut]);
    const { code, logFiles } = await Promise.race([workbench.exit, timedOut]);
    return { exitCode: code, logs, logFiles };
  } finally {
    clearTimeout(timer);
    // On a timeout while opening, openWorkbench sees the abort and tears down what it started.
    workbench ??= await opening.catch(() => undefined);
    await workbench?.close();
  }
}
