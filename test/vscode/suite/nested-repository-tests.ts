// A repository inside the workspace that the workspace's repository ignores, as `fleet demo --here`
// makes one (issue 26, item 8): VS Code's git never opens it by itself, so the workspace's repository
// judges its files, calls them ignored, and its grey colours Fleet's badges there. Once an agent
// claims files in it, git opens it and judges its files by it (not ignored); a nested repository
// nobody works in stays closed.
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { TestAgent } from './test-agent.js';
import { until, when } from './waits.js';

/** The part of the built-in git extension's API (version 1) these tests read. */
interface GitRepository {
  rootUri: vscode.Uri;
  state: { onDidChange: vscode.Event<void> };
  checkIgnore(paths: string[]): Promise<Set<string>>;
}
interface GitApi {
  repositories: GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
  onDidOpenRepository: vscode.Event<GitRepository>;
}

export function nestedRepositoryTests(fx: () => Fixture): void {
  test('a claim in a repository the workspace ignores: git opens it and stops calling its files ignored; an idle one stays closed', async () => {
    const { home, workspace } = fx();
    const demo = required('FLEET_TEST_NESTED_REPOSITORY');
    const idle = required('FLEET_TEST_IDLE_REPOSITORY');
    const lexer = vscode.Uri.file(join(demo, 'src/lexer.ts'));
    await fx().state((s) => s.connection.status === 'connected', 'the plane connected');
    const git = await gitApi();
    await until(() => git.repositories.some((repository) => repository.rootUri.fsPath === workspace), "git to open the workspace's repository");
    const outer = git.getRepository(lexer);
    assert.equal(outer?.rootUri.fsPath, workspace, "at first git judges the demo's files by the workspace's repository");
    // Once its first status is read (seen once in a full run: asked earlier, it answered nothing).
    await when(outer.state.onDidChange, async () => (await outer.checkIgnore([lexer.fsPath])).has(lexer.fsPath), 'the workspace\'s repository to ignore the demo\'s files (its info/exclude lists .fleet-demo/)');

    // The Explorer asks about the idle repository's files as it shows them: found, but nobody works there.
    await fx().decoration(relative(workspace, join(idle, 'README.md')), (d) => d === undefined, 'no badge in the idle repository');
    const zed = await TestAgent.join(home, 'ZED');
    try {
      assert.ok((await zed.claim(['src/**'], demo, { reason: 'the lexer' })).granted);
      const badge = await fx().decoration(relative(workspace, lexer.fsPath), (d) => d?.badge === 'ZE', "ZED's badge on the demo's src/lexer.ts");
      assert.equal((badge?.color as vscode.ThemeColor | undefined)?.id, 'fleet.ownedByOther');
      const own = await when(git.onDidOpenRepository, () => {
        const repository = git.getRepository(lexer);
        return repository?.rootUri.fsPath === demo && repository;
      }, 'git to open the demo repository and judge src/lexer.ts by it');
      assert.deepEqual([...(await own.checkIgnore([lexer.fsPath]))], [], 'its own repository does not ignore src/lexer.ts');
      assert.equal(git.getRepository(vscode.Uri.file(join(idle, 'README.md')))?.rootUri.fsPath, workspace, 'the idle repository was not opened');
    } finally {
      zed.close();
    }
  });
}

async function gitApi(): Promise<GitApi> {
  const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  assert.ok(extension, 'the built-in git extension is present');
  return (await extension.activate()).getAPI(1);
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} did not reach the extension host`);
  return value;
}
