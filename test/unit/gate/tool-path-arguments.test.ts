import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { writtenPaths } from '../../../server/hooks/claude-write-check.js';
import { toolMayWrite } from '../../../server/hooks/tool-path-arguments.js';

// Outside any repository: an MCP server's relative paths are relative to the project, here the cwd itself.
const CWD = '/nonexistent-project';

describe("tool path arguments: which files another server's tool writes, from its name and its input's field names", () => {
  test('tools that rewrite files under verbs no list named are read: their path fields, whatever they are called', () => {
    const cases: [tool: string, input: Record<string, unknown>, expected: string[]][] = [
      ['mcp__jetbrains__reformat_file', { path: 'src/theirs/x.ts' }, [`${CWD}/src/theirs/x.ts`]],
      // JetBrains names the project in each call: relative paths are relative to it, and it is no file written.
      ['mcp__jetbrains__replace_text_in_file', { pathInProject: 'src/x.ts', oldText: 'a', newText: 'b', projectPath: '/work/p' }, ['/work/p/src/x.ts']],
      // Serena's name_path is a symbol's path, not a file's.
      ['mcp__serena__insert_after_symbol', { name_path: 'Foo/bar', relative_path: 'src/x.ts', body: 'x' }, [`${CWD}/src/x.ts`]],
      ['mcp__jetbrains__rename_refactoring', { pathInProject: 'src/x.ts', symbolName: 'a', newName: 'b' }, [`${CWD}/src/x.ts`]],
      ['mcp__filesystem__move_file', { source: '/a/x.ts', destination: '/b/y.ts' }, ['/a/x.ts', '/b/y.ts']],
      ['mcp__filesystem__edit_file', { path: '/a/x.ts', edits: [{ oldText: 'a', newText: 'b' }], dryRun: false }, ['/a/x.ts']],
      ['mcp__other__tidy_sources', { targetDir: '/a/src', file_list: ['/a/b.ts'] }, ['/a/src']],
      ['mcp__other__bulk_fix', { changes: [{ filePath: '/a/one.ts' }, { filePath: '/a/two.ts' }] }, ['/a/one.ts', '/a/two.ts']],
      // A patch in any field names its files (a unified diff less a/ b/, or a Codex envelope).
      ['mcp__jetbrains__apply_patch', { patch: 'diff --git a/src/x.ts b/src/x.ts\n--- a/src/x.ts\n+++ b/src/x.ts\n' }, [`${CWD}/src/x.ts`]],
      ['mcp__other__apply', { body: '*** Begin Patch\n*** Delete File: /a/gone.ts\n*** End Patch' }, ['/a/gone.ts']],
      // A file URI is the file it names.
      ['mcp__other__save', { fileUri: 'file:///a/saved.ts' }, ['/a/saved.ts']],
    ];
    for (const [tool, input, expected] of cases) assert.deepEqual(writtenPaths(tool, input, CWD), expected, tool);
  });

  test('tools whose names say they only look write nothing; the fleet\'s own tools name paths to check, not to write', () => {
    for (const tool of ['mcp__filesystem__read_text_file', 'mcp__filesystem__directory_tree', 'mcp__filesystem__list_directory', 'mcp__jetbrains__get_file_problems', 'mcp__jetbrains__search_in_files_by_text', 'mcp__jetbrains__open_file_in_editor', 'mcp__serena__find_symbol', 'runTests', 'mcp__fleet__fleet_check_path']) {
      assert.deepEqual(writtenPaths(tool, { path: '/a/x.ts', filePath: '/a/x.ts', directoryPath: '/a', files: ['/a/x.ts'], paths: ['/a/x.ts'] }, CWD), [], tool);
    }
    assert.equal(toolMayWrite('search_and_replace'), true, 'a writing word wins');
    assert.equal(toolMayWrite('get_status'), false);
    assert.deepEqual(writtenPaths('mcp__other__write_note', { content: 'see src/x.ts', file_pattern: '*.ts', title: 'x' }, CWD), [], 'text, patterns and titles are no paths');
  });
});
