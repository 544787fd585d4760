// The write gate as agents pay it (DESIGN §7, §11): the installed Claude Code PreToolUse hook runs
// before every edit of every agent. Timed as Claude Code runs it (the command from
// .claude/settings.local.json through `sh -c`, the event on stdin), interleaved with a bare `node -e 0`,
// against a running plane holding some claims. The hook is installed by the bundled CLI, as the
// VS Code extension ships it: the bash front (FLEET_HOME/bin/fleet-hook-front → the plane's POST
// /hooks/VERB), and beside it the lean runner it hands anything unusual to (bin/fleet-hook →
// dist/fleet-hook.cjs).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeSettingsPath } from '../../server/hooks/claude-settings.js';
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

export async function hook(options: Options, report: Report): Promise<void> {
  const n = options.quick ? 10 : 50;
  execFileSync(process.execPath, [join(ROOT, 'tools', 'bundle.mjs')], { cwd: ROOT, stdio: 'ignore' });
  const fleet = await claimedPlane('hook', OTHER_AGENTS);
  const { plane, repo } = fleet;
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist', 'fleet.cjs'), 'install-hooks', '--home', plane.home, '--root', repo], { env: { ...process.env, FLEET_HOME: plane.home }, stdio: 'ignore' });
    const settings = JSON.parse(readFileSync(claudeSettingsPath(repo, 'local'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    const installed = settings.hooks.PreToolUse.flatMap((entry) => entry.hooks).find((h) => h.command.includes('claude-pre-tool-use'))!.command;


    const event = (tool: string, input: Record<string, unknown>) => JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: repo, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'toolu_bench' });
    const write = event('Write', { file_path: join(repo, 'src', 'a.ts'), content: 'export const a = 2;\n' });
    const bash = event('Bash', { command: 'ls src' });
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const cases = {
      bare: { command: `${quote(process.execPath)} -e 0`, input: '' },
      write: { command: installed, input: write },
      writeRunner: { command: `${quote(join(plane.home, 'bin', 'fleet-hook'))} claude-pre-tool-use --home ${quote(plane.home)}`, input: write },
      writeCompiled: { command: `${quote(process.execPath)} ${quote(join(ROOT, 'out', 'server', 'hooks', 'lean', 'fleet-hook.js'))} claude-pre-tool-use --home ${quote(plane.home)}`, input: write },
      bash: { command: installed, input: bash },
      fullVerb: { command: `${quote(join(plane.home, 'bin', 'fleet'))} hook claude-pre-tool-use --home ${quote(plane.home)}`, input: write },
    };
    const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as number[]])) as Record<keyof typeof cases, number[]>;
    // WRITER's session, as an agent started with FLEET_AS: a session that never joined writes as a person, refused WRITER's file.
    const env = { ...process.env, FLEET_AS: 'WRITER' };
    for (let i = 0; i < n; i++) {
      for (const [name, { command, input }] of Object.entries(cases)) samples[name as keyof typeof cases].push(timeHook(command, input, '', repo, env));
    }
    const [bare, writeRun, runner, compiled, bashRun, full] = [samples.bare, samples.write, samples.writeRunner, samples.writeCompiled, samples.bash, samples.fullVerb].map(summarize) as [ReturnType<typeof summarize>, ...ReturnType<typeof summarize>[]];
    const value = (s: ReturnType<typeof summarize>) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`;
    report.set('hook', { runs: n, otherAgents: OTHER_AGENTS, samplesMs: samples });
    report.add({ section: 'hook', figure: `node -e 0 (${n} runs, interleaved)`, value: value(bare) });
    report.target({ section: 'hook', figure: 'installed PreToolUse hook (the bash front, answered by the plane), Write allowed (own claim)', value: value(writeRun!), reference: `node -e 0 p50 ${ms(bare.p50)}`, ratio: times(writeRun!.p50 / bare.p50) }, writeRun!.p50 / bare.p50, TARGET_RATIO, `p50 ≤ ${TARGET_RATIO}× node -e 0`);
    report.add({ section: 'hook', figure: 'same, the lean runner alone (bin/fleet-hook, bundled: what the front hands over to)', value: value(runner!), ratio: times(runner!.p50 / bare.p50) });
    report.add({ section: 'hook', figure: 'same, the lean runner compiled (out/, as a checkout installs it)', value: value(compiled!), ratio: times(compiled!.p50 / bare.p50) });
    report.add({ section: 'hook', figure: 'installed PreToolUse hook, Bash allowed (the plane parses the command)', value: value(bashRun!), ratio: times(bashRun!.p50 / bare.p50) });
    report.add({ section: 'hook', figure: 'the full verb, Write allowed (the command installed before)', value: value(full!), ratio: times(full!.p50 / bare.p50) });
  } finally {
    await fleet.close();
  }
}
