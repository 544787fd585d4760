// What every in-host test works with: the extension's API, FLEET_HOME, the workspace and its files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FleetApi } from '../../../extension/src/api.js';
import type { FleetViewState } from '../../../contracts/lsp.js';
import { until, when } from './waits.js';

export const EXTENSION_ID = 'fleet-coordination.fleet-coordination';

export interface Fixture {
  api: FleetApi;
  home: string;
  workspace: string;
  uri(relative: string): vscode.Uri;
  /** Resolves once the extension's state satisfies `check`. */
  state<T>(check: (state: FleetViewState) => T | undefined | false, what: string, timeoutMs?: number): Promise<T>;
  /** Resolves once the decoration the Explorer gets for `relative` satisfies `check`. */
  decoration(relative: string, check: (decoration: vscode.FileDecoration | undefined) => boolean, what: string): Promise<vscode.FileDecoration | undefined>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} did not reach the extension host`);
  return value;
}

export async function openFixture(): Promise<Fixture> {
  const extension = vscode.extensions.getExtension<FleetApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  // Activation must come from the manifest (workspaceContains:.git), not from the test.
  await until(() => extension.isActive, 'the extension to activate for a workspace with .git');
  const api = extension.exports;
  const home = required('FLEET_HOME');
  const workspace = required('FLEET_TEST_WORKSPACE');
  const uri = (relative: string) => vscode.Uri.file(join(workspace, relative));
  return {
    api,
    home,
    workspace,
    uri,
    state: (check, what, timeoutMs) =>
      when(api.onDidChangeState, () => {
        const state = api.state();
        return state ? check(state) : undefined;
      }, what, timeoutMs),
    decoration: async (relative, check, what) => {
      const target = uri(relative).toString();
      let last: vscode.FileDecoration | undefined;
      await when(
        (listener) => api.onDidChangeFileDecorations((uris) => uris.some((changed) => changed.toString() === target) && listener(uris)),
        async () => {
          last = await api.fileDecoration(uri(relative));
          return check(last);
        },
        what,
      ).catch((error: Error) => {
        // What the Explorer showed instead says which provider won (a violation's ⚠ hides a forecast's ⇄).
        throw new Error(`${error.message}; the last decoration: ${last ? `${last.badge ?? '(no badge)'} "${last.tooltip ?? ''}"` : 'none'}`);
      });
      return last;
    },
  };
}

export function planeLogStarts(home: string): number {
  return readFileSync(join(home, 'plane.log'), 'utf8').split('\n').filter((line) => /listening on 127\.0\.0\.1/.test(line)).length;
}

export function planeJson(home: string): { pid: number; port: number; socket?: string } {
  return JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as { pid: number; port: number; socket?: string };
}
