// The language server's lifecycle in a window of its own (issue 26, item 8): fleet.home edited
// several times in a row, each a restart asked for without waiting for the last, while VS Code
// keeps asking for hovers, CodeLens, code actions and decorations. Afterwards the server answers,
// one server process remains for this window, and no log of the window says "Starting server
// failed", "Client is not running" or an unhandled rejection.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { TestAgent } from './test-agent.js';
import { until, when } from './waits.js';

const REFUSED = /Starting server failed|Client is not running|rejected promise not handled/;
const SERVER_STARTS = /starting the Fleet language server/g;

export function lifecycleTests(fx: () => Fixture): void {
  test('fleet.home edited four times in a row under hovers, code actions and decorations: one server answers after, no failure logged', async () => {
    const { api, home, workspace, uri } = fx();
    await fx().state((s) => s.connection.status === 'connected', 'the plane connected');
    const holder = await TestAgent.join(home, 'ZED');
    const file = uri('src/a.ts');
    try {
      assert.ok((await holder.claim(['src/a.ts'], workspace, { reason: 'lifecycle', ttlSeconds: 3600 })).granted);
      await vscode.window.showTextDocument(file);
      await when(api.onDidChangeState, async () => (await hoverText(file)).includes('ZED'), "the hover names ZED's claim");
      const startsBefore = serverStarts();

      let asking = true;
      const questions = (async () => {
        while (asking) await askEverything(api, file);
      })();
      const fleet = () => vscode.workspace.getConfiguration('fleet');
      // The same FLEET_HOME spelt differently is a configuration change, so each edit is a restart.
      for (const value of [`${home}/`, home, `${home}/`, undefined]) await fleet().update('home', value, vscode.ConfigurationTarget.Global);
      await until(() => serverStarts() > startsBefore, 'a restart to begin');
      await when(api.onDidChangeState, async () => api.state()?.connection.status === 'connected' && (await hoverText(file)).includes('ZED'), 'the restarted server to answer a hover again', 60_000);
      asking = false;
      await questions;

      let servers: number[] = [];
      await until(() => (servers = serverProcesses()).length === 1, 'one language server process for this window', 20_000).catch((error: Error) => {
        throw new Error(`${error.message}: ${servers.length} (pids ${servers.join(', ')})`);
      });
      // The last server's own first line reached the log file: what came before it is on disk too.
      await until(() => serverLoggedAfterLastStart(), "the last server's first line in the Fleet log");
      // With the line before: vscode-languageclient logs what failed there and the error after it.
      const refused = windowLogs().flatMap(({ name, lines }) => lines.flatMap((line, at) => (REFUSED.test(line) ? [`${name}: ${lines[at - 1] ?? ''} / ${line}`] : [])));
      assert.deepEqual(refused.slice(0, 5), [], `${refused.length} line(s) in the window's logs`);
    } finally {
      holder.close();
    }
  }, 120_000);
}

async function hoverText(file: vscode.Uri): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(0, 0));
  return hovers.flatMap((hover) => hover.contents.map((part) => (typeof part === 'string' ? part : part.value))).join('\n');
}

/** What VS Code asks the language server for while a person works: none of it may fail loudly. */
async function askEverything(api: Fixture['api'], file: vscode.Uri): Promise<void> {
  const range = new vscode.Range(0, 0, 0, 1);
  await Promise.all([
    hoverText(file),
    vscode.commands.executeCommand('vscode.executeCodeActionProvider', file, range, vscode.CodeActionKind.QuickFix.value),
    vscode.commands.executeCommand('vscode.executeCodeLensProvider', file),
    api.fileDecoration(file),
    api.ownership(file),
  ]);
}

/** The VS Code server this extension host runs under keeps the window's logs in its data dir. */
function serverDataDir(): string {
  const args = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0');
  const dir = args[args.indexOf('--server-data-dir') + 1];
  if (!dir || !args.includes('--server-data-dir')) throw new Error(`the extension host's parent (pid ${process.ppid}) is not a VS Code server with --server-data-dir`);
  return dir;
}

function windowLogs(): { name: string; lines: string[] }[] {
  const dir = serverDataDir();
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.log'))
    .map((path) => ({ name: basename(path), lines: readFileSync(join(dir, path), 'utf8').split('\n') }));
}

function fleetLog(): string {
  return windowLogs().filter(({ name }) => name.endsWith('Fleet Coordination.log')).map(({ lines }) => lines.join('\n')).join('\n');
}

function serverStarts(): number {
  return fleetLog().match(SERVER_STARTS)?.length ?? 0;
}

function serverLoggedAfterLastStart(): boolean {
  const log = fleetLog();
  const last = log.lastIndexOf('starting the Fleet language server');
  return last >= 0 && /\n.*FLEET_HOME /.test(log.slice(last));
}

/** Language server processes vscode-languageclient forked for this extension host (it passes --clientProcessId). */
function serverProcesses(): number[] {
  const mine = `--clientProcessId=${process.pid}`;
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.some((arg) => arg.endsWith('language-server.cjs')) && args.includes(mine) ? [Number(pid)] : [];
    } catch {
      return []; // ended while we looked
    }
  });
}
