// Opens the VS Code web workbench of a running engine in Chromium, with an extension under development
// and optionally an extension tests module; the page stays open for Playwright-driven UI checks.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from './browser.js';
import type { Engine } from './engines.js';
import { startServer, type VSCodeServer } from './server.js';

export interface OpenWorkbenchOptions {
  engine: Engine;
  /** A folder, or a `.code-workspace` file for a multi-root workspace. */
  workspacePath: string;
  /** Folder of the extension under development (its package.json). */
  extensionPath?: string;
  /** Tests module (file or folder) exporting `run(): Promise<void>`; its outcome settles `exit`. */
  testsPath?: string;
  /** Added to the VS Code server's environment; the extension host inherits it. */
  env?: Record<string, string | undefined>;
  /** User settings on top of the server's DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Each workbench log line (codeAutomationLog); defaults to printing it. */
  onLog?: (line: string) => void;
  headless?: boolean;
  /** Where the server data dir and browser profile go (default: the OS temp dir); both are removed. */
  tempDir?: string;
  signal?: AbortSignal;
}

export interface AutomationLogFile { relativePath: string; contents: string }

export interface Workbench {
  page: Page;
  url: string;
  server: VSCodeServer;
  /** codeAutomationExit's code: 0 when the tests' run() resolved, 1 when it threw. Rejects if the page
   * or the server dies first. Only a tests module makes the workbench call it. */
  exit: Promise<{ code: number; logFiles: AutomationLogFile[] }>;
  close(): Promise<void>;
}

export function workbenchUrl(server: VSCodeServer, opts: Pick<OpenWorkbenchOptions, 'workspacePath' | 'extensionPath' | 'testsPath'>): string {
  const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${resolve(p)}`;
  const payload: [string, string][] = [];
  if (opts.extensionPath) payload.push(['extensionDevelopmentPath', remote(opts.extensionPath)]);
  if (opts.testsPath) payload.push(['extensionTestsPath', remote(opts.testsPath)]);
  payload.push(['skipWelcome', 'true']);
  // A .code-workspace file opens as a (multi-root) workspace, anything else as a folder.
  const open = opts.workspacePath.endsWith('.code-workspace') ? 'workspace' : 'folder';
  return `${server.origin}/?${open}=${encodeURIComponent(resolve(opts.workspacePath))}` +
    `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export function formatAutomationLog(type: string, args: unknown[]): string {
  const text = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
  return `[${type}] ${text}`;
}

export async function openWorkbench(opts: OpenWorkbenchOptions): Promise<Workbench> {
  const tag = `[vscode ${opts.engine.vscodeVersion}]`;
  const onLog = opts.onLog ?? ((line: string) => console.log(`${tag} ${line}`));
  let server: VSCodeServer | undefined;
  let browser: LaunchedBrowser | undefined;
  let closing = false;
  const close = async () => {
    closing = true;
    await browser?.close();
    await server?.stop();
  };
  const checkAborted = () => { if (opts.signal?.aborted) throw new Error(`${tag} opening the workbench was aborted`); };

  try {
    server = await startServer({ engine: opts.engine, env: opts.env, settings: opts.settings, tempDir: opts.tempDir });
    checkAborted();
    browser = await launchChromium({ headless: opts.headless, tempDir: opts.tempDir });
    checkAborted();
    const { page, context } = browser;
    const url = workbenchUrl(server, opts);

    let settle!: { resolve: (v: { code: number; logFiles: AutomationLogFile[] }) => void; reject: (e: Error) => void };
    const exit = new Promise<{ code: number; logFiles: AutomationLogFile[] }>((resolve, reject) => { settle = { resolve, reject }; });
    exit.catch(() => {}); // a UI test may never await it
    // The web workbench calls these globals when it runs under automation (IAutomatedWindow).
    await context.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => onLog(formatAutomationLog(type, args)));
    await context.exposeFunction('codeAutomationExit', (code: number, logFiles?: AutomationLogFile[]) =>
      settle.resolve({ code, logFiles: logFiles ?? [] }));
    page.on('crash', () => settle.reject(new Error(`${tag} the workbench page crashed`)));
    page.on('pageerror', (err) => onLog(`[pageerror] ${err.message}`));
    // Without a tests module the workbench logs to the console instead of codeAutomationLog. 404s are
    // code-server's own assets (PWA manifest, service worker) that the bare VS Code server does not serve.
    if (!opts.testsPath) {
      page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('404')) onLog(`[console.error] ${m.text()}`); });
    }
    void server.exited.then(() => {
      if (!closing) settle.reject(new Error(`${tag} the VS Code server exited:\n${server!.output.slice(-30).join('\n')}`));
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    // For UI tests: the workbench is rendered (the extension's own contributions appear seconds later).
    if (!opts.testsPath) await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    checkAborted();
    return { page, url, server, exit, close };
  } catch (err) {
    await close();
    throw err;
  }
}
