import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePattern, normalizePattern, overlaps, PrefixIndex, type CompiledPattern } from '../../../server/core/glob/index.js';
import { seededRandom } from './brute-force.js';

const compile = (pattern: string) => compilePattern(normalizePattern(pattern));
const seed = process.env.GLOB_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.GLOB_SEED);

function randomClaim(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const dirs = ['src', 'lib', 'docs', '.github', 's*', '{src,lib}', '**', '[a-m]*'];
  const subdirs = ['api', 'ui', 'x', '*', '**', '{api,ui}'];
  const files = ['a.ts', 'b.md', '*.ts', '*', '**', '?.ts', 'ci.yml'];
  const depth = Math.floor(random() * 3);
  return [pick(dirs), ...Array.from({ length: depth }, () => pick(subdirs)), pick(files)].join('/');
}

function randomPath(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const depth = 1 + Math.floor(random() * 3);
  return [...Array.from({ length: depth }, () => pick(['src', 'lib', 'docs', '.github', 'api', 'ui', 'x', 'b'])), pick(['a.ts', 'b.md', 'x.ts', 'ci.yml'])].join('/');
}

test(`candidates are a superset of the true overlaps and matches, each once (GLOB_SEED=${seed})`, () => {
  const random = seededRandom(seed);
  const index = new PrefixIndex<number, number>();
  const live = new Map<number, CompiledPattern>();
  for (let id = 0; id < 400; id++) {
    const pattern = compile(randomClaim(random));
    index.add(id, pattern, id);
    live.set(id, pattern);
  }
  for (let n = 0; n < 100; n++) {
    const id = Math.floor(random() * 400);
    assert.equal(index.remove(id), live.delete(id));
  }
  assert.equal(index.size, live.size);
  let candidates = 0;
  for (let n = 0; n < 300; n++) {
    const query = compile(randomClaim(random));
    const found = [...index.candidatesOverlapping(query)];
    candidates += found.length;
    assert.equal(new Set(found).size, found.length, `no duplicates for ${query.source} (GLOB_SEED=${seed})`);
    for (const id of found) assert.ok(live.has(id), `removed claim ${id} is not a candidate (GLOB_SEED=${seed})`);
    for (const [id, pattern] of live) {
      if (overlaps(query, pattern)) assert.ok(found.includes(id), `${pattern.source} overlaps ${query.source} and is a candidate (GLOB_SEED=${seed})`);
    }
  }
  assert.ok(candidates < 300 * live.size * 0.9, 'the index does rule claims out');
  for (let n = 0; n < 300; n++) {
    const path = randomPath(random);
    const found = [...index.candidatesCovering(path)];
    assert.equal(new Set(found).size, found.length, `no duplicates for ${path} (GLOB_SEED=${seed})`);
    for (const [id, pattern] of live) {
      if (pattern.matches(path)) assert.ok(found.includes(id), `${pattern.source} matches ${path} and is a candidate (GLOB_SEED=${seed})`);
    }
  }
});

test('with 10,000 claims over distinct directories, a path check looks at a handful', () => {
  const index = new PrefixIndex<string, string>();
  for (let i = 0; i < 10_000; i++) {
    index.add(`dir${i}`, compile(`dir${i}/**`), `dir${i}/**`);
    index.add(`dir${i}/ts`, compile(`dir${i}/{a,b}/*.ts`), `dir${i}/{a,b}/*.ts`);
  }
  index.add('docs', compile('**/*.md'), '**/*.md');
  assert.equal(index.size, 20_001);
  assert.deepEqual([...index.candidatesCovering('dir7/x.ts')].sort(), ['**/*.md', 'dir7/**']);
  assert.deepEqual([...index.candidatesCovering('dir7/a/x.ts')].sort(), ['**/*.md', 'dir7/**', 'dir7/{a,b}/*.ts']);
  assert.deepEqual([...index.candidatesOverlapping(compile('dir7/a/*'))].sort(), ['**/*.md', 'dir7/**', 'dir7/{a,b}/*.ts']);
  assert.deepEqual([...index.candidatesOverlapping(compile('dir70/'))].sort(), ['**/*.md', 'dir70/**', 'dir70/{a,b}/*.ts']);
});

test('an entry with several expansions is yielded once, replaced by a second add, and gone after remove', () => {
  const index = new PrefixIndex<string, string>();
  index.add('k', compile('{a,b}/{x,y}/*'), 'first');
  assert.deepEqual([...index.candidatesOverlapping(compile('**'))], ['first']);
  assert.deepEqual([...index.candidatesCovering('b/y/z')], ['first']);
  index.add('k', compile('c/*'), 'second');
  assert.equal(index.size, 1);
  assert.deepEqual([...index.candidatesCovering('b/y/z')], []);
  assert.deepEqual([...index.candidatesCovering('c/z')], ['second']);
  assert.equal(index.remove('k'), true);
  assert.equal(index.remove('k'), false);
  assert.equal(index.size, 0);
  assert.deepEqual([...index.candidatesOverlapping(compile('**'))], []);
});

test('candidates for a pattern include claims above it, at it, and below it, but not beside it', () => {
  const index = new PrefixIndex<string, string>();
  for (const pattern of ['**/*.ts', 'src/**', 'src/api/**', 'src/api/v2/a.ts', 'src/api-v2/**', 'lib/**']) {
    index.add(pattern, compile(pattern), pattern);
  }
  assert.deepEqual([...index.candidatesOverlapping(compile('src/api/x/*'))].sort(), ['**/*.ts', 'src/**', 'src/api/**']);
  assert.deepEqual([...index.candidatesOverlapping(compile('src/api/'))].sort(), ['**/*.ts', 'src/**', 'src/api/**', 'src/api/v2/a.ts']);
  assert.deepEqual([...index.candidatesCovering('src/api/v2/a.ts')].sort(), ['**/*.ts', 'src/**', 'src/api/**', 'src/api/v2/a.ts']);
});
