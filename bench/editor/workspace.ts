// The editor benchmark's workspace: the bench's 20,000-file tree (bench/lib/tree.ts), shared with
// the other sections.
import { sharedTreeRepo, SRC_FILES, srcFile, TREE_PACKAGES, treeFiles } from '../lib/tree.js';

/** The file the probe agent claims and releases: visible once packages/pkg-00/src/api is expanded,
 * and never covered by a background claim (backgroundPatterns leaves the last source file alone). */
export const PROBE = { folders: ['packages', 'pkg-00', 'src', 'api'], label: `file-${SRC_FILES - 1}.ts`, path: srcFile(0, 'api', SRC_FILES - 1) };

export interface EditorWorkspace {
  root: string;
  files: string[];
  packages: number;
}

export function editorWorkspace(): EditorWorkspace {
  return { root: sharedTreeRepo(), files: treeFiles(), packages: TREE_PACKAGES };
}
