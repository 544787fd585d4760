import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Minimatch } from 'minimatch';
import { compilePattern, MATCH_OPTIONS, normalizePattern, PatternError } from '../../../server/core/glob/index.js';

const compile = (pattern: string) => compilePattern(normalizePattern(pattern));

test('literal prefixes are the leading plain segments of each brace expansion', () => {
  assert.deepEqual(compile('src/api/**/*.ts').literalPrefixes, [['src', 'api']]);
  assert.deepEqual(compile('**/*.ts').literalPrefixes, [[]]);
  assert.deepEqual(compile('src/a.ts').literalPrefixes, [['src', 'a.ts']]);
  assert.deepEqual(compile('a/b*/c').literalPrefixes, [['a']]);
  assert.deepEqual(compile('{a,b}/x/*').literalPrefixes, [['a', 'x'], ['b', 'x']]);
  assert.deepEqual(compile('{a,b/c}/d').literalPrefixes, [['a', 'd'], ['b', 'c', 'd']]);
  // minimatch reads a one-character class as that character.
  assert.deepEqual(compile('src/[a]/x').literalPrefixes, [['src', 'a', 'x']]);
  assert.deepEqual(compile('src/').literalPrefixes, [['src']]);
});

test('source is the normalized text', () => {
  assert.equal(compile('./src//').source, 'src/**');
});

test('matches follows minimatch with dot:true', () => {
  const subtree = compile('src/');
  assert.equal(subtree.matches('src'), false, 'a directory claim covers what is below it, not the name itself');
  assert.equal(subtree.matches('src/a.ts'), true);
  assert.equal(subtree.matches('src/.env'), true);
  assert.equal(compile('**/*.yml').matches('.github/workflows/ci.yml'), true);
  assert.equal(compile('**').matches('.git/config'), true);
  assert.equal(compile('*.md').matches('docs/a.md'), false);
  assert.equal(compile('README.md').matches('readme.md'), false);
  assert.equal(compile('a/{b,}/c').matches('a/c'), true);
  assert.equal(compile('a/**/b').matches('a/b'), true);
  assert.equal(compile('[!a-z]*').matches('Zebra'), true);
  assert.equal(compile('[!a-z]*').matches('zebra'), false);
});

test('plain files and directory claims, kept without a Minimatch, match exactly what minimatch matches', () => {
  // Every normalized path of up to four segments drawn from these, including `.`/`..` that no
  // normalized path has but a reader might pass.
  const segments = ['src', 'api', 'a.ts', '.env', '.', '..', 'srcx', 'x'];
  const paths: string[] = [];
  for (const a of segments) {
    for (const b of segments) {
      paths.push(a, `${a}/${b}`);
      for (const c of segments) paths.push(`${a}/${b}/${c}`, `${a}/${b}/${c}/x`);
    }
  }
  const kinds: Record<string, string> = {
    'src/': 'SubtreePattern',
    'src/api/**': 'SubtreePattern',
    '.env/**': 'SubtreePattern',
    'src/a.ts': 'LiteralPattern',
    'src/api/a.ts': 'LiteralPattern',
    'src/[a]pi/x': 'LiteralPattern',
    x: 'LiteralPattern',
  };
  for (const [pattern, kind] of Object.entries(kinds)) {
    const compiled = compile(pattern);
    assert.equal(compiled.constructor.name, kind, `${pattern} is kept without a Minimatch`);
    const reference = new Minimatch(compiled.source, MATCH_OPTIONS);
    const differing = paths.filter((path) => compiled.matches(path) !== reference.match(path));
    assert.deepEqual(differing, [], `${pattern} (${compiled.constructor.name})`);
  }
});

test('compilePattern refuses backslashes and POSIX classes in wildcard segments rather than misreading them', () => {
  assert.throws(() => compilePattern('src/a\\*b*'), PatternError);
  assert.throws(() => compilePattern('[\\]a]'), PatternError);
  assert.throws(() => compilePattern('[[:digit:]]'), PatternError);
});
