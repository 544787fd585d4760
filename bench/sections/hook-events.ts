// Every installed hook event as agents pay it (issue 22 item 5, DESIGN §11, §15): what Claude Code and
// Codex run around each tool call (PreToolUse, then PostToolUse on the shell and MCP tools), at each
// session's start and end, and git's pre-commit hook. Each is run as the runtime runs it: the command
// install-hooks wrote (`sh -c`, the event on stdin, realistic payloads), against a running plane with
// claims, interleaved with a bare `node -e 0` in the same run, so the figures are ratios to what a
// `node -e 0` hook at the same matchers would add. The commands installed before (bin/fleet hook VERB,
// the full CLI) are timed beside them.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeSettingsPath } from '../../server/hooks/claude-settings.js';
import { removeHome, tempHome } from '../../test/support/plane-process.js';
import { claimedPlane } from '../lib/claimed-plane.js';
import { ms, times, type Report } from '../lib/report.js';
import { summarize } from '../lib/stats.js';
import { timeHook } from '../lib/time-hook.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OTHER_AGENTS = 20;
const TARGET_RATIO = 1.25;

interface Options {
  quick: boolean;
}

interface HookCase {
  command: string;
  /** The event on stdin; a function for those that need a fresh tool_use_id per run. */
  input: (run: number) => string;
  /** What the hook must answer: its stdout, or a test of it. */
  expect: string | RegExp;
}

type HookFile = { hooks: Record<string, { hooks: { command: string }[] }[]> };

export async function hookEvents(options: Options, report: Report): Promise<void> {
  const n = options.quick ? 8 : 20;
  execFileSync(process.execPath, [join(ROOT, 'tools', 'bundle.mjs')], { cwd: ROOT, stdio: 'ignore' });
  const fleet = await claimedPlane('hooks', OTHER_AGENTS);
  const { plane, repo } = fleet;
  const codexHome = tempHome('fleet-bench-codex-');
  // Agents started with FLEET_AS (docs/runtimes.md); the session hooks' own agent is SESSIONER.
  const env = { ...process.env, FLEET_HOME: plane.home, CODEX_HOME: codexHome, FLEET_AS: 'WRITER', FLEET_OVERRIDE: '' };
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist', 'fleet.cjs'), 'install-hooks', '--home', plane.home, '--root', repo], { env, stdio: 'ignore' });
    const installed = (file: string, event: string, verb: string) => (JSON.parse(readFileSync(file, 'utf8')) as HookFile).hooks[event]!.flatMap((group) => group.hooks).find((hook) => hook.command.includes(` ${verb} --home `))!.command;
    const claude = (event: string, verb: string) => installed(claudeSettingsPath(repo, 'local'), event, verb);
    const codex = (event: string, verb: string) => installed(join(codexHome, 'hooks.json'), event, verb);
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const before = (verb: string, root?: string) => `${quote(join(plane.home, 'bin', 'fleet'))} hook ${verb} --home ${quote(plane.home)}${root ? ` --root ${quote(root)}` : ''}`;

    // The pre-commit hook checks what is staged: one file of WRITER's.
    writeFileSync(join(repo, 'src', 'a.ts'), 'export const a = 2;\n');
    execFileSync('git', ['add', 'src/a.ts'], { cwd: repo });

    // Payloads as the runtimes send them (DESIGN §15); the session hooks act for SESSIONER (FLEET_AS) in sessions of their own, so neither SessionEnd's escrow nor a session binding touches WRITER's calls.
    const claudeEvent = (event: string, fields: object) => JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: event, ...fields });
    const codexEvent = (event: string, fields: object) => JSON.stringify({ session_id: 'bench-thread', turn_id: 'turn-1', transcript_path: null, cwd: repo, hook_event_name: event, model: 'gpt-5-codex', permission_mode: 'default', ...fields });
    const bash = { tool_name: 'Bash', tool_input: { command: 'ls src && cat README.md' } };
    const write = { tool_name: 'Write', tool_input: { file_path: join(repo, 'src', 'a.ts'), content: 'export const a = 3;\n' } };
    const patch = { tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-export const a = 2;\n+export const a = 3;\n*** End Patch' } };
    const sessioner = `FLEET_AS=SESSIONER `;
    const cases: Record<string, HookCase> = {
      bare: { command: `${quote(process.execPath)} -e 0`, input: () => '', expect: '' },
      claudePreBash: { command: claude('PreToolUse', 'claude-pre-tool-use'), input: (i) => claudeEvent('PreToolUse', { ...bash, tool_use_id: `toolu_${i}` }), expect: '' },
      claudePostBash: { command: claude('PostToolUse', 'claude-post-tool-use'), input: (i) => claudeEvent('PostToolUse', { ...bash, tool_use_id: `toolu_${i}`, tool_response: { stdout: 'a.ts\n', stderr: '' } }), expect: '' },
      claudePreWrite: { command: claude('PreToolUse', 'claude-pre-tool-use'), input: (i) => claudeEvent('PreToolUse', { ...write, tool_use_id: `toolu_w${i}` }), expect: '' },
      codexPreBash: { command: codex('PreToolUse', 'codex-pre-tool-use'), input: (i) => codexEvent('PreToolUse', { ...bash, tool_use_id: `call_${i}` }), expect: '' },
      codexPostBash: { command: codex('PostToolUse', 'codex-post-tool-use'), input: (i) => codexEvent('PostToolUse', { ...bash, tool_use_id: `call_${i}`, tool_response: 'a.ts\n' }), expect: '' },
      codexPrePatch: { command: codex('PreToolUse', 'codex-pre-tool-use'), input: (i) => codexEvent('PreToolUse', { ...patch, tool_use_id: `call_p${i}` }), expect: '' },
      claudeSessionStart: { command: sessioner + claude('SessionStart', 'claude-session-start'), input: () => claudeEvent('SessionStart', { session_id: 'bench-session', source: 'startup' }), expect: /You are SESSIONER in the fleet/ },
      claudeSessionEnd: { command: sessioner + claude('SessionEnd', 'claude-session-end'), input: () => claudeEvent('SessionEnd', { session_id: 'bench-session', reason: 'exit' }), expect: '' },
      codexSessionStart: { command: sessioner + codex('SessionStart', 'codex-session-start'), input: () => codexEvent('SessionStart', { session_id: 'bench-codex-session', source: 'startup' }), expect: /You are SESSIONER in the fleet/ },
      gitPreCommit: { command: `${quote(join(repo, '.git', 'hooks', 'pre-commit'))}`, input: () => '', expect: '' },
      // The commands installed before: every event but Claude's PreToolUse ran the full CLI.
      beforeClaudePostBash: { command: before('claude-post-tool-use'), input: (i) => claudeEvent('PostToolUse', { ...bash, tool_use_id: `toolu_b${i}`, tool_response: { stdout: '', stderr: '' } }), expect: '' },
      beforeCodexPreBash: { command: before('codex-pre-tool-use', repo), input: (i) => codexEvent('PreToolUse', { ...bash, tool_use_id: `call_b${i}` }), expect: '' },
      beforeCodexPrePatch: { command: before('codex-pre-tool-use', repo), input: (i) => codexEvent('PreToolUse', { ...patch, tool_use_id: `call_bp${i}` }), expect: '' },
    };
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as number[]]));
    for (let i = 0; i < n; i++) {
      // In the order a session runs them: PostToolUse right after its PreToolUse (it takes the mark PreToolUse left).
      for (const [name, each] of Object.entries(cases)) samples[name]!.push(timeHook(each.command, each.input(i), each.expect, repo, env));
    }
    const p50 = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values).p50])) as Record<keyof typeof cases, number>;
    report.set('hookEvents', { runs: n, otherAgents: OTHER_AGENTS, samplesMs: samples });
    const bare = p50.bare;
    report.add({ section: 'hook-events', figure: `node -e 0 (${n} runs, interleaved)`, value: `p50 ${ms(bare)}` });
    // Per tool call: the hooks at its matchers against as many `node -e 0` hooks.
    const perCall = [
      { figure: 'Claude Code Bash: PreToolUse + PostToolUse', hooks: [p50.claudePreBash, p50.claudePostBash] },
      { figure: 'Claude Code Write: PreToolUse', hooks: [p50.claudePreWrite] },
      { figure: 'Codex Bash: PreToolUse + PostToolUse', hooks: [p50.codexPreBash, p50.codexPostBash] },
      { figure: 'Codex apply_patch: PreToolUse', hooks: [p50.codexPrePatch] },
    ];
    for (const { figure, hooks } of perCall) {
      const total = hooks.reduce((sum, value) => sum + value, 0);
      const reference = bare * hooks.length;
      report.target({ section: 'hook-events', figure: `${figure}, allowed (p50 sum)`, value: ms(total), reference: `${hooks.length}× node -e 0: ${ms(reference)}`, ratio: times(total / reference) }, total / reference, TARGET_RATIO, `≤ ${TARGET_RATIO}× node -e 0 hooks`);
    }
    const alone = (figure: string, value: number) => report.add({ section: 'hook-events', figure, value: `p50 ${ms(value)}`, ratio: times(value / bare) });
    alone('Claude Code PostToolUse after Bash (watcher changes, nothing changed)', p50.claudePostBash);
    alone('Codex PostToolUse after Bash', p50.codexPostBash);
    alone('Claude Code SessionStart (join, bind, resume)', p50.claudeSessionStart);
    alone('Claude Code SessionEnd (escrow, unbind)', p50.claudeSessionEnd);
    alone('Codex SessionStart', p50.codexSessionStart);
    alone('git pre-commit hook (one staged file, allowed)', p50.gitPreCommit);
    alone('before: Claude Code PostToolUse as `bin/fleet hook` (the full CLI; no mark to compare, so a lower bound)', p50.beforeClaudePostBash);
    alone('before: Codex PreToolUse, Bash, as `bin/fleet hook`', p50.beforeCodexPreBash);
    alone('before: Codex PreToolUse, apply_patch, as `bin/fleet hook`', p50.beforeCodexPrePatch);
  } finally {
    await fleet.close();
    removeHome(codexHome);
  }
}
