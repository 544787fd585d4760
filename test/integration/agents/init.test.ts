import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeRepo } from '../../support/git-repo.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';
import { shutdownPlane } from './support.js';

describe('fleet init: per-runtime set-up, idempotent, and --remove undoes it', () => {
  const home = tempHome();
  const userHome = tempHome('fleet-user-home-');
  const codexConfig = join(userHome, '.codex', 'config.toml');
  const baseEnv: NodeJS.ProcessEnv = { ...process.env };
  delete baseEnv.CODEX_HOME;
  const init = (repo: string, ...args: string[]) => runCli(['init', ...args], { home, cwd: repo, env: { ...baseEnv, HOME: userHome } });
  const codexHooks = join(userHome, '.codex', 'hooks.json');
  const files = (repo: string) => ['.mcp.json', 'AGENTS.md', 'CLAUDE.md', '.claude/settings.local.json', '.git/hooks/pre-commit'].map((f) => join(repo, f)).concat(codexConfig, codexHooks);
  /** What a teammate's clone gets: the files init writes that are meant to be committed. */
  const committed = (repo: string) => ['.mcp.json', 'AGENTS.md', 'CLAUDE.md'].map((f) => readFileSync(join(repo, f), 'utf8')).join('\n');
  const snapshot = (repo: string) => Object.fromEntries(files(repo).map((path) => [path, existsSync(path) ? readFileSync(path, 'utf8') : null]));

  after(async () => {
    await shutdownPlane(home);
    removeHome(home);
    removeHome(userHome);
  });

  test('in a fresh repository: writes the MCP entries and the instructions; a second run leaves the same files', async () => {
    const repo = makeRepo();
    try {
      const first = await init(repo);
      assert.equal(first.code, 0, first.stderr);
      const once = snapshot(repo);
      const second = await init(repo);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /unchanged/);
      assert.doesNotMatch(second.stdout, /created|updated/);
      assert.deepEqual(snapshot(repo), once);

      const launcher = join(home, 'bin', 'fleet');
      accessSync(launcher, constants.X_OK);
      const mcp = JSON.parse(once[join(repo, '.mcp.json')]!) as { mcpServers: { fleet: { command: string; args: string[]; env?: Record<string, string> } } };
      assert.deepEqual(mcp.mcpServers.fleet, { command: 'fleet', args: ['mcp'] }, 'the launcher by name: no path of this machine');
      for (const specific of [home, userHome, realpathSync(home)]) assert.ok(!committed(repo).includes(specific), `nothing committed names ${specific}`);
      // This user's specifics go to the files that stay on this machine: FLEET_HOME (not the default) and the hooks.
      const local = JSON.parse(once[join(repo, '.claude', 'settings.local.json')]!) as { env: Record<string, string>; hooks: Record<string, unknown> };
      assert.deepEqual(local.env, { FLEET_HOME: home });
      assert.deepEqual(Object.keys(local.hooks), ['PreToolUse', 'PostToolUse', 'SessionStart', 'SessionEnd', 'Notification']);
      assert.deepEqual(Object.keys((JSON.parse(once[codexHooks]!) as { hooks: Record<string, unknown> }).hooks), ['PreToolUse', 'PostToolUse', 'SessionStart', 'PermissionRequest']);
      assert.match(once[join(repo, '.git', 'hooks', 'pre-commit')]!, /hook git-pre-commit/);
      assert.match(first.stdout, /is not what PATH finds: add .*bin to PATH/);
      const toml = once[codexConfig]!;
      assert.match(toml, /^\[mcp_servers\.fleet\]$/m);
      assert.match(toml, new RegExp(`^command = ${JSON.stringify(launcher).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
      assert.match(toml, /^args = \["mcp"\]$/m);
      for (const file of ['AGENTS.md', 'CLAUDE.md']) {
        const text = once[join(repo, file)]!;
        for (const duty of [/Join on start/, /Pull work/, /Claim before writing/, /Poll the control state/, /Heartbeat/, /Hand off before your context runs out/]) assert.match(text, duty, `${file} says ${duty}`);
        assert.match(text, /^<!-- fleet-coordination:begin/);
      }

      // The entry Claude Code would start really is the bridge.
      const client = new Client({ name: 'init-test', version: '1.0.0' });
      // As Claude Code starts it: `fleet` from a PATH holding the launcher, FLEET_HOME from the local settings' env.
      const path = `${join(home, 'bin')}${delimiter}${process.env.PATH ?? ''}`;
      await client.connect(new StdioClientTransport({ command: mcp.mcpServers.fleet.command, args: mcp.mcpServers.fleet.args, env: { ...(process.env as Record<string, string>), ...local.env, PATH: path, FLEET_PORT: '0' }, cwd: repo, stderr: 'ignore' }));
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'fleet_agent_join'));
      await client.close();

      const removed = await init(repo, '--remove');
      assert.equal(removed.code, 0, removed.stderr);
      for (const path of files(repo)) assert.ok(!existsSync(path), `${path} is gone again`);
    } finally {
      removeHome(repo);
    }
  });

  test('existing content outside its blocks is untouched, and --remove restores every file byte for byte', async () => {
    const repo = makeRepo();
    try {
      const agents = '# Agents\n\nRun `npm test` before committing.\n';
      const claude = '# Notes for Claude\n\n- prefer small commits\n';
      const mcp = `${JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', args: [] } }, other: true }, null, 2)}\n`;
      const codex = 'model = "o4-mini"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
      writeFileSync(join(repo, 'AGENTS.md'), agents);
      writeFileSync(join(repo, 'CLAUDE.md'), claude);
      writeFileSync(join(repo, '.mcp.json'), mcp);
      mkdirSync(join(userHome, '.codex'), { recursive: true });
      writeFileSync(codexConfig, codex);
      const original = snapshot(repo);

      assert.equal((await init(repo)).code, 0);
      const once = snapshot(repo);
      assert.equal((await init(repo)).code, 0);
      assert.deepEqual(snapshot(repo), once, 'the second run changes nothing');

      assert.ok(once[join(repo, 'AGENTS.md')]!.startsWith(agents));
      assert.ok(once[join(repo, 'CLAUDE.md')]!.startsWith(claude));
      assert.ok(once[codexConfig]!.startsWith(codex));
      const merged = JSON.parse(once[join(repo, '.mcp.json')]!) as { mcpServers: Record<string, unknown>; other: boolean };
      assert.deepEqual(Object.keys(merged.mcpServers), ['github', 'fleet']);
      assert.equal(merged.other, true);

      assert.equal((await init(repo, '--remove')).code, 0);
      assert.deepEqual(snapshot(repo), original);
      assert.equal((await init(repo, '--remove')).code, 0, 'removing twice is fine');
      assert.deepEqual(snapshot(repo), original);
    } finally {
      removeHome(repo);
    }
  });

  test('the hooks init wrote run as the runtimes run them: Claude Code SessionStart binds the session, then its PreToolUse and Codex\'s judge writes', async () => {
    const repo = makeRepo({ 'src/a.ts': 'export {};\n' });
    try {
      assert.equal((await init(repo, '--no-instructions')).code, 0);
      type Groups = Record<string, { hooks: { command: string }[] }[]>;
      const claudeHooks = (JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: Groups }).hooks;
      const codexHooksFile = (JSON.parse(readFileSync(codexHooks, 'utf8')) as { hooks: Groups }).hooks;
      const run = (groups: Groups, event: string, payload: Record<string, unknown>, extra: Record<string, string> = {}) => {
        const env: NodeJS.ProcessEnv = { ...baseEnv, HOME: userHome, FLEET_PORT: '0' };
        delete env.FLEET_AS;
        Object.assign(env, extra);
        const result = spawnSync('sh', ['-c', groups[event]![0]!.hooks[0]!.command], { cwd: repo, env, input: JSON.stringify({ hook_event_name: event, cwd: repo, ...payload }), encoding: 'utf8' });
        assert.equal(result.status, 0, result.stderr);
        return result.stdout;
      };
      const started = run(claudeHooks, 'SessionStart', { session_id: 'sess-1', transcript_path: '/dev/null', source: 'startup' }, { FLEET_AS: 'ATLAS' });
      assert.match(started, /You are ATLAS in the fleet/);
      // No FLEET_AS from here on: the session's id names ATLAS, who holds nothing yet.
      const write = run(claudeHooks, 'PreToolUse', { session_id: 'sess-1', tool_name: 'Write', tool_input: { file_path: join(repo, 'src/a.ts'), content: 'x' }, tool_use_id: 'toolu_1' });
      assert.match(write, /"permissionDecision":"deny"/);
      assert.match(write, /ATLAS may not write this file/);
      assert.equal((await runCli(['claim', '--as', 'ATLAS', 'src/b.ts'], { home, cwd: repo, env: { ...baseEnv, HOME: userHome } })).code, 0);
      const patch = run(codexHooksFile, 'PreToolUse', { session_id: 'thread-1', turn_id: 't', transcript_path: null, model: 'gpt-5-codex', permission_mode: 'default', tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: src/b.ts\n+b\n*** End Patch' }, tool_use_id: 'call-1' });
      assert.match(patch, /"permissionDecision":"deny"/, 'a Codex session that never joined writes as a person: not into ATLAS\'s claim');
      assert.match(patch, /has not joined the fleet[\s\S]*src\/b\.ts: held exclusively by ATLAS/);
      assert.equal((await init(repo, '--remove', '--no-instructions')).code, 0);
      assert.ok(!existsSync(join(repo, '.claude')), 'the hooks and the env init wrote are gone, with the folder it created');
    } finally {
      removeHome(repo);
    }
  });

  test('--no-hooks: the local settings file written only for FLEET_HOME goes with --remove', async () => {
    const repo = makeRepo();
    try {
      assert.equal((await init(repo, '--no-hooks', '--no-instructions', '--no-codex')).code, 0);
      assert.deepEqual(JSON.parse(readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8')), { env: { FLEET_HOME: home } });
      assert.equal((await init(repo, '--remove', '--no-hooks', '--no-instructions', '--no-codex')).code, 0);
      assert.ok(!existsSync(join(repo, '.claude')));
      assert.ok(!existsSync(join(repo, '.mcp.json')));
    } finally {
      removeHome(repo);
    }
  });

  test('a hand-written [mcp_servers.fleet] in the Codex config is left as it is', async () => {
    const repo = makeRepo();
    try {
      const codex = '[mcp_servers.fleet]\ncommand = "/opt/fleet"\nargs = ["mcp"]\n';
      mkdirSync(join(userHome, '.codex'), { recursive: true });
      writeFileSync(codexConfig, codex);
      const run = await init(repo, '--no-instructions', '--no-claude');
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /left as it is/);
      assert.equal(readFileSync(codexConfig, 'utf8'), codex);
    } finally {
      removeHome(repo);
    }
  });

  test('outside a git repository it says what to do and exits 2', async () => {
    const notRepo = tempHome('fleet-not-a-repo-');
    try {
      const run = await init(notRepo);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /not inside a git repository/);
    } finally {
      removeHome(notRepo);
    }
  });
});
