import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { programOf } from '../../../server/gate/inline-programs.js';
import { literalWord } from '../../../server/gate/shell-word.js';
import { analyzeShell } from '../../../server/gate/shell-analysis.js';

/** The paths a command's interpreter program writes, as the shell analysis reports them. */
function programWrites(command: string): string[] {
  return analyzeShell(command, '/repo', {})
    .writes.filter((w) => w.via.endsWith(' program'))
    .map((w) => (w.kind === 'path' ? w.word.text : w.kind));
}

const py = (program: string) => `python3 - <<'EOF'\n${program}\nEOF`;

const cases: [command: string, expected: string[]][] = [
  // Python: open with a writing mode, path objects, os and shutil.
  [`python3 -c "open('a.ts', 'w').write('x')"`, ['a.ts']],
  [py(`p = 'a.ts'\ns = open(p).read()\nopen(p, 'w').write(s.replace('1', '2'))`), ['a.ts']],
  [py(`open('a.ts', mode='a')\nopen('b.ts', 'rb')\nopen('c.ts')\nio.open('d.ts', 'r+')\nwith open("e.ts", "wb") as f: pass`), ['a.ts', 'd.ts', 'e.ts']],
  [py(`from pathlib import Path\nPath('a.ts').write_text('x')\n(Path('src') / 'b.ts').unlink()\nq = Path('src', 'c.ts')\nq.open('w')\nq.open()\nPath('d.ts').read_text()`), ['a.ts', 'src/b.ts', 'src/c.ts']],
  [py(`r = Path('old.ts')\nr.rename('new.ts')\ns = 'text'\ns.replace('old', 'new')`), ['old.ts', 'new.ts']],
  // A file's text is not its path: `Path(…).read_text()` and what is made of it.
  [py(`header = Path('src/header.ts').read_text()\nout = header.replace('/* BODY */', body)\nPath('src/combined.ts').write_text(out)\nv = Path('VERSION').read_text().strip()\nprint(v.replace('.', '_'))`), ['src/combined.ts']],
  [py(`import os, shutil\nos.remove(os.path.join('src', 'a.ts'))\nshutil.copy('in.ts', 'out.ts')\nshutil.move('from.ts', 'to.ts')\nshutil.rmtree('build')`), ['src/a.ts', 'build', 'out.ts', 'from.ts', 'to.ts']],
  [py(`with open(f'src/{name}.ts', 'w') as f: pass`), ['src/*.ts']],
  [py(`print(open('a.ts').read())\nfor p in paths: open(p, 'w')`), []],
  // A loop over written paths: its name stands for each.
  [py(`for path in ['src/a.ts', 'src/b.ts']:\n    open(path, 'w').write('')\nfor p in paths: open(p, 'w')`), ['src/a.ts', 'src/b.ts']],
  [`node -e "for (const f of ['x.ts', 'y.ts']) require('fs').writeFileSync(f, '')"`, ['x.ts', 'y.ts']],
  // A name stands for what it was last set to before the call: a path read, then another written, is not a write of the first
  // (a branch's earlier value is not followed either); used before any assignment (a function's body), for each value.
  [py(`p = 'a.ts'\nif x: p = 'b.ts'\nopen(p, 'w')`), ['b.ts']],
  [py(`path = 'api/types.ts'\ntypes = open(path).read()\npath = 'web/types.ts'\nopen(path, 'w').write(types)\np = 'api/e.ts'\np = p.replace('api', 'web')\nopen(p, 'w')`), ['web/types.ts']],
  [py(`def save(text): open(out, 'w').write(text)\nout = 'a.ts'\nout = 'b.ts'`), ['a.ts', 'b.ts']],
  [`node -e "let file = 'api/r.ts'; const r = fs.readFileSync(file); file = 'web/r.ts'; fs.writeFileSync(file, r)"`, ['web/r.ts']],
  // Tuple assignment gives each name its own value; a loop's name over written paths is each of them, through Path() too.
  [py(`src, dst = 'api/types.ts', 'web/types.ts'\nopen(dst, 'w').write(open(src).read())\nfor q in ['web/a.ts', 'api/b.ts']: Path(q).write_text('')`), ['web/types.ts', 'web/a.ts', 'api/b.ts']],
  // JavaScript, Perl and Ruby.
  [`node -e "require('fs').writeFileSync('a.ts', 'x')"`, ['a.ts']],
  [`node -e "const fs = require('fs'); const p = 'a.ts'; fs.writeFileSync(p, fs.readFileSync('b.ts'))"`, ['a.ts']],
  ["node --eval=\"fs.rmSync('dist', { recursive: true }); fs.copyFileSync('a', 'b'); fs.renameSync('c', path.join('d', 'e'))\"", ['dist', 'b', 'c', 'd/e']],
  ["node <<'EOF'\nawait writeFile(`out/${n}.json`, '{}');\nconsole.log(readFileSync('in.json'));\nEOF", ['out/*.json']],
  [`perl -e 'open(my $fh, ">", "a.ts"); open(F, ">>b.ts"); open(G, "<c.ts"); open(H, "<", "d.ts"); unlink "e.ts";'`, ['a.ts', 'b.ts', 'e.ts']],
  [`ruby -e 'File.write("a.ts", "x"); File.open("b.ts", "w") { |f| f << 1 }; File.read("c.ts"); FileUtils.mv "d", "e"'`, ['a.ts', 'b.ts', 'd', 'e']],
  // Unknown parts of the shell word make patterns; what runs elsewhere is not a program here.
  [`python3 -c "open('src/$D/x.ts', 'w')"`, ['src/*/x.ts']],
  ['python3 x.py; node build.js; python3 -m black src; perl -pi -e "s/a/b/" f', []],
  [`sudo -u me python3 -X utf8 -c "open('a.ts', 'w')"`, ['a.ts']],
];

describe('interpreter programs: the files their write calls name', () => {
  for (const [command, expected] of cases) {
    test(command.replace(/\n/g, '⏎').slice(0, 100), () => assert.deepEqual(programWrites(command), expected));
  }

  test('where the program comes from: an option, stdin, a script file, or nowhere (a module)', () => {
    const of = (...argv: string[]) => {
      const source = programOf(argv.map(literalWord));
      if (!source) return undefined;
      if ('file' in source) return `${source.language}:file ${source.file.text}`;
      return source.code === 'stdin' ? `${source.language}:stdin` : `${source.language}:${source.code.text}`;
    };
    assert.equal(of('python3', '-c', 'x'), 'python:x');
    assert.equal(of('/usr/bin/python3.12', '-'), 'python:stdin');
    assert.equal(of('node'), 'javascript:stdin');
    assert.equal(of('node', '--print', 'y'), 'javascript:y');
    assert.equal(of('node', '-r', 'ts-node/register', 'x.ts'), 'javascript:file x.ts');
    assert.equal(of('python3', '-u', 'tools/gen.py', '-c', 'not an option of python'), 'python:file tools/gen.py');
    assert.equal(of('python3', '-m', 'pytest'), undefined);
    assert.equal(of('ruby', 'x.rb'), 'ruby:file x.rb');
    assert.equal(of('cat'), undefined);
  });

  test('runs of spaces and word characters are read in linear time (each pattern once found quadratic ones)', () => {
    for (const command of [`perl -e 'unlink${' '.repeat(60_000)}x'`, `ruby -e 'File.write${' '.repeat(60_000)}x'`, `python3 -c 'a=${'a='.repeat(200)}a${' '.repeat(580)}b'`, py(`x = "${'deadbeef'.repeat(8_000)}"`)]) {
      const started = performance.now();
      programWrites(command);
      assert.ok(performance.now() - started < 500, `${command.slice(0, 30)}…: ${Math.round(performance.now() - started)} ms`);
    }
  });

  test('a long program: assignments and write calls are each read within their own budget', () => {
    assert.deepEqual(programWrites(py(`${'x = 1\n'.repeat(400)}open('late.ts', 'w')`)), ['late.ts']);
  });

  test('a hostile program is read within bounds: a here-document of 20,000 unclosed calls', () => {
    const started = performance.now();
    const writes = programWrites(py(`open('a', 'w'${', ('.repeat(20_000)}`));
    assert.ok(performance.now() - started < 500, `took ${performance.now() - started} ms`);
    assert.deepEqual(writes, ['a'], 'the one call with a mode is still read');
  });
});
