import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_BRACE_EXPANSIONS, normalizePath, normalizePattern, PatternError } from '../../../server/core/glob/index.js';

function assertRefused(normalize: (input: string) => string, input: string, message: RegExp): void {
  assert.throws(
    () => normalize(input),
    (error: unknown) => {
      assert.ok(error instanceof PatternError, `${JSON.stringify(input)} throws a PatternError`);
      assert.equal(error.pattern, input);
      assert.match(error.message, message);
      return true;
    },
  );
}

const refusedPatterns: [string, RegExp][] = [
  ['', /empty: give a repository-relative glob/],
  ['   ', /empty/],
  ['!src/**', /starts with "!": negated patterns are not supported/],
  ['#notes.md', /comment; to name a file starting with "#", write "\[#\]notes.md"/],
  ['src/+(a|b).ts', /extglob "\+\(…\)": extglobs are not supported/],
  ['@(a|b)', /extglob "@\(/],
  ['a/!(b)', /extglob "!\(/],
  ['?(x)', /extglob "\?\(/],
  ['src/*(x).ts', /extglob "\*\(.*write a literal "\(" as "\[\(\]"/],
  ['/etc/passwd', /is absolute: give it relative to the repository root/],
  ['C:/work/src', /is absolute/],
  ['c:src', /is absolute/],
  ['../x', /pattern "\.\.\/x" has a "\.\." segment, which can leave the repository root: "\.\." segments are not allowed; give a path inside the repository/],
  ['a/../b', /"\.\." segments are not allowed/],
  ['src/..', /"\.\." segments are not allowed/],
  ['src\\a.ts', /backslash: separate directories with "\/", and write a special character literally inside a class/],
  ['a\0b', /NUL character/],
  ['x'.repeat(1025), /1025 characters long: the limit is 1024/],
  ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}', new RegExp(`more than ${MAX_BRACE_EXPANSIONS} alternatives`)],
  ['f{1..100}.ts', /more than 64 alternatives/],
  ['{..,a}/x', /expands to "\.\.\/x", which has a "\.\." segment: "\.\." segments are not allowed/],
  ['{.,a}/x', /expands to "\.\/x", which has a "\." segment: write that alternative without "\.\/"/],
  ['{,}', /alternative that leaves the pattern empty/],
  ['{/etc,a}/x', /expands to the absolute "\/etc\/x"/],
  ['src/{a/,b}', /expands to "src\/a\/", which ends with "\/": write a directory inside braces as "dir\/\*\*"/],
  ['a/{b,}', /ends with "\/"/],
  ['[[:alpha:]]*.ts', /POSIX class "\[:alpha:\]"/],
  ['.', /names the repository root itself: write "\*\*" to cover the whole repository/],
  ['./', /repository root itself/],
  ['.//./', /repository root itself/],
  [`${'**/a/'.repeat(33)}x`, /more than 32 "\*\*" segments/],
];

for (const [input, message] of refusedPatterns) {
  test(`normalizePattern refuses ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}`, () => {
    assertRefused(normalizePattern, input, message);
  });
}

const normalizedPatterns: [string, string][] = [
  ['src/', 'src/**'],
  ['./a//b', 'a/b'],
  ['a/./b', 'a/b'],
  ['a///b/', 'a/b/**'],
  ['src/**/', 'src/**'],
  ['src/.', 'src/**'],
  ['{a,b}/', '{a,b}/**'],
  ['**', '**'],
  ['  src', '  src'],
  ['src/a.ts ', 'src/a.ts '],
  ['.github/**', '.github/**'],
  ['a/.b', 'a/.b'],
  ['a/{b,}/c', 'a/{b,}/c'],
  ['[!a]*', '[!a]*'],
  ['a!b#c', 'a!b#c'],
  ['x'.repeat(1024), 'x'.repeat(1024)],
  ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}', '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}'],
  [`${'**/a/'.repeat(32)}x`, `${'**/a/'.repeat(32)}x`],
];

for (const [input, expected] of normalizedPatterns) {
  test(`normalizePattern(${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}) is ${JSON.stringify(expected.length > 40 ? `${expected.slice(0, 40)}…` : expected)}`, () => {
    assert.equal(normalizePattern(input), expected);
    assert.equal(normalizePattern(expected), expected, 'normalizing is idempotent');
  });
}

const refusedPaths: [string, RegExp][] = [
  ['', /path is empty: give a repository-relative path such as "src\/app.ts"/],
  [' ', /empty/],
  ['/home/me/repo/src/a.ts', /path "\/home\/me\/repo\/src\/a.ts" is absolute/],
  ['D:/repo/a.ts', /is absolute/],
  ['../a.ts', /"\.\." segments are not allowed/],
  ['a/../../b', /"\.\." segments are not allowed/],
  ['.', /repository root itself: give a file inside the repository/],
  ['src\\a.ts', /backslash: separate directories with "\/"$/],
  ['a\0', /NUL/],
];

for (const [input, message] of refusedPaths) {
  test(`normalizePath refuses ${JSON.stringify(input)}`, () => {
    assertRefused(normalizePath, input, message);
  });
}

const normalizedPaths: [string, string][] = [
  ['./src//a.ts', 'src/a.ts'],
  ['src/./a.ts', 'src/a.ts'],
  ['src/lib/', 'src/lib'],
  ['.env', '.env'],
  ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
  // A concrete path is never read as a glob.
  ['a/*.ts', 'a/*.ts'],
  ['!x', '!x'],
  ['#x', '#x'],
  ['{a,b}', '{a,b}'],
];

for (const [input, expected] of normalizedPaths) {
  test(`normalizePath(${JSON.stringify(input)}) is ${JSON.stringify(expected)}`, () => {
    assert.equal(normalizePath(input), expected);
  });
}
