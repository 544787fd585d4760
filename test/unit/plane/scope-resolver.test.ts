import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ScopeResolver } from '../../../server/plane/repository/scope-resolver.js';
import { cloneRepo, git, makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

/** A repository removed when the test ends. */
function repo(t: { after(fn: () => void): void }, make: () => string = makeRepo): string {
  const root = make();
  t.after(() => removeHome(root));
  return root;
}

test('fleet.scope wins over origin; origin wins over a generated id', (t) => {
  const root = repo(t);
  git(root, 'remote', 'add', 'origin', 'git@github.com:org/repo.git');
  assert.equal(new ScopeResolver().resolve(root).id, 'github.com/org/repo');
  git(root, 'config', 'fleet.scope', 'team/project');
  assert.equal(new ScopeResolver().resolve(join(root, 'src')).id, 'team/project');
});

test('a changed git config is seen by a resolver that cached the old id', (t) => {
  const root = repo(t);
  git(root, 'remote', 'add', 'origin', 'https://github.com/org/repo');
  const resolver = new ScopeResolver();
  assert.equal(resolver.resolve(root).id, 'github.com/org/repo');
  git(root, 'config', 'fleet.scope', 'renamed');
  assert.equal(resolver.resolve(root).id, 'renamed');
});

test('a repository without origin gets an id once, written as fleet.scope, stable for every later resolver', (t) => {
  const root = repo(t);
  const first = new ScopeResolver().resolve(root).id;
  assert.match(first, /^fleet-repo-[A-Za-z0-9]+-[0-9a-f]{12}$/);
  assert.equal(git(root, 'config', '--get', 'fleet.scope'), first, 'git itself reads the id back');
  assert.equal(new ScopeResolver().resolve(join(root, 'src', 'a.ts')).id, first);
  const config = readFileSync(join(root, '.git', 'config'), 'utf8');
  assert.equal(config.match(/scope = /g)?.length, 1, 'written once');
});

test('every worktree of a repository, and two clones of one origin, have one id; the scope keeps each worktree', (t) => {
  const source = repo(t);
  git(source, 'remote', 'add', 'origin', 'ssh://git@example.com:22/org/shared.git');
  const linked = join(tempHome('fleet-linked-'), 'wt');
  t.after(() => removeHome(join(linked, '..')));
  git(source, 'worktree', 'add', '-q', linked);
  const a = repo(t, () => cloneRepo(source));
  const b = repo(t, () => cloneRepo(source));
  for (const clone of [a, b]) git(clone, 'remote', 'set-url', 'origin', clone === a ? 'git@example.com:org/shared' : 'https://token@example.com/org/shared.git');
  const resolver = new ScopeResolver();
  const ids = [source, linked, a, b].map((root) => resolver.resolve(root));
  assert.deepEqual(new Set(ids.map((s) => s.id)), new Set(['example.com/org/shared']));
  assert.deepEqual(ids.map((s) => s.worktree), [source, linked, a, b]);
});

test('scope alone: an origin URL in any form names the scope, absolute paths are refused, root and scope must agree', (t) => {
  const root = repo(t);
  git(root, 'remote', 'add', 'origin', 'git@github.com:org/repo.git');
  const resolver = new ScopeResolver();
  const remote = resolver.forCall({ scope: 'https://github.com/org/repo.git' });
  assert.deepEqual(remote, { id: 'github.com/org/repo' });
  assert.equal(resolver.toRelative(remote, 'src/a.ts'), 'src/a.ts');
  assert.throws(() => resolver.toRelative(remote, join(root, 'src/a.ts')), /relative to the repository root, or pass root/);
  assert.equal(resolver.forCall({ root, scope: 'github.com/org/repo' }).worktree, root);
  assert.throws(() => resolver.forCall({ root, scope: 'github.com/org/other' }), /belongs to scope "github.com\/org\/repo", not to the scope "github.com\/org\/other"/);
  // Once this plane has seen a checkout of the scope, a directory named by scope is still a directory.
  const named = resolver.forCall({ scope: 'github.com/org/repo' });
  assert.equal(resolver.markDirectory(named, 'src'), 'src/');
  assert.throws(() => resolver.toRelative(named, join(root, 'src/a.ts')), /relative to the repository root/);
});
