// `fleet init` keeps what it did not write (issue 22 item 4, DESIGN §16): Codex's hook trust, which
// `/hooks` appends inside our config.toml block, and whatever a user or a runtime added in or beside
// the entries init owns in every file it touches; and it says whether Codex trusts the fleet's hooks.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { shutdownPlane } from './support.js';

const END = '# <<< fleet-coordination <<<';
type Hook = { type: string; command: string; timeout?: number; statusMessage?: string };
type HooksFile = { hooks: Record<string, { matcher?: string; hooks: Hook[] }[]> };

/**
 * The trust Codex's /hooks records for a hook at a position, built by hand as Codex builds it
 * (openai/codex codex-rs/hooks/src/engine/discovery.rs `hook_hash`, codex-rs/config/src/fingerprint.rs
 * `version_for_toml`): sha256 of the key-sorted compact JSON of {event_name, hooks: [hook, timeout and
 * async filled in], matcher}.
 */
function trustTable(hooksFile: string, label: string, group: number, matcher: string | undefined, hook: Hook): string {
  const identity = `{"event_name":"${label}","hooks":[{"async":false,"command":${JSON.stringify(hook.command)},${hook.statusMessage === undefined ? '' : `"statusMessage":${JSON.stringify(hook.statusMessage)},`}"timeout":${hook.timeout ?? 600},"type":"command"}]${matcher === undefined ? '' : `,"matcher":${JSON.stringify(matcher)}`}}`;
  const hash = `sha256:${createHash('sha256').update(identity).digest('hex')}`;
  return `[hooks.state.${JSON.stringify(`${hooksFile}:${label}:${group}:0`)}]\ntrusted_hash = "${hash}"\n`;
}

/** What /hooks writes after trusting every fleet hook in hooks.json (each alone in its group, as init writes them). */
function trustAll(codexHome: string): string {
  const hooksFile = join(realpathSync(codexHome), 'hooks.json');
  const file = JSON.parse(readFileSync(hooksFile, 'utf8')) as HooksFile;
  const labels: Record<string, string> = { PreToolUse: 'pre_tool_use', PostToolUse: 'post_tool_use', SessionStart: 'session_start', PermissionRequest: 'permission_request' };
  return Object.entries(labels)
    .map(([event, label]) => {
      const group = file.hooks[event]!.findIndex((g) => / codex-(pre-tool-use|post-tool-use|session-start|permission-request) --home /.test(g.hooks[0]!.command));
      return trustTable(hooksFile, label, group, file.hooks[event]![group]!.matcher, file.hooks[event]![group]!.hooks[0]!);
    })
    .join('\n');
}

/** Where Codex's toml_edit puts new tables when our block ends the file: before the trailing comments, our end marker. */
function codexAppendsInsideOurBlock(config: string, tables: string): string {
  const at = config.lastIndexOf(END);
  return `${config.slice(0, at)}\n${tables}${config.slice(at)}`;
}

describe('fleet init keeps what it did not write, and says whether Codex trusts its hooks', () => {
  const home = tempHome();
  const codexHomes: string[] = [];
  /** Each test with a Codex home of its own. */
  const codexSetUp = () => {
    const codexHome = tempHome('fleet-codex-home-');
    codexHomes.push(codexHome);
    const env = { CODEX_HOME: codexHome };
    return { codexHome, env, fleet: (repo: string, ...args: string[]) => runCli(args, { home, cwd: repo, env }) };
  };
  after(async () => {
    await shutdownPlane(home);
    removeHome(home);
    codexHomes.forEach(removeHome);
  });

  test('Codex trust written inside our config.toml block survives init and --remove byte for byte, as does what is around it', async () => {
    const repo = makeRepo();
    const { codexHome, fleet } = codexSetUp();
    const config = join(codexHome, 'config.toml');
    try {
      const userTop = 'model = "o4-mini"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(config, userTop);
      assert.equal((await fleet(repo, 'init', '--no-claude', '--no-instructions')).code, 0);
      // The user trusts the hooks in Codex's /hooks: Codex appends the tables inside our block; the user adds a setting to the fleet server, and a table after the block.
      const trust = trustAll(codexHome);
      const userBottom = '\n[profiles.fast]\nmodel = "gpt-5-codex"\n';
      writeFileSync(config, codexAppendsInsideOurBlock(readFileSync(config, 'utf8').replace(/^env = .*$/m, '$&\nstartup_timeout_sec = 20'), trust) + userBottom);

      const again = await fleet(repo, 'init', '--no-claude', '--no-instructions');
      assert.equal(again.code, 0, again.stderr);
      const rewritten = readFileSync(config, 'utf8');
      assert.ok(rewritten.startsWith(userTop), 'what comes before the block is untouched');
      assert.ok(rewritten.endsWith(`${END}\n${trust}${userBottom}`), `the trust tables follow the end marker byte for byte, then what came after:\n${rewritten}`);
      assert.match(rewritten.slice(rewritten.indexOf('[mcp_servers.fleet]'), rewritten.indexOf(END)), /^startup_timeout_sec = 20$/m, 'a setting added to the fleet server stays in it');
      const third = await fleet(repo, 'init', '--no-claude', '--no-instructions');
      assert.equal(readFileSync(config, 'utf8'), rewritten, 'a third run changes nothing');
      assert.match(third.stdout, /Codex MCP server \[mcp_servers\.fleet\] unchanged/);

      const removed = await fleet(repo, 'init', '--remove', '--no-claude', '--no-instructions');
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(readFileSync(config, 'utf8'), `${userTop}\n${trust}${userBottom}`, 'only our block went: the trust and the rest stay');
    } finally {
      removeHome(repo);
    }
  });

  test('init, install-hooks and status say whether Codex trusts the hooks: not yet, trusted, or changed since trusted', async () => {
    const repo = makeRepo();
    const { codexHome, env, fleet } = codexSetUp();
    const config = join(codexHome, 'config.toml');
    const trustOf = async (run: typeof fleet) => (JSON.parse((await run(repo, 'status', '--json')).stdout) as { codexHooks: { hooks: { trust: string }[] } }).codexHooks.hooks.map((h) => h.trust);
    try {
      const first = await fleet(repo, 'init', '--no-claude', '--no-instructions');
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /^Codex hooks installed but NOT trusted yet \(PreToolUse, PostToolUse, SessionStart, PermissionRequest\): open Codex and run \/hooks to review and trust them/m);
      assert.deepEqual(await trustOf(fleet), ['untrusted', 'untrusted', 'untrusted', 'untrusted']);

      writeFileSync(config, codexAppendsInsideOurBlock(readFileSync(config, 'utf8'), trustAll(codexHome)));
      const status = await fleet(repo, 'status');
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /^codex hooks: Codex hooks trusted: Codex runs them\.$/m);
      const installed = await fleet(repo, 'install-hooks', '--no-git', '--no-claude');
      assert.match(installed.stdout, /^Codex hooks trusted: Codex runs them\.$/m);

      // Another FLEET_HOME changes every hook's command: Codex now holds a hash for each that no longer matches.
      const otherHome = tempHome();
      const asOther = (cwd: string, ...args: string[]) => runCli(args, { home: otherHome, cwd, env });
      try {
        const moved = await asOther(repo, 'init', '--no-claude', '--no-instructions');
        assert.equal(moved.code, 0, moved.stderr);
        assert.match(moved.stdout, /^re-trust needed: the hook command changed since you trusted it \(PreToolUse, PostToolUse, SessionStart, PermissionRequest\): open Codex and run \/hooks/m);
        assert.deepEqual(await trustOf(asOther), ['modified', 'modified', 'modified', 'modified']);
      } finally {
        await shutdownPlane(otherHome);
        removeHome(otherHome);
      }
    } finally {
      removeHome(repo);
    }
  });

  test('in hooks.json, .mcp.json, settings.local.json, AGENTS.md and CLAUDE.md what someone else added in or beside our entries survives init and --remove', async () => {
    const repo = makeRepo();
    const { codexHome, fleet } = codexSetUp();
    try {
      assert.equal((await fleet(repo, 'init')).code, 0);
      const hooksPath = join(codexHome, 'hooks.json');
      const codexHooks = JSON.parse(readFileSync(hooksPath, 'utf8')) as HooksFile;
      const ourPre = codexHooks.hooks.PreToolUse!.findIndex((g) => g.hooks[0]!.command.endsWith(`--root '${realpathSync(repo)}'`));
      assert.ok(ourPre >= 0);
      // Codex's user adds a status message to our hook and a hook of their own beside it.
      Object.assign(codexHooks.hooks.PreToolUse![ourPre]!.hooks[0]!, { statusMessage: 'checking the fleet' });
      codexHooks.hooks.PreToolUse![ourPre]!.hooks.push({ type: 'command', command: 'echo audit', timeout: 5 });
      writeFileSync(hooksPath, `${JSON.stringify(codexHooks, null, 2)}\n`);
      const mcpPath = join(repo, '.mcp.json');
      const mcp = JSON.parse(readFileSync(mcpPath, 'utf8')) as { mcpServers: { fleet: Record<string, unknown> } };
      mcp.mcpServers.fleet.env = { FLEET_LOG: 'debug' };
      writeFileSync(mcpPath, `${JSON.stringify(mcp, null, 2)}\n`);
      const localPath = join(repo, '.claude', 'settings.local.json');
      const local = JSON.parse(readFileSync(localPath, 'utf8')) as HooksFile;
      local.hooks.PreToolUse![0]!.hooks.push({ type: 'command', command: 'echo mine', timeout: 5 });
      Object.assign(local.hooks.SessionStart![0]!.hooks[0]!, { statusMessage: 'joining the fleet' });
      writeFileSync(localPath, `${JSON.stringify(local, null, 2)}\n`);
      const agentsPath = join(repo, 'AGENTS.md');
      const note = 'Also: never touch vendor/.';
      writeFileSync(agentsPath, readFileSync(agentsPath, 'utf8').replace('<!-- fleet-coordination:end -->', `${note}\n<!-- fleet-coordination:end -->`));

      const hooksBefore = readFileSync(hooksPath, 'utf8');
      const localBefore = readFileSync(localPath, 'utf8');
      const mcpBefore = readFileSync(mcpPath, 'utf8');
      const again = await fleet(repo, 'init');
      assert.equal(again.code, 0, again.stderr);
      assert.equal(readFileSync(hooksPath, 'utf8'), hooksBefore, 'hooks.json: our hook keeps its place and fields, the hook beside it its place: every trust key still holds');
      assert.equal(readFileSync(localPath, 'utf8'), localBefore, 'settings.local.json: the same');
      assert.equal(readFileSync(mcpPath, 'utf8'), mcpBefore, '.mcp.json: the env added to our entry stays');
      assert.ok(readFileSync(agentsPath, 'utf8').endsWith(`<!-- fleet-coordination:end -->\n${note}\n`), 'AGENTS.md: the line written inside our block now follows it');

      const removed = await fleet(repo, 'init', '--remove');
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stdout, /^1 other Codex hook\(s\) in .*hooks\.json moved up into the place of the fleet's: Codex keys trust by place, so open Codex and run \/hooks to trust them again$/m, 'the user hook beside ours now stands where ours stood');
      assert.ok(readFileSync(agentsPath, 'utf8').includes(note), 'AGENTS.md keeps the line after --remove');
      const left = JSON.parse(readFileSync(hooksPath, 'utf8')) as HooksFile;
      assert.deepEqual(left.hooks.PreToolUse!.flatMap((g) => g.hooks.map((h) => h.command)), ['echo audit']);
      assert.deepEqual((JSON.parse(readFileSync(localPath, 'utf8')) as HooksFile).hooks.PreToolUse!.flatMap((g) => g.hooks.map((h) => h.command)), ['echo mine']);
      assert.ok(!existsSync(mcpPath) || !readFileSync(mcpPath, 'utf8').includes('"fleet"'));
    } finally {
      removeHome(repo);
    }
  });
});
