// The editor benchmark's workspace: the monorepo of bench/lib/tree.ts grown to exactly 20,000 files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AREAS, pkg, SHARED_FILES, SRC_FILES, srcFile, TEST_FILES, testFile } from '../lib/tree.js';

export const WORKSPACE_FILES = 20_000;
const FILES_PER_PACKAGE = 2 + AREAS.length * (SRC_FILES + TEST_FILES);

/** The file the probe agent claims and releases: visible once packages/pkg-00/src/api is expanded,
 * and never covered by a background claim (backgroundPatterns leaves the last source file alone). */
export const PROBE = { folders: ['packages', 'pkg-00', 'src', 'api'], label: `file-${SRC_FILES - 1}.ts`, path: srcFile(0, 'api', SRC_FILES - 1) };

export interface EditorWorkspace {
  root: string;
  files: string[];
  packages: number;
}

/** As many whole packages as fit, then docs pages up to exactly WORKSPACE_FILES. */
export function workspaceFiles(): { files: string[]; packages: number } {
  const files = [...SHARED_FILES];
  const packages = Math.floor((WORKSPACE_FILES - files.length) / FILES_PER_PACKAGE);
  for (let p = 0; p < packages; p++) {
    files.push(`${pkg(p)}/package.json`, `${pkg(p)}/README.md`);
    for (const area of AREAS) {
      for (let f = 0; f < SRC_FILES; f++) files.push(srcFile(p, area, f));
      for (let f = 0; f < TEST_FILES; f++) files.push(testFile(p, area, f));
    }
  }
  for (let n = 0; files.length < WORKSPACE_FILES; n++) files.push(`docs/guide/page-${n}.md`);
  return { files, packages };
}

/** Writes the tree into a fresh `git init`ed folder: the extension activates on `.git`, the plane
 * needs a repository root. Nothing is committed (git is switched off in the bench's VS Code). */
export function makeEditorWorkspace(): EditorWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-bench-editor-ws-')));
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  const { files, packages } = workspaceFiles();
  const made = new Set<string>();
  for (const file of files) {
    const dir = dirname(join(root, file));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(join(root, file), `// ${file}\n`);
  }
  return { root, files, packages };
}
