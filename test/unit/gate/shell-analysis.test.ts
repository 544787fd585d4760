import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeShell } from '../../../server/gate/shell-analysis.js';

const CWD = '/repo';
const KNOWN = { HOME: '/home/u', FLEET_HOME: '/home/u/.fleet' };

/** The writes a command names, as `via: text` (cwd shown when it is not the command's own). */
function writes(command: string): string[] {
  return analyzeShell(command, CWD, KNOWN).writes.map((w) => {
    const where = w.cwd === CWD ? '' : ` @${w.cwd}`;
    return w.kind === 'worktree' ? `${w.via}: <worktree>${where}` : `${w.via}: ${w.word.text}${w.kind === 'path-or-branch' ? '?' : ''}${where}`;
  });
}

const cases: [command: string, expected: string[]][] = [
  ['echo x > a', ['redirection >: a']],
  ['echo x >> a 2> b &> c &>> d >| e', ['redirection >>: a', 'redirection >: b', 'redirection &>: c', 'redirection &>>: d', 'redirection >|: e']],
  ['cat < in 2>&1 >&- <<<here', []],
  ['echo x > /dev/null', ['redirection >: /dev/null']],
  ['cat a | tee -a b c', ['tee: b', 'tee: c']],
  ["sed -i 's/a/b/' f g", ['sed -i: f', 'sed -i: g']],
  ["sed -i.bak -e 's/a/b/' f", ['sed -i: f']],
  ["sed 's/a/b/' f > out", ['redirection >: out']],
  ["perl -pi -e 's/a/b/' f", ['perl -i: f']],
  ['cp a b dest/', ['cp: dest/']],
  ['cp -t dest a b', ['cp: dest']],
  ['install -m 644 a /usr/local/x', ['install: /usr/local/x']],
  ['mv a b', ['mv: a', 'mv: b']],
  ['rsync -a src/ dest/', ['rsync: dest/']],
  ['rsync -a src/ host:dest/', []],
  ['rm -rf a b; rmdir c; unlink d', ['rm: a', 'rm: b', 'rmdir: c', 'unlink: d']],
  ['touch -d yesterday a; mkdir -p -m 700 b/c', ['touch: a', 'mkdir: b/c']],
  // A link is a door into what it names: a symbolic one's target (read from the link's folder), a hard one's source.
  ['ln -sf target link', ['ln: link', 'ln -s: target']],
  ['ln -s ../x/target', ['ln: target', 'ln -s: ../x/target']],
  ['ln -sr src/x d/link', ['ln: d/link', 'ln -s: src/x']],
  ['ln a b; link c d; cp -al e f/; cp g h', ['ln: b', 'ln (a hard link): a', 'link: c', 'link: d', 'cp: f/', 'cp: e', 'cp: h']],
  ['truncate -s 0 a', ['truncate: a']],
  ['chmod -R 755 a b; chown u:g c', ['chmod: a', 'chmod: b', 'chown: c']],
  ['dd if=/dev/zero of=disk.img bs=1', ['dd of=: disk.img']],
  // A patch file is read by the plane (listed in scripts); one from another command's output may write anything.
  ['patch -p1 < fix.diff; git diff | patch -p1 -R', ['patch reading the output of git: <worktree>']],
  ['patch a.c fix.diff', ['patch: a.c']],
  ['git checkout -- a b', ['git checkout: a', 'git checkout: b']],
  ['git checkout main', ['git checkout: main?']],
  // A first operand that names a commit writes nothing itself; one that may be a path (a branch name?) may be anywhere.
  ['git checkout HEAD~1 a; git checkout 3f2a9c1 b; git checkout main c', ['git checkout: a', 'git checkout: b', 'git checkout: <worktree>', 'git checkout: c']],
  ['git checkout -b feat; git switch -c x; git switch main; git stash push -m wip -- src/web; git stash; git clean -n; patch -p1 --dry-run < p', ['git switch: <worktree>', 'git stash push: src/web', 'git stash: <worktree>']],
  ['git restore a', ['git restore: a']],
  ['git restore --staged a', []],
  ['git reset --hard; git reset HEAD a', ['git reset --hard: <worktree>']],
  ['git clean -fd; git clean -f a', ['git clean: <worktree>', 'git clean: a']],
  ['git switch dev; git stash; git apply p.diff; git am --continue', ['git switch: <worktree>', 'git stash: <worktree>', 'git am: <worktree>']],
  ['git -C sub status; git log > log.txt', ['redirection >: log.txt']],
  // A subshell's cd ends with it: what follows is read from where the command started.
  ['(cd sub && echo x > a) && echo y > b', ['redirection >: a @/repo/sub', 'redirection >: b']],
  ['cd lib; echo $(cd ../src; pwd) > a; cat <(cd /tmp && ls) > b; (pushd x; popd; cd y) ; rm c', ['redirection >: a @/repo/lib', 'redirection >: b @/repo/lib', 'rm: c @/repo/lib']],
  // A cd that may not have run leaves both folders possible: after a chain that stopped early, a branch, a loop.
  ['cd a && cd b && rm x; rm y', ['rm: x @/repo/a/b', 'rm: y @/repo/a/b', 'rm: y', 'rm: y @/repo/a']],
  ['[ -d build ] && cd build; rm x; cd out 2>/dev/null || true; rm y', ['rm: x @/repo/build', 'rm: x', 'redirection >: /dev/null @/repo/build', 'redirection >: /dev/null', 'rm: y @/repo/build/out', 'rm: y @/repo/out', 'rm: y @/repo/build', 'rm: y']],
  ['if t; then cd a; elif u; then cd b; else cd c; fi; rm x; case $v in 1) cd /d;; esac; rm y', ['rm: x @/repo/a', 'rm: x @/repo/b', 'rm: x @/repo/c', 'rm: y @/repo/a', 'rm: y @/repo/b', 'rm: y @/repo/c', 'rm: y @/d']],
  ['for d in a b; do (cd "$d" && rm x); done; g() { cd sub; }; rm y', ['rm: x @/repo/a', 'rm: x @/repo/b', 'rm: y']],
  // A function's body runs where it is called, and its cd moves the caller (read where it is defined too; a recursive call once).
  ['go() { cd web; }; go; echo > x; fmt() { prettier --write src; }; cd /app; fmt; f() { f; rm a; }; f', ['redirection >: x @/repo/web', 'prettier: src @/repo/web', 'prettier: src @/app', 'rm: a @/app', 'rm: a @/app']],
  // A script the command writes and then runs is read from what it writes (the file is not on disk yet).
  ["cat > /tmp/fix.py <<'EOF'\nfrom pathlib import Path\nPath('src/a.ts').write_text('x')\nEOF\npython3 /tmp/fix.py && cat > gen.sh <<'EOF'\nrm -rf lib\nEOF\nbash gen.sh", ['redirection >: /tmp/fix.py', 'python script fix.py: src/a.ts', 'redirection >: gen.sh', 'rm: lib']],
  // Package managers change the manifest and lock file where they run; a global install, ci, run and test do not.
  ['npm install x; npm i -g y; npm ci; npm run build; yarn; pnpm add -D z; go mod tidy; go mod download; cargo add serde; cargo build; uv add r; uv run pytest', ['npm install: package.json', 'npm install: package-lock.json', 'yarn install: yarn.lock', 'pnpm add: package.json', 'pnpm add: pnpm-lock.yaml', 'go mod tidy: go.mod', 'go mod tidy: go.sum', 'cargo add: Cargo.toml', 'cargo add: Cargo.lock', 'uv add: pyproject.toml', 'uv add: uv.lock']],
  // Installing what the manifest lists changes the lock file only; --version changes nothing.
  ['npm install; uv sync; cargo update; poetry lock; yarn --version; npm -v', ['npm install: package-lock.json', 'uv sync: uv.lock', 'cargo update: Cargo.lock', 'poetry lock: poetry.lock']],
  // `git submodule foreach CMD` runs CMD in folders not known here: a write there is anywhere; a look is nothing.
  ["git submodule foreach git status; git submodule sync; git submodule foreach 'rm -rf build'", ['rm: build', 'git in *: <worktree>']],
  // Reviewer's cases: `return` ends a function, not the command; a cd in an if's condition may fail; a subshell's functions end with it;
  // popd brings back every folder pushd left; `cd -` after a cd to a folder built at run time; `cd a b` is refused by bash.
  ['f(){ cd sub || return 1; make; }; f; rm x', ['rm: x @/repo/sub', 'rm: x']],
  ['if cd sub; then make; else echo fail > err.log; fi; (g(){ cd a; }); g; echo > y', ['redirection >: err.log @/repo/sub', 'redirection >: err.log', 'redirection >: y @/repo/sub', 'redirection >: y']],
  ['[ -d b ] && cd b; pushd c; popd; rm x; cd /t; cd "$X"; cd -; rm y; cd {d,e}; rm z', ['rm: x @/repo/b', 'rm: x', 'rm: y @/t', 'rm: z @/t']],
  ['cd sub && make || exit 1; rm x; cd a || cd b; rm y', ['rm: x @/repo/sub', 'rm: y @/repo/sub/a', 'rm: y @/repo/sub', 'rm: y @/repo/sub/b']],
  // A here-document piped by cat is the right side's stdin; a trap's script runs; find's `{}` inside a word is each match.
  ["cat <<'EOF' | python3 -\nopen('piped.ts', 'w')\nEOF\ncat <<'EOF' | bash\nrm z\nEOF", ['python3 program: piped.ts', 'rm: z']],
  [`trap 'rm -f tmp.txt' EXIT; find src -name '*.bak' -exec sh -c 'rm "{}"' \\;; echo hi | python3 -c 'print(1)'`, ['rm: tmp.txt', 'rm: src/**']],
  // A false-refusal pass: an empty word is no file (BSD `sed -i ''`); a cd to a folder built at run time is a return to
  // the start ($ROOT, $(git rev-parse --show-toplevel)); $(pwd) and $OLDPWD are known; mktemp -t is in /tmp;
  // package managers in another folder or not saving; npx's options stop at the tool; find -path narrows -delete.
  ["sed -i '' -e 's|a|b|' web/c.ts; ROOT=$(pwd); cd api && make; cd \"$ROOT\" && rm web/x; cd api; cd $OLDPWD; rm web/y", ['sed -i: web/c.ts', 'rm: web/x', 'rm: web/y']],
  ['cd api && tmp=$(mktemp -t d.XXXXXX) && git diff > "$tmp"; mktemp -p /var/t f.XXX', ['mktemp: /tmp/d.XXXXXX @/repo/api', 'redirection >: * @/repo/api', 'mktemp: /var/t/f.XXX @/repo/api', 'mktemp: /var/t/f.XXX']],
  ['npm i -D msw --prefix web; npm i x --workspace=pkg; npm install --no-save y; npm pkg set name=z; npx eslint -c cfg.js --fix src', ['npm i: web/package.json', 'npm i: web/package-lock.json', 'npm i: pkg/package.json', 'npm i: pkg/package-lock.json', 'npm pkg: package.json', 'npm pkg: package-lock.json', 'eslint: src']],
  ["find . -path './web/*' -name '*.snap' -delete; find . -not -path './api/*' -delete", ['find -delete: ./web/*', 'find -delete: ./**']],
  // Interpreter flags in a cluster still give the program.
  [`node -pe "require('fs').writeFileSync('a', '')"; perl -ne 'unlink "b"' f`, ['node program: a', 'perl program: b']],
  // A branch that exits goes on nowhere: past `cd x || exit` the cd happened.
  ['cd web || exit; rm a; cd sub || { echo missing; exit 1; }; rm b; if [ -d c ]; then cd c; else exit 1; fi; rm c', ['rm: a @/repo/web', 'rm: b @/repo/web/sub', 'rm: c @/repo/web/sub/c']],
  ['[ -d build ] && cd build; [ -d out ] && cd out; rm -rf cache', ['rm: cache @/repo/build/out', 'rm: cache @/repo/out', 'rm: cache @/repo/build', 'rm: cache']],
  // A pipeline's parts and a background job run in child processes; a statement's redirections open before it runs.
  ['cd sub | rm x; cd sub & rm y; { cd sub && make; } > log; cd -P sub; cd -; rm z; cd; rm w', ['rm: x', 'rm: y', 'redirection >: log', 'rm: z @/repo/sub', 'rm: w @/home/u']],
  ['cd src && rm a', ['rm: a @/repo/src']],
  // A prefix that moves where its command runs moves what that command's paths mean.
  ['pushd src && rm a', ['rm: a @/repo/src']],
  ["env -C src sh -c 'echo > a'; env --chdir=lib rm b; sudo -D bin rm c", ['redirection >: a @/repo/src', 'rm: b @/repo/lib', 'rm: c @/repo/bin']],
  ['git -C sub checkout -- a; git -C x -C y rm b', ['git checkout: a @/repo/sub', 'git rm: b @/repo/x/y']],
  ['env -C "$D" rm a; git -C "$D" log', ['rm: a', 'env in *: <worktree>']],
  ['pushd sub && make && popd && rm a', ['rm: a']],
  ['sudo --chdir src rm a; env -Clib rm b; sudo -Dbin rm c', ['rm: a @/repo/src', 'rm: b @/repo/lib', 'rm: c @/repo/bin']],
  // Prefixes nested past the depth read: what finally runs is unseen, so it may write anywhere.
  ['git -C . -C . -C . -C . -C . checkout -- a', ['git (nested past 4 prefixes): <worktree>']],
  ['echo $(touch a) `rm b`', ['touch: a', 'rm: b']],
  ['x=$(cat a > b)', ['redirection >: b']],
  ["bash -c 'echo x > a; rm b'", ['redirection >: a', 'rm: b']],
  [`sh -c "bash -c 'touch deep'"`, ['touch: deep']],
  ['bash -lc "mv a b"', ['mv: a', 'mv: b']],
  ['eval "rm a"', ['rm: a']],
  ['sudo -u root rm a; env X=1 touch b; nohup tee c; timeout 5 rm d; xargs rm e', ['rm: a', 'touch: b', 'tee: c', 'rm: d', 'rm: e', 'rm: *']],
  ['ls | xargs -I{} cp {} dest/{}.bak', ['cp: dest/*.bak']],
  ['find src -name "*.o" -delete', ['find -delete: src/**']],
  ['find . -name x -exec rm {} \\;', ['rm: ./**']],
  ['for f in a b; do rm "$f"; done', ['rm: {a,b}']],
  // Brace expansion makes several words of one: `cp f{,.bak}` copies f to f.bak. Quoted braces stay.
  ["cp package.json{,.bak}; mv src/{old,new}.ts; rm a{b,c{d,e}}f '{x,y}' {z", ['cp: package.json.bak', 'mv: src/old.ts', 'mv: src/new.ts', 'rm: abf', 'rm: acdf', 'rm: acef', 'rm: {x,y}', 'rm: {z']],
  ['for f in src/*.ts; do echo >> "$f"; done', ['redirection >>: src/*.ts']],
  ['while read f; do rm "$f"; done < list', ['rm: *']],
  ['if true; then echo > a; else echo > b; fi', ['redirection >: a', 'redirection >: b']],
  // Read where it is defined and where it is called (the same write twice here; the plane checks it once).
  ['f() { echo x > a; }; f', ['redirection >: a', 'redirection >: a']],
  ['echo x > "$HOME/notes" > ~/other > "${FLEET_HOME}/token"', ['redirection >: /home/u/notes', 'redirection >: /home/u/other', 'redirection >: /home/u/.fleet/token']],
  ['echo x > "$OUT/a" > src/$NAME.ts', ['redirection >: */a', 'redirection >: src/*.ts']],
  ['echo x > "a b" > c\\ d', ['redirection >: a b', 'redirection >: c d']],
  // ANSI-C quoting: the escapes are the characters bash writes.
  ["echo x > $'src/the\\x69rs/a' > $'b\\151' > $'c\\u0064' > $'d\\'e' > 'f\\x69' > $'g\\xZ'", ['redirection >: src/theirs/a', 'redirection >: bi', 'redirection >: cd', "redirection >: d'e", 'redirection >: f\\x69', 'redirection >: g\\xZ']],
  ['/bin/rm a', ['rm: a']],
  ['bash -c "rm $(cat list) a.ts"', ['rm: *', 'rm: a.ts']],
  ['sh -c "echo \\"x\\" > \\"b c\\""', ['redirection >: b c']],
  // A prefix assignment holds for its command only: the script goes on with the old value.
  ['PWD=/tmp true; rm -rf "$PWD/src/theirs"', ['rm: /repo/src/theirs']],
  ['f=a; f=b true; rm "$f"', ['rm: a']],
  // A variable set twice may hold either value (a branch not taken, a subshell): both are checked.
  ['f=src/theirs/x.ts; if false; then f=src/mine/a.ts; fi; echo x > "$f"', ['redirection >: {src/theirs/x.ts,src/mine/a.ts}']],
  ['f=a; (f=b); rm "$f"', ['rm: {a,b}']],
  // apply_patch through the shell: a path built at run time is a pattern; a patch the gate cannot read could write anything.
  ['apply_patch <<EOF\n*** Begin Patch\n*** Update File: src/$(printf theirs)/x.ts\n*** End Patch\nEOF', ['apply_patch: <worktree>', 'apply_patch: src/*/x.ts']],
  ['apply_patch "$P"', ['apply_patch: <worktree>']],
  // cat's here-document piped to it is read like its own.
  ["cat <<'EOF' | apply_patch\n*** Begin Patch\n*** Delete File: src/theirs/x.ts\n*** End Patch\nEOF", ['apply_patch: src/theirs/x.ts']],
  ['cat p.diff | apply_patch; apply_patch < p.diff', []],
  ['git show | apply_patch', ['apply_patch reading the output of git: <worktree>']],
  // A script that is nothing but a value nobody knows could do anything; eval of a tool's output sets up this shell.
  ['sh -c "$CMD"; echo "$CMD" | bash; eval "$(ssh-agent -s)"', ['sh -c *: <worktree>', 'bash reading a script built at run time: <worktree>']],
  // A patch file another command writes first is not what is on disk yet: it may write anything.
  ['git diff > p.diff && git apply -R p.diff', ['redirection >: p.diff', 'git apply p.diff: <worktree>']],
  // An archive unpacked where the command runs writes whatever it holds; listing or creating one writes no file in it.
  ['tar xf evil.tar; tar -xzf e.tgz; unzip -o e.zip', ['tar -x: <worktree>', 'tar -x: <worktree>', 'unzip: <worktree>']],
  ['tar tf e.tar; tar -cf - -C src .; unzip -l e.zip', []],
  // Formatters and fixers rewrite their operands in place (the folder they run in when none is given); checks and diffs write nothing.
  ['npx prettier --write src/a.ts; prettier -w; prettier --check .', ['prettier: src/a.ts', 'prettier: .']],
  ['eslint --fix src; eslint src; eslint -c cfg.js --fix', ['eslint: src', 'eslint: .']],
  ['black -l 100 src; black --check .; isort x.py; isort --diff y.py', ['black: src', 'isort: x.py']],
  ['ruff format src; ruff check --fix; ruff check .', ['ruff format: src', 'ruff check: .']],
  ['gofmt -w a.go; gofmt -l .; go fmt ./pkg/...; go build ./...', ['gofmt: a.go', 'go fmt: ./pkg']],
  ['rustfmt src/main.rs; rustfmt --check x.rs; cargo fmt; cargo fmt --check', ['rustfmt: src/main.rs', 'cargo fmt: <worktree>']],
  ['clang-format -i a.c; autopep8 --in-place b.py; biome check --write src; biome format src', ['clang-format: a.c', 'autopep8: b.py', 'biome check: src']],
  // Runners of a project's tools: the tool they run is read as itself.
  ["python3 -m black src; npm exec -- eslint --fix lib; pnpm exec prettier -w x; uv run isort y; npx -c 'rm z'", ['black: src', 'eslint: lib', 'prettier: x', 'isort: y', 'rm: z']],
  // Downloads and other writers of a named output.
  ['curl -o a https://h/x -o b https://h/y; curl -sSo c https://h/z; curl -sSLO --output-dir src https://h/p/f.ts?v=1; curl https://h/z', ['curl: a', 'curl: b', 'curl: c', 'curl: src/f.ts']],
  ['wget -qO out.ts https://h/x; wget -O - https://h/y; wget -P src https://h/p/g.ts', ['wget: out.ts', 'wget: src/g.ts']],
  ["sort -o f f; sort -uo g g; sort h; gawk -i inplace -i ord '{print}' i; awk '{print}' j", ['sort -o: f', 'sort -o: g', 'gawk -i inplace: i']],
  ['curl --output-dir d -o x https://h/x; uvx black e; cargo +nightly fmt; npm exec -w pkg -- prettier --write f', ['curl: d/x', 'black: e', 'cargo fmt: <worktree>', 'prettier: f']],
  // A mode that looks like an option is chmod's mode; install -d makes folders.
  ['chmod -x s.sh; chmod -w a b; chmod --reference=r t; install -dm755 build', ['chmod: s.sh', 'chmod: a', 'chmod: b', 'chmod: t', 'install -d: build']],
  // git that makes a folder or writes a named file, or checks out another state.
  ['git clone https://h/o/repo.git; git clone u vendor/y; git worktree add wt -b f; git submodule add https://h/lib.git libs/l', ['git clone: repo', 'git clone: vendor/y', 'git worktree add: wt', 'git submodule add: libs/l']],
  ['git format-patch -o patches HEAD~3; git archive -o out.zip HEAD; git submodule update --init; git bisect good; gh pr checkout 4', ['git format-patch: patches', 'git archive: out.zip', 'git submodule update: <worktree>', 'git bisect: <worktree>', 'gh pr checkout: <worktree>']],
  // In-place editors and compressors (not to stdout, not a test); archives and build outputs.
  ["sort f | sponge f; sd a b x.ts; sd -p a b y.ts; yq -i '.a=1' c.yaml; dos2unix d.sh; gzip -c e.json; xz -t f.xz", ['sponge: f', 'sd: x.ts', 'yq -i: c.yaml', 'dos2unix: d.sh']],
  // A compressor writes the file's twin beside it and removes the file, unless it keeps it.
  ['gzip e.json; gzip -k f.sql; gunzip --keep g.gz; xz -dk h.xz; zstd i.log; bzip2 -o j.bz2 j', ['gzip: e.json', 'gzip: e.json.gz', 'gzip: f.sql.gz', 'gunzip: g', 'xz: h', 'zstd: i.log.zst', 'bzip2: j', 'bzip2: j.bz2']],
  // Looks that change nothing; perl's -M and -I are not -i.
  ['git stash list; git apply --check p.diff; git bisect log; terraform fmt -write=false; zip -sf z.zip; perl -MList::Util=sum -lane "print" d.txt', []],
  ['tar -czf a.tgz src; tar cjf b.tbz src; tar -cf - src; zip -r c.zip src; mktemp d.XXX; mkfifo p', ['tar -c: a.tgz', 'tar -c: b.tbz', 'zip: c.zip', 'mktemp: d.XXX', 'mkfifo: p']],
  ['gcc -O2 -o build/app m.c; go build -o bin/s .; tsc --outDir dist; tsc -p .; esbuild a.ts --outfile=o.js; javac -d out A.java', ['gcc: build/app', 'go build: bin/s', 'tsc: dist', 'esbuild: o.js', 'javac: out']],
  ['shfmt -w s.sh; yapf -i a.py; rubocop -a; terraform fmt -check; deno fmt; cargo clippy --fix; cargo clippy; pre-commit run', ['shfmt: s.sh', 'yapf: a.py', 'rubocop: .', 'deno fmt: .', 'cargo clippy --fix: <worktree>', 'pre-commit run: <worktree>']],
  // A formatter run by its bare name through yarn/pnpm/bun, or with a version after npx; helpers that run a command.
  ['yarn prettier --write src; pnpm eslint --fix .; pnpm rm lodash; npx prettier@3 -w a; npx @biomejs/biome@1.9 format --write b', ['prettier: src', 'eslint: .', 'pnpm rm: package.json', 'pnpm rm: pnpm-lock.yaml', 'prettier: a', 'biome format: b']],
  ['npx cross-env NODE_ENV=t rm -rf dist; rimraf out; npx shx rm c; flock l rm d; gtimeout 5 rm e; bundle exec rubocop -a f', ['rm: dist', 'rimraf: out', 'rm: c', 'rm: d', 'rm: e', 'rubocop: f']],
  // Positional parameters: a new shell's `sh -c '…' NAME ARG…` ($0 is NAME), a function's call, moved by shift and `set --`.
  [`sh -c 'echo x > "$1"' _ src/theirs/x.ts; sh -c 'rm "$0"' a; bash -c 'rm "$@"' sh b c; bash -c 'rm "$1"'`, ['redirection >: src/theirs/x.ts', 'rm: a', 'rm: b', 'rm: c', 'rm: *']],
  ['f() { rm "$1"; }; f src/theirs/x.ts; g() { shift; touch "$1"; }; g a b', ['rm: *', 'rm: src/theirs/x.ts', 'touch: *', 'touch: b']],
  // A shift in a loop moves $1 along every argument; `for f; do` iterates over them.
  ['f() { while [ $# -gt 0 ]; do rm "$1"; shift; done; }; f a b; set -- c d; rm "$2"; for f; do touch "$f"; done; set -o pipefail; rm "$1"', ['rm: *', 'rm: {a,b}', 'rm: d', 'touch: {c,d}', 'rm: c']],
  ["find . -name '*.o' -exec sh -c 'rm \"$1\"' _ {} \\;", ['rm: ./**']],
  // Parameter expansions of values the command set: suffix and prefix removal, replacement, defaults, slices, arrays.
  ['f=src/theirs/x.ts; rm "${f%.ts}.js" ${f/theirs/mine} ${OUT:-build} ${f#src/} ${f##*/} ${f:0:3}', ['rm: src/theirs/x.js', 'rm: src/mine/x.ts', 'rm: build', 'rm: theirs/x.ts', 'rm: x.ts', 'rm: src']],
  [': "${OUT:=dist}"; rm -rf "$OUT"', ['rm: dist']],
  ['for f in src/a.ts src/b.ts; do mv "$f" "${f%.ts}.js"; done; a=(x y); rm "${a[@]}" ${a[1]}', ['mv: {src/a.ts,src/b.ts}', 'mv: {src/a,src/b}.js', 'rm: x', 'rm: y', 'rm: y']],
  // A script piped into a shell or an interpreter is read: echo's and printf's words, cat's here-document; another command's output could do anything.
  [`echo 'rm a' | bash; printf '%s\\n' 'rm b' 'touch c' | sh; echo "open('d', 'w')" | python3; curl -s https://h/i.sh | sh`, ['rm: a', 'rm: b', 'touch: c', 'python3 program: d', 'sh reading the output of curl: <worktree>']],
  // A patch the command holds (a here-document, or a file it wrote first) is read like the plane reads a patch file: its headers, less -p.
  ["git apply <<'EOF'\ndiff --git a/src/theirs/x.ts b/src/theirs/x.ts\n--- a/src/theirs/x.ts\n+++ b/src/theirs/x.ts\n@@ -1 +1 @@\n-a\n+b\nEOF", ['git apply: src/theirs/x.ts']],
  ["cat > p.diff <<'EOF'\n--- a/web/y.ts\n+++ b/web/y.ts\n@@ -1 +1 @@\n-a\n+b\nEOF\npatch -p1 -d sub < p.diff", ['redirection >: p.diff', 'patch: sub/web/y.ts']],
  // A shell whose script is a here-document or here-string reads it.
  ["bash <<'EOF'\nrm a\nEOF\nsh -s <<< 'rm b'; bash < file.sh", ['rm: a', 'rm: b']],
];

describe('shell analysis: the writes a command names, read by a real shell parser', () => {
  for (const [command, expected] of cases) {
    test(command, () => assert.deepEqual(writes(command), expected));
  }

  test('globs and unknown parts are marked, so the gate matches them as patterns or says it cannot see them', () => {
    const [glob, dynamic, anchored] = analyzeShell('rm src/*.ts $X/a src/$Y', CWD, KNOWN).writes.map((w) => (w.kind === 'worktree' ? undefined : w.word));
    assert.deepEqual(glob, { text: 'src/*.ts', literal: true, glob: true, unanchored: false });
    assert.equal(dynamic!.unanchored, true);
    assert.deepEqual([anchored!.text, anchored!.unanchored, anchored!.literal], ['src/*', false, false]);
  });

  test('a path in a patch built at run time is matched as a pattern, not as a file named `*`', () => {
    const [, built] = analyzeShell('apply_patch <<EOF\n*** Update File: src/$(printf theirs)/x.ts\nEOF', CWD, KNOWN).writes;
    assert.deepEqual(built?.kind === 'path' && [built.word.text, built.word.glob, built.word.literal], ['src/*/x.ts', true, false]);
    const [quoted] = analyzeShell("apply_patch <<'EOF'\n*** Update File: src/$(printf theirs)/x.ts\nEOF", CWD, KNOWN).writes;
    assert.deepEqual(quoted?.kind === 'path' && [quoted.word.text, quoted.word.glob], ['src/$(printf theirs)/x.ts', false], 'a quoted here-document is read as written');
  });

  test('a command that does not parse keeps its path-like tokens and says why', () => {
    const facts = analyzeShell('echo "oops > src/theirs/x.ts', CWD, KNOWN);
    assert.match(facts.parseError!, /without closing quote/);
    assert.ok(facts.tokens.includes('src/theirs/x.ts'));
    const inner = analyzeShell(`bash -c 'echo "half > a.ts'`, CWD, KNOWN);
    assert.ok(inner.parseError !== undefined && inner.tokens.includes('a.ts'), 'an unparsable script inside bash -c is read as tokens too');
  });

  test('script files a command runs are listed for the plane to read: by a shell, sourced, by their path, or by an interpreter the gate reads', () => {
    const facts = analyzeShell('bash -e x.sh; sh -c "echo"; source y.sh; . z.sh; cd sub && ./run.sh; scripts/deploy a; node w.js; lua v.lua; bash "$F"; bash', CWD, KNOWN);
    assert.deepEqual(facts.scripts, [
      { path: '/repo/x.sh', cwd: CWD, byPath: false },
      { path: '/repo/y.sh', cwd: CWD, byPath: false },
      { path: '/repo/z.sh', cwd: CWD, byPath: false },
      { path: '/repo/sub/run.sh', cwd: '/repo/sub', byPath: true },
      // Its arguments are a shell script's positional parameters.
      { path: '/repo/sub/scripts/deploy', cwd: '/repo/sub', byPath: true, arguments: [{ text: 'a', literal: true, glob: false, unanchored: false }] },
      // After `cd sub && …;` the cd may have failed: the rest may run in /repo too.
      { path: '/repo/scripts/deploy', cwd: CWD, byPath: true, arguments: [{ text: 'a', literal: true, glob: false, unanchored: false }] },
      { path: '/repo/sub/w.js', cwd: '/repo/sub', byPath: false, language: 'javascript' },
      { path: '/repo/w.js', cwd: CWD, byPath: false, language: 'javascript' },
    ]);
  });

  test('script and patch files fed on stdin or named are listed for the plane to read, with how a patch is applied', () => {
    const facts = analyzeShell('cat x.sh | sh; bash < y.sh; python3 < z.py; git apply -p2 --directory=sub p.diff; patch -p1 -i q.diff; patch < r.diff; cat s.diff | git apply', CWD, KNOWN);
    assert.deepEqual(facts.scripts, [
      { path: '/repo/x.sh', cwd: CWD, byPath: false },
      { path: '/repo/y.sh', cwd: CWD, byPath: false },
      { path: '/repo/z.py', cwd: CWD, byPath: false, language: 'python' },
      { path: '/repo/p.diff', cwd: CWD, byPath: false, patch: { strip: 2, prefix: 'sub', via: 'git apply' } },
      { path: '/repo/q.diff', cwd: CWD, byPath: false, patch: { strip: 1, via: 'patch' } },
      { path: '/repo/r.diff', cwd: CWD, byPath: false, patch: { via: 'patch' } },
      { path: '/repo/s.diff', cwd: CWD, byPath: false, patch: { strip: 1, via: 'git apply' } },
    ]);
    assert.deepEqual(facts.writes, []);
  });

  test('the folders a command may be in are followed up to 8, so the work stays bounded', () => {
    const started = performance.now();
    const facts = analyzeShell(`${'cd a && cd b || cd c; '.repeat(30)}rm x`, CWD, KNOWN);
    assert.equal(facts.writes.filter((w) => w.via === 'rm').length, 8, 'rm x is checked in the 8 folders followed');
    assert.ok(performance.now() - started < 1000, 'without the bound the folders multiply with each line (it hung)');
  });

  test('a command nested past the stack is read as its tokens, not thrown', () => {
    const facts = analyzeShell(`${'echo $('.repeat(2000)}rm src/x.ts${')'.repeat(2000)}`, CWD, KNOWN);
    assert.ok(facts.parseError !== undefined);
    assert.ok(facts.tokens.includes('src/x.ts'));
  });

  test('assignments are collected wherever they are made (prefix, export, env)', () => {
    const facts = analyzeShell('FLEET_AS=BOLT true; export FLEET_OVERRIDE=x; env FLEET_AS=C true', CWD, KNOWN);
    assert.deepEqual(facts.assignments.map((a) => `${a.name}=${a.value.text}`), ['FLEET_AS=BOLT', 'FLEET_OVERRIDE=x']);
    assert.ok(facts.words.some(({ word }) => word.text === 'FLEET_AS=C'), 'env NAME=value is a word the identity rules read');
  });

  test('bash -c nesting is followed to a bounded depth', () => {
    let command = 'touch deep.txt';
    for (let i = 0; i < 8; i++) command = `bash -c '${command.replace(/'/g, `'\\''`)}'`;
    const facts = analyzeShell(command, CWD, KNOWN);
    assert.deepEqual(facts.writes, [], 'past the depth, nothing more is parsed');
    assert.ok(facts.tokens.some((t) => t.includes('deep.txt')), 'but its tokens are still seen');
  });
});
