import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGitConfig } from '../../../server/plane/repository/git-config.js';
import { scopeName } from '../../../contracts/index.js';
import { canonicalScope, isLegacyScope, normalizeRemoteUrl } from '../../../server/plane/repository/scope-identity.js';

test('every way of writing one origin normalizes to one id, without credentials, port or .git', () => {
  const forms = [
    'git@github.com:org/repo.git',
    'git@github.com:org/repo',
    'github.com:org/repo.git',
    'https://github.com/org/repo.git',
    'https://github.com/org/repo',
    'https://github.com/org/repo/',
    'https://user:s3cret@github.com/org/repo.git',
    'https://x-access-token:ghp_abc@GitHub.COM/org/repo.git',
    'http://github.com:80/org/repo',
    'ssh://git@github.com/org/repo.git',
    'ssh://git@github.com:22/org/repo.git',
    'git+ssh://git@github.com/org/repo.git',
    'git://github.com/org/repo.git',
    '  https://github.com//org/repo.git?ref=main  ',
  ];
  for (const form of forms) assert.equal(normalizeRemoteUrl(form, '/anywhere'), 'github.com/org/repo', form);
});

test('paths keep their case and depth; credentials never survive', () => {
  assert.equal(normalizeRemoteUrl('https://gitlab.example.com/Group/Sub/Repo.git', '/'), 'gitlab.example.com/Group/Sub/Repo');
  assert.equal(normalizeRemoteUrl('git@gitlab.example.com:Group/Sub/Repo.git', '/'), 'gitlab.example.com/Group/Sub/Repo');
  assert.equal(normalizeRemoteUrl('ssh://git@[::1]:2222/org/repo.git', '/'), '[::1]/org/repo');
  for (const url of ['https://alice:hunter2@host/org/repo', 'ssh://alice@host/org/repo']) assert.doesNotMatch(normalizeRemoteUrl(url, '/'), /alice|hunter2/);
});

test('a local origin is file:// and its absolute path, a relative one resolved against the repository', () => {
  assert.equal(normalizeRemoteUrl('/srv/git/repo.git', '/home/u/clone'), 'file:///srv/git/repo');
  assert.equal(normalizeRemoteUrl('file:///srv/git/repo.git/', '/home/u/clone'), 'file:///srv/git/repo');
  assert.equal(normalizeRemoteUrl('../origin.git', '/home/u/clone'), 'file:///home/u/origin');
  assert.equal(normalizeRemoteUrl('file:///srv/my%20repo', '/'), 'file:///srv/my repo');
});

test('a scope as a caller names it: URLs normalized like origins, other names kept', () => {
  assert.equal(canonicalScope('git@github.com:org/repo.git'), 'github.com/org/repo');
  assert.equal(canonicalScope('https://github.com/org/repo'), 'github.com/org/repo');
  assert.equal(canonicalScope('github.com/org/repo'), 'github.com/org/repo');
  assert.equal(canonicalScope(' myproject-0a1b2c3d4e5f '), 'myproject-0a1b2c3d4e5f');
  assert.equal(canonicalScope('team/project.git/'), 'team/project');
  assert.equal(canonicalScope('/srv/git/repo.git'), 'file:///srv/git/repo');
});

test('no id of today looks like a common-dir path of an older plane', () => {
  for (const value of ['git@h:o/r', 'https://h/o/r', '/srv/git/repo.git', '../x', 'name-0a1b2c3d4e5f']) {
    assert.equal(isLegacyScope(canonicalScope(value)), false, value);
  }
  assert.equal(isLegacyScope('/home/u/repo/.git'), true);
});

test('a readable name: the last two segments, or a one-segment id itself', () => {
  assert.equal(scopeName('github.com/org/repo'), 'org/repo');
  assert.equal(scopeName('gitlab.example.com/Group/Sub/Repo'), 'Sub/Repo');
  assert.equal(scopeName('file:///srv/git/repo'), 'git/repo');
  assert.equal(scopeName('myproject-0a1b2c3d4e5f'), 'myproject-0a1b2c3d4e5f');
});

test('git config is read as git reads it: sections, subsections, quotes, comments, last value wins', () => {
  const config = parseGitConfig(
    [
      '[core]',
      '\tbare = false',
      '[remote "origin"]',
      '\turl = git@github.com:org/old.git',
      '\turl = "git@github.com:org/repo.git" ; a comment',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '[Fleet]',
      '\tScope = team/project # chosen by hand',
      '[branch.Main]',
      '\tremote = origin',
      '[flag]',
      '\ton',
    ].join('\n'),
  );
  assert.equal(config.get('remote.origin.url'), 'git@github.com:org/repo.git');
  assert.equal(config.get('fleet.scope'), 'team/project');
  assert.equal(config.get('branch.main.remote'), 'origin');
  assert.equal(config.get('flag.on'), 'true');
  assert.equal(config.get('core.bare'), 'false');
});
