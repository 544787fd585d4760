// The write gate as agents pay it (DESIGN §7, §11): the installed Claude Code PreToolUse hook runs
// before every edit of every agent. Timed as Claude Code runs it (the command from
// .claude/settings.local.json through `sh -c`, the event on stdin), interleaved with a bare `node -e 0`,
// against a running plane holding some claims. The hook is installed by the bundled CLI, as the
// VS Code extension ships it (FLEET_HOME/bin/fleet-hook → dist/fleet-hook.cjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { claudeSettingsPath } from '../../server/hooks/claude-settings.js';
import { makeRepo } from '../../test/support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome } from '../../test/support/plane-process.js';
import { track } from '../lib/children.js';
import { ms, times, type Report } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OTHER_AGENTS = 20;
const TARGET_RATIO = 1.25;

interface Options {
  quick: boolean;
}

/** Milliseconds from spawn to exit of `sh -c command` fed `input`; its stdout must be `expected`. */
function timeRun(command: string, input: string, expected: string, cwd: string): number {
  const start = process.hrtime.bigint();
  const run = spawnSync('sh', ['-c', command], { input, cwd, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0 || run.stdout !== expected) throw new Error(`${command} answered ${run.status}: ${run.stdout}${run.stderr}`);
  return elapsed;
}

export async function hook(options: Options, report: Report): Promise<void> {
  const n = options.quick ? 10 : 50;
  execFileSync(process.execPath, [join(ROOT, 'tools', 'bundle.mjs')], { cwd: ROOT, stdio: 'ignore' });
  // Agents that outlive the run without heartbeats: the claims stay live however long it takes.
  const plane = await startPlaneProcess({ home: tempHome('fleet-bench-hook-'), env: { FLEET_AGENT_TTL: '3600' } });
  track(plane.child);
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# repo\n' });
  const elsewhere = tempHome('fleet-bench-hook-others-');
  const clients: PlaneClient[] = [];
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist', 'fleet.cjs'), 'install-hooks', '--home', plane.home, '--root', repo], { env: { ...process.env, FLEET_HOME: plane.home }, stdio: 'ignore' });
    const settings = JSON.parse(readFileSync(claudeSettingsPath(repo, 'local'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    const installed = settings.hooks.PreToolUse.flatMap((entry) => entry.hooks).find((h) => h.command.includes('claude-pre-tool-use'))!.command;

    const writer = await plane.connect('bench-hook-writer');
    clients.push(writer);
    await writer.call('fleet_agent_join', { callsign: 'WRITER', runtime: 'claude-code', worktree: repo });
    await writer.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
    for (let i = 0; i < OTHER_AGENTS; i++) {
      const other = await plane.connect(`bench-hook-other-${i}`);
      clients.push(other);
      await other.call('fleet_agent_join', { callsign: `OTHER-${i}`, runtime: 'codex', worktree: join(elsewhere, `wt-${i}`) });
      await other.call('fleet_claim_path', { patterns: [`lib/area-${i}/**`, `docs/part-${i}.md`], root: repo });
    }

    const event = (tool: string, input: Record<string, unknown>) => JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'toolu_bench' });
    const write = event('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'export const a = 2;\n' });
    const bash = event('Bash', { command: 'ls src' });
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const cases = {
      bare: { command: `${quote(process.execPath)} -e 0`, input: '' },
      write: { command: installed, input: write },
      writeCompiled: { command: `${quote(process.execPath)} ${quote(join(ROOT, 'out', 'server', 'hooks', 'lean', 'fleet-hook.js'))} claude-pre-tool-use --home ${quote(plane.home)}`, input: write },
      bash: { command: installed, input: bash },
      fullVerb: { command: `${quote(join(plane.home, 'bin', 'fleet'))} hook claude-pre-tool-use --home ${quote(plane.home)}`, input: write },
    };
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as number[]])) as Record<keyof typeof cases, number[]>;
    for (let i = 0; i < n; i++) {
      for (const [name, { command, input }] of Object.entries(cases)) samples[name as keyof typeof cases].push(timeRun(command, input, '', repo));
    }
    const [bare, writeRun, compiled, bashRun, full] = [samples.bare, samples.write, samples.writeCompiled, samples.bash, samples.fullVerb].map(summarize) as [ReturnType<typeof summarize>, ...ReturnType<typeof summarize>[]];
    const value = (s: ReturnType<typeof summarize>) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`;
    report.set('hook', { runs: n, otherAgents: OTHER_AGENTS, samplesMs: samples });
    report.add({ section: 'hook', figure: `node -e 0 (${n} runs, interleaved)`, value: value(bare) });
    report.target({ section: 'hook', figure: 'installed PreToolUse hook, Write allowed (own claim), bundled runner', value: value(writeRun!), reference: `node -e 0 p50 ${ms(bare.p50)}`, ratio: times(writeRun!.p50 / bare.p50) }, writeRun!.p50 / bare.p50, TARGET_RATIO, `p50 ≤ ${TARGET_RATIO}× node -e 0`);
    report.add({ section: 'hook', figure: 'same, compiled runner (out/, as a checkout installs it)', value: value(compiled!), ratio: times(compiled!.p50 / bare.p50) });
    report.add({ section: 'hook', figure: 'installed PreToolUse hook, Bash allowed (the plane parses the command)', value: value(bashRun!), ratio: times(bashRun!.p50 / bare.p50) });
    report.add({ section: 'hook', figure: 'the full verb, Write allowed (the command installed before)', value: value(full!), ratio: times(full!.p50 / bare.p50) });
  } finally {
    for (const client of clients) client.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(elsewhere);
  }
}
