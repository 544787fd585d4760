import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { analyzeCommand } from '../../../server/gate/command-analysis.js';
import { MAX_SCRIPT_FILE_BYTES, withScriptFiles } from '../../../server/gate/script-files.js';

const dir = mkdtempSync(join(tmpdir(), 'fleet-scripts-'));
const known = { HOME: '/home/u' };
const analyze = (command: string) => analyzeCommand(command, dir, known, []);
const read = (command: string) => withScriptFiles(analyze(command), known, async (script, cwd, scriptKnown) => analyzeCommand(script, cwd, scriptKnown, []));
const writesOf = (analysis: { writes: { kind: string; via: string; word?: { text: string } }[] }) => analysis.writes.map((w) => `${w.via}: ${w.word?.text ?? '<worktree>'}`);

function script(name: string, text: string | Buffer): void {
  writeFileSync(join(dir, name), text);
  chmodSync(join(dir, name), 0o755);
}

describe('script files: what a script the command runs writes is what the command writes', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a script run by bash, sourced, or by its path is read, and the scripts it runs in turn', async () => {
    script('a.sh', 'echo x > from-a\nbash b.sh\n');
    script('b.sh', '#!/bin/sh\nrm from-b\n./c\n');
    script('c', '#!/usr/bin/env -S bash -e\ntouch from-c\n');
    const { analysis, notes } = await read('bash a.sh');
    assert.deepEqual(writesOf(analysis), ['redirection >: from-a', 'rm: from-b', 'touch: from-c']);
    assert.deepEqual(notes, []);
  });

  test('a file run by its path that no shell runs (node, python, a binary) is not read as shell', async () => {
    script('tool.js', '#!/usr/bin/env node\n// rm everything > not-a-shell\n');
    script('binary', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0x3e, 0x20, 0x78]));
    assert.deepEqual(writesOf((await read('./tool.js; ./binary; bash binary')).analysis), []);
  });

  test('a Python, Node, Perl or Ruby script is read as that language: run by its interpreter or by its #!', async () => {
    script('gen.py', "#!/usr/bin/env python3\nfrom pathlib import Path\nPath('generated.ts').write_text(open('input.ts').read())\n");
    script('clean.mjs', "import { rmSync } from 'node:fs';\nrmSync('dist', { recursive: true });\n");
    script('tidy', "#!/usr/bin/perl -w\nunlink 'old.log';\n");
    script('plain.lua', "os.remove('nope')\n");
    mkdirSync(join(dir, 'pkg'), { recursive: true });
    const { analysis } = await read('python3 -u gen.py --check; node clean.mjs && ./tidy; cd pkg && ../gen.py; lua ../plain.lua');
    assert.deepEqual(analysis.writes.map((w) => `${w.via}: ${w.kind === 'path' ? w.word.text : w.kind} @${w.cwd}`), [
      `python script gen.py: generated.ts @${dir}`,
      `javascript script clean.mjs: dist @${dir}`,
      `perl script tidy: old.log @${dir}`,
      `python script gen.py: generated.ts @${join(dir, 'pkg')}`,
    ]);
  });

  test('a script that runs itself is read once; past 8 files the note says what was not read', async () => {
    script('loop.sh', 'echo > looped\nbash loop.sh\n');
    assert.deepEqual(writesOf((await read('bash loop.sh')).analysis), ['redirection >: looped']);
    for (let i = 0; i < 10; i++) script(`chain${i}.sh`, `touch t${i}\nbash chain${i + 1}.sh\n`);
    const { analysis, notes } = await read('bash chain0.sh');
    assert.equal(analysis.writes.length, 8);
    assert.match(notes.join('\n'), /more script files than the gate reads \(8, within 4 s\): .*chain8\.sh and any after it were not read/);
  });

  test('a file run by its path without #! is run by a shell, so it is read; one run from two folders is read for each', async () => {
    script('plain', 'rm here\n');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const { analysis } = await read('./plain; cd sub && ../plain');
    assert.deepEqual(analysis.writes.map((w) => `${w.via}: ${w.kind === 'worktree' ? '' : w.word.text} @${w.cwd}`), [`rm: here @${dir}`, `rm: here @${join(dir, 'sub')}`]);
  });

  test('a named pipe is never waited on: a command that runs one answers at once', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const started = Date.now();
    assert.deepEqual(writesOf((await read('bash pipe; ./pipe')).analysis), []);
    assert.ok(Date.now() - started < 1000, 'the pipe was not opened for a blocking read');
  });

  test('a file run by its path without #! is read by its extension: uv run tools/report.py is Python, not a shell script', async () => {
    mkdirSync(join(dir, 'tools'), { recursive: true });
    script('tools/report.py', "import json\nschema = json.load(open('db/schema.json'))\nopen('report.txt', 'w').write(str(schema))\n");
    script('tools/notes.txt', 'rm everything\n');
    const { analysis, notes } = await read('uv run tools/report.py; poetry run tools/notes.txt');
    assert.deepEqual(writesOf(analysis), ['python script report.py: report.txt']);
    assert.deepEqual([analysis.tokens, notes], [[], []], 'not parsed as a shell script (which fails and checks every word)');
  });

  test('a large binary or program of a language the gate does not read, run by its path, is no script: no note', async () => {
    script('big-binary', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]), Buffer.alloc(MAX_SCRIPT_FILE_BYTES + 10)]));
    script('big.lua', `#!/usr/bin/env lua\n-- ${'x'.repeat(MAX_SCRIPT_FILE_BYTES)}\n`);
    assert.deepEqual((await read('./big-binary; ./big.lua')).notes, []);
  });

  test('a script too large to read is named in a note; a missing one is nothing to check', async () => {
    script('huge.sh', `# ${'x'.repeat(MAX_SCRIPT_FILE_BYTES)}\nrm all\n`);
    const { analysis, notes } = await read('bash huge.sh; bash missing.sh');
    assert.deepEqual(writesOf(analysis), []);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /huge\.sh is larger than 64 KiB: what it writes was not checked/);
  });

  test('a script that does not parse is read as its tokens, with a note', async () => {
    script('broken.sh', 'echo "unclosed > src/theirs/x.ts\n');
    const { analysis, notes } = await read('sh broken.sh');
    assert.ok(analysis.tokens.includes('src/theirs/x.ts'));
    assert.match(notes[0]!, /broken\.sh was not parsed/);
  });

  test('a script fed on stdin is read like one run by name; a patch file applied is read for the files its headers name, less -p', async () => {
    script('fed.sh', 'rm from-fed\n');
    script('fix.diff', 'diff --git a/src/x.ts b/src/x.ts\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/old.ts b/new.ts\nrename from old.ts\nrename to new.ts\n--- /dev/null\n+++ b/added.ts\n');
    const { analysis, notes } = await read('cat fed.sh | sh; bash < fed.sh; git apply fix.diff; patch -p1 < fix.diff; git apply --directory=web -p1 fix.diff');
    assert.deepEqual(writesOf(analysis), [
      'rm: from-fed',
      ...['git apply', 'patch'].flatMap((via) => ['src/x.ts', 'old.ts', 'new.ts', 'added.ts'].map((path) => `${via}: ${path}`)),
      ...['src/x.ts', 'old.ts', 'new.ts', 'added.ts'].map((path) => `git apply: web/${path}`),
    ]);
    assert.deepEqual(notes, []);
  });

  test('a shell script run with arguments is read with its positional parameters set to them', async () => {
    script('clean-one.sh', 'rm -f "$1"\nshift\ntouch "$@"\n');
    const { analysis } = await read('bash clean-one.sh src/a.ts b.ts c.ts; ./clean-one.sh d.ts; source clean-one.sh e.ts');
    assert.deepEqual(writesOf(analysis), ['rm: src/a.ts', 'touch: b.ts', 'touch: c.ts', 'rm: d.ts', 'rm: e.ts']);
  });

  test('a patch file that cannot be read may write any file of the worktree, and the note says why', async () => {
    const { analysis, notes } = await read('git apply missing.diff');
    assert.deepEqual(writesOf(analysis), ['git apply missing.diff: <worktree>']);
    assert.match(notes.join('\n'), /missing\.diff \(git apply\) could not be read \(ENOENT\)/);
  });
});
