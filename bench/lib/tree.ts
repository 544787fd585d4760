// The bench's repository, one for the whole run: a monorepo of packages with source, tests, docs,
// CI files and the usual root files, exactly 20,000 files in a real git repository. The latency,
// throughput and cold-start loads use its first PACKAGES packages; the editor section shows all of it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempHome } from '../../test/support/plane-process.js';

export const TREE_FILES = 20_000;
/** The packages the latency, throughput and cold-start loads spread over. */
export const PACKAGES = 100;
export const AREAS = ['api', 'core', 'db', 'ui', 'util', 'auth', 'jobs', 'cli'] as const;
/** Source files per area; the last one (file-11.ts) is never claimed by background load. */
export const SRC_FILES = 12;
export const TEST_FILES = 3;
/** The files every agent of a fleet ends up touching now and then: the overlap hot spots. */
export const SHARED_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'CHANGELOG.md', '.github/workflows/ci.yml', 'docs/index.md', 'src/index.ts'];

export const pkg = (p: number) => `packages/pkg-${String(p).padStart(2, '0')}`;
export const srcFile = (p: number, area: string, f: number) => `${pkg(p)}/src/${area}/file-${String(f).padStart(2, '0')}.ts`;
export const testFile = (p: number, area: string, f: number) => `${pkg(p)}/test/${area}/file-${f}.test.ts`;
/** The path a measuring agent claims: inside the loaded tree, never covered by background claims. */
export const probeFile = (p: number, area: string) => srcFile(p, area, SRC_FILES - 1);

/** Package p's files: its manifest and readme, then each area's sources and tests. */
export function packageFiles(p: number): string[] {
  const files = [`${pkg(p)}/package.json`, `${pkg(p)}/README.md`];
  for (const area of AREAS) {
    for (let f = 0; f < SRC_FILES; f++) files.push(srcFile(p, area, f));
    for (let f = 0; f < TEST_FILES; f++) files.push(testFile(p, area, f));
  }
  return files;
}

/** As many whole packages as fit after the shared files, then docs pages up to exactly TREE_FILES. */
export const TREE_PACKAGES = Math.floor((TREE_FILES - SHARED_FILES.length) / packageFiles(0).length);

export function treeFiles(): string[] {
  const files = [...SHARED_FILES];
  for (let p = 0; p < TREE_PACKAGES; p++) files.push(...packageFiles(p));
  for (let n = 0; files.length < TREE_FILES; n++) files.push(`docs/guide/page-${n}.md`);
  return files;
}

/**
 * Writes the tree into a fresh `git init`ed folder (no commit: the plane only needs `.git`, and git
 * is switched off in the bench's VS Code). The path is resolved: the editor compares it with URIs.
 */
export function makeTreeRepo(): string {
  const root = realpathSync(tempHome('fleet-bench-repo-'));
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  const made = new Set<string>();
  for (const file of treeFiles()) {
    const dir = dirname(join(root, file));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(join(root, file), `// ${file}\n`);
  }
  return root;
}

/**
 * Background claims for one package, in the order they are taken: mostly single files, some
 * directories (a literal naming a directory claims its subtree) and some globs. None of them
 * covers a probe file.
 */
export function backgroundPatterns(p: number, random: () => number): string[] {
  const pool: string[] = [];
  for (const area of AREAS) {
    for (let f = 0; f < SRC_FILES - 1; f++) pool.push(srcFile(p, area, f));
    for (let f = 0; f < TEST_FILES; f++) pool.push(testFile(p, area, f));
    pool.push(`${pkg(p)}/src/${area}/*.gen.ts`, `${pkg(p)}/test/${area}`);
  }
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool;
}

let shared: string | undefined;

/** One tree repository for the whole run (the sections only read it; 20,000 files take seconds to write), removed when the run ends. */
export function sharedTreeRepo(): string {
  if (!shared) {
    const root = makeTreeRepo();
    shared = root;
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  return shared;
}
