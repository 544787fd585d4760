import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { eventsOf, keepAlive } from '../integration/agents/support.js';
import { git, makeRepo } from '../support/git-repo.js';
import { CLI, removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';

/**
 * DESIGN §11, shell writes: Claude Code's documented PreToolUse payloads for Bash, fed to the command
 * `fleet install-hooks` wrote into the settings file, against a real plane with two agents holding
 * claims. Allowed commands are then run for real, as the runtime would; denied ones never run.
 */

const THEIRS = 'export const theirs = 1;\n';

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
}

describe('shell writes: the PreToolUse hook on Bash, decided in the plane', () => {
  const seed = testSeed();
  let plane: PlaneProcess;
  let home: string;
  let repo: string;
  let subrepo: string;
  let boltTree: string;
  const outside = tempHome('fleet-outside-');
  let hookCommand: string;
  let atlas: PlaneClient;
  let bolt: PlaneClient;
  let operator: PlaneClient;
  const stops: (() => void)[] = [];

  function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const base: NodeJS.ProcessEnv = { ...process.env, FLEET_HOME: home, FLEET_PORT: '0', PATH: `${join(home, 'bin')}:${process.env.PATH}` };
    delete base.FLEET_AS;
    delete base.FLEET_OVERRIDE;
    return { ...base, ...extra };
  }

  /** A child process, awaited without blocking this process (its plane connections must keep answering pings). */
  function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<{ status: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = execFile(file, args, { cwd: options.cwd, env: options.env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
      child.stdin!.on('error', () => undefined); // a command that reads no stdin may exit before it is written
      child.stdin!.end(options.input ?? '');
    });
  }

  /** Runs the installed hook command exactly as Claude Code does: through a shell, the event on stdin. */
  async function preToolUse(toolName: string, toolInput: Record<string, unknown>, cwd = repo, extra: Record<string, string> = {}): Promise<HookOutput | undefined> {
    const event = { session_id: 'sess-atlas', transcript_path: join(outside, 'transcript.jsonl'), cwd, hook_event_name: 'PreToolUse', tool_name: toolName, tool_input: toolInput, tool_use_id: 'toolu_1' };
    const hook = await run('sh', ['-c', hookCommand], { cwd, env: env(extra), input: JSON.stringify(event) });
    assert.equal(hook.status, 0, `the hook exits 0 with its decision on stdout: ${hook.stderr}`);
    return hook.stdout.trim() === '' ? undefined : (JSON.parse(hook.stdout) as HookOutput);
  }

  function bash(command: string, cwd = repo, extra: Record<string, string> = {}): Promise<HookOutput | undefined> {
    return preToolUse('Bash', { command, description: 'run it' }, cwd, extra);
  }

  /** Pre, then the command for real (only if allowed), as the runtime would. */
  async function runAsRuntime(command: string): Promise<{ decision: 'allow' | 'deny'; reason: string }> {
    const output = await bash(command);
    if (output) return { decision: 'deny', reason: output.hookSpecificOutput.permissionDecisionReason };
    const ran = await run('bash', ['-c', command], { cwd: repo, env: env() });
    assert.equal(ran.status, 0, `allowed command failed when run: ${command}\n${ran.stderr}`);
    return { decision: 'allow', reason: '' };
  }

  const theirs = () => readFileSync(join(repo, 'src/theirs/x.ts'), 'utf8');

  before(async () => {
    console.log(`shell-writes seed ${seed} (FLEET_TEST_SEED=${seed} replays it)`);
    plane = await startPlaneProcess();
    home = plane.home;
    subrepo = makeRepo({ 'core.ts': 'export const core = 1;\n', 'own.ts': 'export const own = 1;\n' });
    repo = makeRepo({ 'src/mine/a.ts': 'export const a = 1;\n', 'src/theirs/x.ts': THEIRS, 'README.md': '# repo\n' });
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'protocol.file.allow=always', ...args], { stdio: 'pipe' });
    git('submodule', 'add', '-q', subrepo, 'libs/sub');
    git('commit', '-qm', 'submodule');
    boltTree = join(outside, 'bolt-tree');
    git('worktree', 'add', '-q', boltTree, '-b', 'bolt');
    // Scripts an agent wrote in its own folder, to run later: what they write is what the command writes.
    writeFileSync(join(repo, 'src/mine/evil.sh'), '#!/bin/sh\necho x > src/theirs/x.ts\n', { mode: 0o755 });
    writeFileSync(join(repo, 'src/mine/outer.sh'), '#!/usr/bin/env bash\nset -e\nsource src/mine/evil.sh\n', { mode: 0o755 });
    writeFileSync(join(repo, 'src/mine/ok.sh'), '#!/bin/sh\necho ok > src/mine/from-script.ts\n', { mode: 0o755 });
    writeFileSync(join(repo, 'src/mine/rm-arg.sh'), '#!/bin/sh\nrm -f "$1"\n', { mode: 0o755 });
    writeFileSync(join(repo, 'src/mine/evil.py'), "#!/usr/bin/env python3\nopen('src/theirs/x.ts', 'w').write('x')\n", { mode: 0o755 });
    symlinkSync('../theirs/x.ts', join(repo, 'src/mine/link.ts'));
    // A folder link into BOLT's territory: `src/mine/down/..` is src/theirs, as the kernel reads it.
    mkdirSync(join(repo, 'src/theirs/deep'));
    symlinkSync('../theirs/deep', join(repo, 'src/mine/down'));
    // Patches an agent keeps in its own folder: one changing BOLT's file, one adding a file of its own.
    writeFileSync(join(repo, 'src/mine/theirs.diff'), 'diff --git a/src/theirs/x.ts b/src/theirs/x.ts\n--- a/src/theirs/x.ts\n+++ b/src/theirs/x.ts\n@@ -1 +1 @@\n-export const theirs = 1;\n+export const theirs = 2;\n');
    writeFileSync(join(repo, 'src/mine/own.diff'), 'diff --git a/src/mine/patched.ts b/src/mine/patched.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/mine/patched.ts\n@@ -0,0 +1 @@\n+export const patched = 1;\n');
    symlinkSync('../theirs', join(repo, 'src/mine/dirlink'));
    symlinkSync(join(repo, 'src/theirs/x.ts'), join(outside, 'outlink.ts'));

    const installed = await runCli(['install-hooks'], { home, cwd: repo });
    assert.equal(installed.code, 0, installed.stderr);
    const settings = JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: { PreToolUse: { matcher: string; hooks: { command: string }[] }[] } };
    const entry = settings.hooks.PreToolUse.find((e) => e.hooks.some((h) => h.command.includes('claude-pre-tool-use')))!;
    for (const tool of ['Bash', 'Write', 'Edit', 'mcp__files__write_file']) assert.match(tool, new RegExp(`^(${entry.matcher})$`), `the installed matcher covers ${tool}`);
    hookCommand = entry.hooks[0]!.command;

    atlas = await plane.connect('test-atlas');
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'claude-code', worktree: repo, pid: process.pid }); // this test process stands in for ATLAS's runtime: the hooks it runs are its children
    bolt = await plane.connect('test-bolt');
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'claude-code', worktree: boltTree });
    operator = await plane.connect('test-operator');
    stops.push(keepAlive(atlas, 5000), keepAlive(bolt, 5000));
    assert.equal((await bolt.call('fleet_claim_path', { patterns: ['src/theirs/**', 'libs/sub/core.ts'], root: repo })).granted, true);
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/mine/**'], root: repo })).granted, true);
  });

  after(async () => {
    for (const stop of stops) stop();
    for (const client of [atlas, bolt, operator]) client?.close();
    await plane?.stop();
    for (const dir of [home, repo, subrepo, outside]) if (dir) removeHome(dir);
  });

  const allowedCommands: [command: string, effect?: () => boolean][] = [
    ['echo hi > src/mine/a.txt', () => readFileSync(join(repo, 'src/mine/a.txt'), 'utf8') === 'hi\n'],
    ['printf more >> src/mine/a.txt'],
    ['cat src/theirs/x.ts | tee src/mine/copy.ts > /dev/null', () => readFileSync(join(repo, 'src/mine/copy.ts'), 'utf8') === THEIRS],
    ["sed -i 's/1/2/' src/mine/a.ts", () => readFileSync(join(repo, 'src/mine/a.ts'), 'utf8').includes('= 2')],
    ['cp src/theirs/x.ts src/mine/x.ts && mv src/mine/x.ts src/mine/y.ts', () => existsSync(join(repo, 'src/mine/y.ts'))],
    ['mkdir -p src/mine/deep/er && touch src/mine/deep/er/f.ts', () => existsSync(join(repo, 'src/mine/deep/er/f.ts'))],
    ['cd src/mine && echo rel > rel.ts', () => existsSync(join(repo, 'src/mine/rel.ts'))],
    [`bash -c 'echo inner > src/mine/inner.ts'`, () => existsSync(join(repo, 'src/mine/inner.ts'))],
    ['for f in src/mine/*.txt src/mine/a.ts; do echo "// seen" >> "$f"; done'],
    ['echo "$(date)" > src/mine/when.txt 2>&1'],
    ['out=src/mine/assigned.ts; echo x > "$out"', () => existsSync(join(repo, 'src/mine/assigned.ts'))],
    ['echo x > "$PWD/src/mine/pwd.ts"', () => existsSync(join(repo, 'src/mine/pwd.ts'))],
    ['rm -f src/mine/*.txt', () => !existsSync(join(repo, 'src/mine/a.txt'))],
    ['tar -cf - -C src/theirs . > /dev/null'],
    ['rm -f src/mine/rel.ts', () => !existsSync(join(repo, 'src/mine/rel.ts'))],
    ['git restore src/mine/a.ts', () => readFileSync(join(repo, 'src/mine/a.ts'), 'utf8') === 'export const a = 1;\n'],
    ['ls src/theirs > /dev/null && cat src/theirs/x.ts > /dev/null && git status --short > /dev/null'],
    [`echo scratch > ${join(outside, 'scratch.txt')}`, () => existsSync(join(outside, 'scratch.txt'))],
    ['sort -o src/mine/sorted.ts src/theirs/x.ts', () => readFileSync(join(repo, 'src/mine/sorted.ts'), 'utf8') === THEIRS],
    ['sh src/mine/ok.sh && ./src/mine/ok.sh', () => readFileSync(join(repo, 'src/mine/from-script.ts'), 'utf8') === 'ok\n'],
    ['ln -s a.ts src/mine/alias.ts', () => readFileSync(join(repo, 'src/mine/alias.ts'), 'utf8') === 'export const a = 1;\n'],
    ['FLEET_AS=ATLAS true'],
    ['fleet status --json > /dev/null'],
    [`echo 'quoted "text"' > /dev/null # a comment naming src/theirs/x.ts`],
    ['tar -czf src/mine/theirs.tgz src/theirs', () => existsSync(join(repo, 'src/mine/theirs.tgz'))],
    // A program that reads BOLT's file and writes ATLAS's own.
    [`node -e "const fs = require('fs'); fs.writeFileSync('src/mine/from-node.ts', fs.readFileSync('src/theirs/x.ts', 'utf8'))"`, () => readFileSync(join(repo, 'src/mine/from-node.ts'), 'utf8') === THEIRS],
    // Positional parameters, parameter expansions, a script piped into a shell, a patch applied: read, and in ATLAS's own territory.
    [`sh -c 'echo pos > "$1"' _ src/mine/pos.ts`, () => readFileSync(join(repo, 'src/mine/pos.ts'), 'utf8') === 'pos\n'],
    ['f=src/mine/pos.ts; cp "$f" "${f%.ts}.bak.ts"', () => existsSync(join(repo, 'src/mine/pos.bak.ts'))],
    [`echo 'touch src/mine/piped.ts' | sh`, () => existsSync(join(repo, 'src/mine/piped.ts'))],
    ['./src/mine/rm-arg.sh src/mine/pos.bak.ts', () => !existsSync(join(repo, 'src/mine/pos.bak.ts'))],
    ['git apply src/mine/own.diff', () => readFileSync(join(repo, 'src/mine/patched.ts'), 'utf8') === 'export const patched = 1;\n'],
    ['git diff | cat > /dev/null; git log --oneline | head -1 > /dev/null; echo "{}" | python3 -m json.tool > /dev/null; git apply --check src/mine/own.diff 2> /dev/null || true'],
  ];

  test(`allowed: ${allowedCommands.length} writes inside ATLAS's territory (or outside every repository) pass, and run`, async () => {
    for (const [command, effect] of allowedCommands) {
      const { decision, reason } = await runAsRuntime(command);
      assert.equal(decision, 'allow', `${command} was denied:\n${reason}`);
      if (effect) assert.ok(effect(), `${command} ran but did not do what it says`);
    }
    assert.equal(theirs(), THEIRS);
  });

  const deniedWrites: string[] = [
    'echo x > src/theirs/x.ts',
    'echo x >> src/theirs/x.ts',
    'echo x &> src/theirs/x.ts',
    'echo x >| src/theirs/x.ts',
    'echo x | tee -a src/theirs/x.ts',
    "sed -i 's/1/2/' src/theirs/x.ts",
    "perl -pi -e 's/1/2/' src/theirs/x.ts",
    'cp src/mine/a.ts src/theirs/x.ts',
    'mv src/theirs/x.ts src/mine/stolen.ts',
    'rm src/theirs/x.ts',
    'rm -rf src/theirs',
    'rm -rf src',
    'touch src/theirs/new.ts',
    'truncate -s 0 src/theirs/x.ts',
    'chmod 000 src/theirs/x.ts',
    'ln -sf /etc/hosts src/theirs/x.ts',
    'dd if=/dev/zero of=src/theirs/x.ts bs=1 count=1',
    'bash -c "echo x > src/theirs/x.ts"',
    `sh -c 'bash -c "rm src/theirs/x.ts"'`,
    'echo $(rm src/theirs/x.ts)',
    '(cd src && echo x > theirs/x.ts)',
    // A subshell's cd ends with it: the write after it is read from the repository's root.
    '(cd src/mine && true) && echo x > src/theirs/x.ts',
    'echo "$(cd src/mine; pwd)" > /dev/null; rm src/theirs/x.ts',
    'cd src/theirs && echo x > x.ts',
    'for f in src/theirs/*.ts; do echo > "$f"; done',
    // src/mine/link.ts leads into src/theirs: a glob over ATLAS's own folder that matches it writes BOLT's file.
    'for f in src/mine/*.ts; do echo "// seen" >> "$f"; done',
    'echo x > src/theirs/*.ts',
    'find src/theirs -name "*.ts" -delete',
    'find src -name "*.ts" -exec rm {} \\;',
    'echo a | xargs -I{} cp {} src/theirs/',
    'git restore src/theirs/x.ts',
    'git checkout -- src/theirs/x.ts',
    'echo x > src/theirs/$NAME.ts',
    // Paths built in the command itself: the shell knows them before it writes, so the gate does.
    'f=src/theirs/x.ts; echo x > "$f"',
    'OUT=src/theirs; cp src/mine/a.ts "$OUT/"',
    'export TARGET=src/theirs/x.ts && rm -f $TARGET',
    'echo x > "$PWD/src/theirs/x.ts"',
    'cd src && rm "${PWD}/theirs/x.ts"',
    // A prefix assignment holds for its command only; a variable set in a branch not taken keeps its first value too.
    'PWD=/tmp true; rm -rf "$PWD/src/theirs"',
    'f=src/theirs/x.ts; if false; then f=src/mine/a.ts; fi; echo x > "$f"',
    'f=src/theirs/x.ts; (f=src/mine/a.ts); echo x > "$f"',
    // Codex applies a patch its model runs through the shell (argument or heredoc) as the apply_patch tool would.
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/theirs/x.ts\n@@\n-export const theirs = 1;\n+export const theirs = 2;\n*** End Patch\nEOF",
    "apply_patch '*** Begin Patch\n  *** Delete File: src/theirs/x.ts\n*** End Patch'",
    // A path built at run time in an unquoted here-document is a pattern, not a file named `*`.
    'apply_patch <<EOF\n*** Begin Patch\n*** Update File: src/$(printf theirs)/x.ts\n@@\n-export const theirs = 1;\n+export const theirs = 2;\n*** End Patch\nEOF',
    // Archives unpacked into a folder write what is inside it.
    'tar -xzf /dev/null -C src/theirs',
    'tar xf /dev/null --directory=src/theirs',
    'unzip -o /dev/null -d src/theirs',
    // A glob that matches a folder writes what is inside it (rm -r, chmod -R, cp -r into it).
    'rm -rf s*',
    'chmod -R 000 src/th*',
    'echo "oops > src/theirs/x.ts',
    'echo x > src/mine/link.ts',
    'echo x > src/mine/dirlink/x.ts',
    `echo x > ${join(outside, 'outlink.ts')}`,
    'echo x > libs/sub/core.ts',
    // Formatters, fixers, downloads and sorts that rewrite files in place.
    'npx prettier --write src/theirs/x.ts',
    'eslint --fix .',
    'python3 -m black src',
    'gofmt -w src/theirs/x.ts',
    'curl -sSo src/theirs/x.ts https://example.invalid/x.ts',
    'sort -o src/theirs/x.ts src/theirs/x.ts',
    // A link made in one's own folder is a door into what it names: the write through it lands there.
    'ln -s ../theirs/x.ts src/mine/door.ts && echo x > src/mine/door.ts',
    'ln -s ../theirs src/mine/doorway',
    'ln src/theirs/x.ts src/mine/hard.ts',
    'cp -al src/theirs src/mine/copy',
    // A prefix that moves where its command runs: the paths are read from there.
    'pushd src/theirs && echo x > x.ts',
    "env -C src/theirs sh -c 'echo x > x.ts'",
    'git -C src/theirs checkout -- x.ts',
    // A script file the command runs is read: by the shell, sourced, by its path, or from another script.
    'bash src/mine/evil.sh',
    'source src/mine/evil.sh',
    './src/mine/evil.sh',
    './src/mine/outer.sh',
    'python3 src/mine/evil.py',
    './src/mine/evil.py',
    // Brace expansion, a shell reading a here-document, a mode that looks like an option, tools that replace or pack files.
    'cp src/theirs/x.ts{,.bak}',
    "bash <<'EOF'\nrm src/theirs/x.ts\nEOF",
    'chmod -w src/theirs/x.ts',
    'gzip src/theirs/x.ts',
    'tar -czf src/theirs/all.tgz src/mine',
    'yarn prettier --write src/theirs',
    'npx cross-env CI=1 rimraf src/theirs',
    // A script the command writes and then runs; a function whose body writes, called after a cd.
    "cat > src/mine/fix.py <<'EOF'\nopen('src/theirs/x.ts', 'w').write('x')\nEOF\npython3 src/mine/fix.py",
    'clean() { rm -f x.ts; }; cd src/theirs && clean',
    'cd src/mine || exit 1; cd ../theirs; rm x.ts',
    // A program handed to an interpreter: the files its write calls name.
    `python3 -c "open('src/theirs/x.ts', 'w').write('x')"`,
    "python3 - <<'EOF'\np = 'src/theirs/x.ts'\ns = open(p).read()\nopen(p, 'w').write(s.replace('1', '2'))\nEOF",
    "python3 <<'EOF'\nfrom pathlib import Path\n(Path('src') / 'theirs' / 'x.ts').write_text('x')\nEOF",
    `node -e "require('fs').rmSync('src/theirs', { recursive: true })"`,
    "cd src && node - <<'EOF'\nconst fs = require('fs');\nfs.writeFileSync(`theirs/${'x'}.ts`, '');\nEOF",
    `perl -e 'open(my $fh, ">", "src/theirs/x.ts")'`,
    `ruby -e 'File.write("src/theirs/x.ts", "x")'`,
    // Positional parameters of a new shell and of a function; parameter expansions of values the command set.
    `sh -c 'echo x > "$1"' _ src/theirs/x.ts`,
    `bash -c 'rm -f "$0"' src/theirs/x.ts`,
    'wipe() { rm -f "$1"; }; wipe src/theirs/x.ts',
    'bash src/mine/rm-arg.sh src/theirs/x.ts',
    './src/mine/rm-arg.sh src/theirs/x.ts',
    'f=src/theirs/x.js; echo x > "${f%.js}.ts"',
    'd=src/mine; echo x > "${d/mine/theirs}/x.ts"',
    'echo x > "${OUT:-src/theirs}/x.ts"',
    // `..` after a link into BOLT's folder is BOLT's folder's parent.
    'echo x > src/mine/down/../x.ts',
    // A script piped or redirected into a shell; a patch file applied.
    `echo 'rm src/theirs/x.ts' | bash`,
    'cat src/mine/evil.sh | sh',
    'bash < src/mine/evil.sh',
    'git apply src/mine/theirs.diff',
    'patch -p1 < src/mine/theirs.diff',
  ];

  test(`denied: ${deniedWrites.length} shell writes into BOLT's territory, each naming the path and its holder`, async () => {
    for (const command of deniedWrites) {
      const { decision, reason } = await runAsRuntime(command);
      assert.equal(decision, 'deny', `${command} was allowed`);
      assert.match(reason, /BOLT/, `${command}: the reason names the holder:\n${reason}`);
      assert.match(reason, /fleet_claim_path|handoff/, `${command}: the reason says what to do:\n${reason}`);
    }
    assert.equal(theirs(), THEIRS, "BOLT's file is untouched");
  });

  test('writes the command does not show (an archive unpacked here, a patch from a variable, a pipe or a file) are refused while another agent in this worktree holds files in it', async () => {
    const carol = await plane.connect('test-carol');
    try {
      await carol.call('fleet_agent_join', { callsign: 'CAROL', runtime: 'claude-code', worktree: repo });
      assert.equal((await carol.call('fleet_claim_path', { patterns: ['README.md'], root: repo })).granted, true);
      const verdict = (command: string) => operator.call('fleet_hook_check_command', { command, cwd: repo, hook: 'test', callsign: 'ATLAS', fromRuntime: true });
      const unseen = ['tar xf evil.tar', 'tar -xzf evil.tgz', 'unzip -o evil.zip', 'apply_patch "$P"', 'cat p.diff | apply_patch', 'apply_patch < p.diff', "cat <<'EOF' | apply_patch\n*** Begin Patch\n*** Delete File: README.md\n*** End Patch\nEOF"];
      for (const command of unseen) {
        const { allowed, refused } = await verdict(command);
        assert.equal(allowed, false, `${command} was allowed`);
        assert.deepEqual(refused.flatMap((r) => r.holders.map((h) => h.callsign)), ['CAROL'], command);
      }
      for (const command of ['tar tf evil.tar', 'tar -cf - -C src/theirs .', 'unzip -l evil.zip', 'tar xf evil.tar -C src/mine']) assert.equal((await verdict(command)).allowed, true, `${command} writes nothing CAROL holds`);
    } finally {
      await carol.call('fleet_agent_leave', {});
      carol.close();
    }
  });

  const deniedIdentity: [command: string, what: RegExp][] = [
    ['FLEET_AS=BOLT fleet claim --as BOLT src/theirs/y.ts', /FLEET_AS=BOLT: you are ATLAS/],
    ['export FLEET_AS=BOLT; echo hi', /FLEET_AS=BOLT/],
    ['fleet claim --as BOLT src/theirs/y.ts', /acts as BOLT/],
    ['FLEET_OVERRIDE=please echo x > src/mine/a.ts', /FLEET_OVERRIDE/],
    ['fleet resume', /acts as the operator/],
    [`fleet call fleet_control_set --json '{"state":"run"}'`, /fleet_control_set/],
    [`fleet call fleet_claim_force_release --json '{"claimIds":["x"]}'`, /fleet_claim_force_release/],
    ['fleet work decide W1 --disposition accept --reason ok', /fleet_work_update/],
    ['git commit --no-verify -m x', /--no-verify/],
    ['git commit -nm x', /--no-verify/],
    ['git push --no-verify origin main', /--no-verify/],
    ['cat "$FLEET_HOME/token"', /token in FLEET_HOME/],
    ['cp ~/../../$FLEET_HOME/token /tmp/t; cat < "$FLEET_HOME/token"', /token/],
    ['fleet uninstall-hooks', /write gate/],
  ];

  test(`denied: ${deniedIdentity.length} commands acting as another agent or as the operator, each saying what to do instead`, async () => {
    const before = readFileSync(join(repo, 'src/mine/a.ts'), 'utf8');
    for (const [command, what] of deniedIdentity) {
      const output = await bash(command.replace('$FLEET_HOME', home).replace('$FLEET_HOME', home));
      assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny', `${command} was allowed`);
      const reason = output.hookSpecificOutput.permissionDecisionReason;
      assert.match(reason, what, `${command}:\n${reason}`);
      assert.match(reason, /Instead: /);
    }
    assert.equal(readFileSync(join(repo, 'src/mine/a.ts'), 'utf8'), before);
  });

  test('the fleet CLI run by what it is (its script by path, a link to the launcher) and git past the pre-commit hook (abbreviations, the environment, aliases in the repository) are refused', async () => {
    // The CLI this plane runs: out/server/cli/main.js of this checkout, whose bin/fleet.js starts it too.
    const checkout = join(CLI, '..', '..', '..', '..');
    symlinkSync(join(home, 'bin', 'fleet'), join(outside, 'f'));
    symlinkSync(CLI, join(outside, 'm.js'));
    git(repo, 'config', 'alias.ci', 'commit -n');
    const cases: [command: string, what: RegExp][] = [
      [`node ${join(checkout, 'bin', 'fleet.js')} resume`, /acts as the operator .*fleet_control_set/],
      [`node ${join(outside, 'm.js')} call fleet_claim_force_release --json '{"claimIds":["x"]}'`, /fleet_claim_force_release/],
      [`${join(outside, 'f')} release --as BOLT src/theirs/x.ts`, /acts as BOLT: you are ATLAS/],
      ['git commit --no-verif -m x', /--no-verify/],
      ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x', /core\.hooksPath/],
      ["git -c alias.c2='commit -n' c2 -m x", /alias of `commit -n`/],
      ['git ci -m x', /git ci, an alias of `commit -n`/],
    ];
    for (const [command, what] of cases) {
      const output = await bash(command);
      assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny', `${command} was allowed`);
      assert.match(output.hookSpecificOutput.permissionDecisionReason, what, command);
    }
    for (const command of [`node ${CLI} status --json`, 'git config user.name', 'git commit -m x', 'git log --oneline -n 1']) assert.equal(await bash(command), undefined, `${command} is allowed`);
  });

  test('$FLEET_HOME in a command is the plane\'s own home: reading its token through the variable is refused', async () => {
    const output = await bash('cat "$FLEET_HOME/token"');
    assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny');
  });

  test('a command that does not parse is allowed when it names no held path, with a note saying it was not parsed', async () => {
    const verdict = await operator.call('fleet_hook_check_command', { command: 'echo "oops > src/mine/a.ts', cwd: repo, hook: 'test', callsign: 'ATLAS', fromRuntime: true });
    assert.equal(verdict.allowed, true);
    assert.match(verdict.notes.join('\n'), /not parsed/);
    await assert.rejects(operator.call('fleet_hook_check_command', { command: 'ls', cwd: 'relative/dir', hook: 'test' }), /cwd "relative\/dir" must be an absolute path/);
  });

  test('symlinks: the file tools are checked as the real path too (file, directory, outside the repository)', async () => {
    for (const file of [join(repo, 'src/mine/link.ts'), join(repo, 'src/mine/dirlink/x.ts'), join(outside, 'outlink.ts')]) {
      const output = await preToolUse('Write', { file_path: file, content: 'x' });
      assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny', `${file} leads into BOLT's file`);
      assert.match(output.hookSpecificOutput.permissionDecisionReason, /src\/theirs\/x\.ts: held exclusively by BOLT/);
    }
    assert.equal(await preToolUse('Write', { file_path: join(repo, 'src/mine/new.ts'), content: 'x' }), undefined);
  });

  test('MCP write tools naming a path are gated like Write; reads and the fleet\'s own tools are not', async () => {
    const write = await preToolUse('mcp__files__write_file', { path: join(repo, 'src/theirs/x.ts'), content: 'x' });
    assert.equal(write?.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(await preToolUse('mcp__files__read_file', { path: join(repo, 'src/theirs/x.ts') }), undefined);
    assert.equal(await preToolUse('mcp__fleet__fleet_check_path', { paths: [join(repo, 'src/theirs/x.ts')] }), undefined);
    assert.equal(await preToolUse('mcp__files__edit_file', { path: join(repo, 'src/mine/a.ts') }), undefined);
    // Serena's editing tools name a path relative to the project (relative_path), JetBrains' theirs pathInProject.
    for (const [tool, input] of [
      ['mcp__serena__create_text_file', { relative_path: 'src/theirs/x.ts', content: 'x' }],
      ['mcp__plugin_serena_serena__replace_symbol_body', { name_path: 'theirs', relative_path: 'src/theirs/x.ts', body: 'x' }],
      ['mcp__jetbrains__replace_file_text_by_path', { pathInProject: 'src/theirs/x.ts', text: 'x' }],
    ] as const) assert.equal((await preToolUse(tool, input))?.hookSpecificOutput.permissionDecision, 'deny', tool);
    assert.equal(await preToolUse('mcp__serena__insert_after_symbol', { name_path: 'a', relative_path: 'src/mine/a.ts', body: 'x' }), undefined);
    // Relative to the project root, not to the session's cwd: after `cd src` they still name src/theirs/x.ts.
    for (const [tool, input] of [
      ['mcp__serena__replace_content', { relative_path: 'src/theirs/x.ts', needle: 'a', repl: 'b', mode: 'literal' }],
      ['mcp__jetbrains__replace_text_in_file', { pathInProject: 'src/theirs/x.ts', oldText: 'a', newText: 'b' }],
      // Verbs and fields no list names: read from the tool's name and its input's field names.
      ['mcp__jetbrains__reformat_file', { path: 'src/theirs/x.ts' }],
      ['mcp__filesystem__move_file', { source: join(repo, 'src/theirs/x.ts'), destination: join(repo, 'src/mine/moved.ts') }],
    ] as const) {
      const output = await preToolUse(tool, input, join(repo, 'src'));
      assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny', `${tool} from src/`);
      assert.match(output.hookSpecificOutput.permissionDecisionReason, /held exclusively by BOLT/, `${tool} from src/`);
    }
  });

  test("MCP shell tools (Serena's execute_shell_command, JetBrains' execute_terminal_command) are judged as Bash is, run in the project root", async () => {
    const deniedCalls: [tool: string, input: Record<string, unknown>][] = [
      ['mcp__serena__execute_shell_command', { command: 'echo x > src/theirs/x.ts' }],
      ['mcp__plugin_serena_serena__execute_shell_command', { command: 'rm theirs/x.ts', cwd: 'src' }],
      ['mcp__jetbrains__execute_terminal_command', { command: 'rm -rf src/theirs', executeInShell: true }],
    ];
    for (const [tool, input] of deniedCalls) {
      const output = await preToolUse(tool, input, join(repo, 'src/mine'));
      assert.equal(output?.hookSpecificOutput.permissionDecision, 'deny', `${tool} ${JSON.stringify(input)} was allowed`);
      assert.match(output.hookSpecificOutput.permissionDecisionReason, /src\/theirs[\s\S]*BOLT/);
    }
    assert.equal(await preToolUse('mcp__serena__execute_shell_command', { command: 'echo x > src/mine/shell.ts' }, join(repo, 'src/mine')), undefined);
    assert.equal(theirs(), THEIRS);
  });

  test('submodules: a claim in the submodule conflicts with the parent claim on its files; fleet check and the hook agree', async () => {
    const sub = join(repo, 'libs/sub');
    const claim = await atlas.call('fleet_claim_path', { patterns: ['core.ts'], root: sub });
    assert.equal(claim.granted, false, 'BOLT holds libs/sub/core.ts through the parent');
    assert.equal(claim.conflicts[0]?.holder, 'BOLT');
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['own.ts'], root: sub })).granted, true);
    // `fleet check` run inside the submodule (the check for a person) sees the parent's claims too.
    const checked = await runCli(['check', '--json', 'core.ts', 'other.ts'], { home, cwd: sub });
    const results = (JSON.parse(checked.stdout) as { results: { path: string; allowed: boolean; holders: { callsign: string }[] }[] }).results;
    assert.deepEqual(results.map((r) => [r.path, r.allowed, r.holders.map((h) => h.callsign)]), [['libs/sub/core.ts', false, ['BOLT']], ['libs/sub/other.ts', true, []]]);
    assert.equal((await preToolUse('Write', { file_path: join(sub, 'core.ts'), content: 'x' }))?.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(await preToolUse('Write', { file_path: join(sub, 'own.ts'), content: 'x' }), undefined);
    assert.equal((await runAsRuntime('echo x >> libs/sub/own.ts')).decision, 'allow');
    assert.equal((await bash('echo x > core.ts', sub))?.hookSpecificOutput.permissionDecision, 'deny', 'relative to a cwd inside the submodule');
  });

  test(`seeded compound commands: denied exactly when some part writes BOLT's territory (seed ${seed})`, async () => {
    const random = new SeededRandom(seed);
    const forms = ['echo x > {T}', 'tee -a {T} < /dev/null', "sed -i 's/a/b/' {T}", 'cp README.md {T}', 'rm -f {T}', 'touch {T}', `bash -c 'echo y >> {T}'`, 'echo $(truncate -s 0 {T})', 'git restore {T}', 'dd if=/dev/null of={T}', 'mkdir -p {T}.d', 'ln -sf README.md {T}'];
    const separators = [' ; ', ' && ', ' || ', ' | ', '\n'];
    for (let round = 0; round < 150; round++) {
      let intrudes = false;
      const parts = Array.from({ length: random.int(1, 4) }, () => {
        const intrude = random.chance(0.25);
        intrudes ||= intrude;
        const target = intrude ? random.pick(['src/theirs/x.ts', `src/theirs/n${round}.ts`, 'src/mine/dirlink/x.ts']) : `src/mine/r${round}-${random.int(0, 9)}.ts`;
        return random.pick(forms).replaceAll('{T}', target);
      });
      let command = parts.reduce((joined, part) => `${joined}${random.pick(separators)}${part}`);
      const wrap = random.int(0, 3);
      if (wrap === 1) command = `( ${command} )`;
      if (wrap === 2) command = `for i in 1 2; do ${command.replace(/\n/g, ' ; ')} ; done`;
      if (wrap === 3) command = `sh -c "${command.replace(/"/g, '\\"')}"`;
      const verdict = await operator.call('fleet_hook_check_command', { command, cwd: repo, hook: 'test', callsign: 'ATLAS', fromRuntime: true });
      assert.equal(verdict.allowed, !intrudes, `seed ${seed} round ${round}: ${command}\n${JSON.stringify(verdict.refused)}`);
    }
  });

  test('a huge, pathological command is parsed off the plane\'s loop: another client is answered within 50 ms meanwhile, and nothing acknowledged is lost', async () => {
    const probe = await plane.connect('test-probe');
    try {
      // Which claims, whose, on what (their expiry moves with every heartbeat).
      const held = async () => JSON.stringify((await operator.call('fleet_claims', {})).claims.map((c) => [c.id, c.pattern, c.holder, c.mode, c.fence]));
      const claimsBefore = await held();
      const huge = `${'`echo '.repeat(40_000)} > src/theirs/x.ts`;
      let done = false;
      const check = operator.call('fleet_hook_check_command', { command: huge, cwd: repo, hook: 'test', callsign: 'ATLAS', fromRuntime: true }).finally(() => (done = true));
      const latencies: number[] = [];
      while (!done) {
        const started = performance.now();
        await probe.call('fleet_control_get', {});
        latencies.push(performance.now() - started);
      }
      const verdict = await check;
      // Parsed within the time limit or read as tokens past it (machine speed decides), it is refused either way.
      assert.equal(verdict.allowed, false, 'the command still names BOLT\'s file');
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
      console.log(`probe: ${latencies.length} calls during the check, p99 ${p99.toFixed(1)} ms, worst ${latencies.at(-1)!.toFixed(1)} ms`);
      // The parse runs in another thread; the worst single call also carries the machine's own scheduling
      // hiccups (a CPU burner in another process alone gives ~50 ms here, at load 16 on 2 cores), so p99 is the bar.
      assert.ok(p99 < 50, `the plane was slow to answer: p99 ${p99.toFixed(1)} ms`);
      assert.equal(await held(), claimsBefore);
    } finally {
      probe.close();
    }
  });

  test('FLEET_OVERRIDE in the hook\'s environment lets a refused path through and is recorded; identity refusals stay', async () => {
    const override = { FLEET_OVERRIDE: 'operator says so' };
    assert.equal(await bash('echo x > src/theirs/over.ts', repo, override), undefined);
    assert.equal((await bash('fleet resume', repo, override))?.hookSpecificOutput.permissionDecision, 'deny');
    const used = (await eventsOf(home)).filter((e) => e.type === 'override.used' && e.path === 'src/theirs/over.ts');
    assert.deepEqual(used.map((e) => e.type === 'override.used' && [e.by, e.reason, e.hook]), [['ATLAS', 'operator says so', 'claude-pre-tool-use']]);
  });
});
