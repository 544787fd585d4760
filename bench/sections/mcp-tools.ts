// The MCP tool list as agents pay for it (issue 17): every tool definition sits in every agent's
// context on every turn. Listed with the official MCP client from `fleet mcp`, counted in Claude
// tokens per definition (name, description, input schema), for both profiles. The reference is
// the same tools as the contracts state them, untrimmed (summaries and full JSON Schemas), counted
// in the same run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from '@anthropic-ai/tokenizer';
import { z } from 'zod';
import { methodList } from '../../contracts/index.js';
import { makeRepo } from '../../test/support/git-repo.js';
import { listBridgeTools, toolListTokens } from '../../test/support/mcp-tool-list.js';
import { removeHome, tempHome } from '../../test/support/plane-process.js';
import { CLI } from '../../test/support/plane-process.js';
import { count, ms, times, type Report } from '../lib/report.js';
import { summarize } from '../lib/stats.js';
import { timeHandshake } from '../clients/mcp-handshake.js';

const DEFAULT_TARGET = 4000;

const BUNDLED_CLI = fileURLToPath(new URL('../../../dist/fleet.cjs', import.meta.url));

/** Spawn to tools/list answered, for the compiled CLI (a checkout's `fleet init`) and the bundle (the extension's launcher), interleaved with `node -e 0`. */
async function toolListStart(quick: boolean, home: string, cwd: string, report: Report): Promise<void> {
  const n = quick ? 5 : 20;
  const samples = { bare: [] as number[], compiled: [] as number[], bundled: [] as number[] };
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    samples.bare.push(performance.now() - start);
    samples.compiled.push((await timeHandshake(process.execPath, [CLI, 'mcp', '--home', home], cwd, process.env)).listedMs);
    samples.bundled.push((await timeHandshake(process.execPath, [BUNDLED_CLI, 'mcp', '--home', home], cwd, process.env)).listedMs);
  }
  const [bare, compiled, bundled] = [samples.bare, samples.compiled, samples.bundled].map((values) => summarize(values).p50) as [number, number, number];
  report.set('mcpStart', { runs: n, samplesMs: samples });
  report.add({ section: 'mcp-tools', figure: `fleet mcp, spawn to tools/list answered (compiled CLI, p50 of ${n})`, value: ms(compiled), reference: `node -e 0 ${ms(bare)}`, ratio: times(compiled / bare) });
  report.add({ section: 'mcp-tools', figure: 'same, bundled CLI (dist/fleet.cjs, as the extension installs it)', value: ms(bundled), reference: `node -e 0 ${ms(bare)}`, ratio: times(bundled / bare) });
}

export async function mcpTools(options: { quick?: boolean }, report: Report): Promise<void> {
  const home = tempHome('fleet-bench-mcp-');
  const repo = makeRepo({ 'README.md': '# repo\n' });
  try {
    const full = await listBridgeTools({ home, cwd: repo });
    const lean = await listBridgeTools({ home, cwd: repo, profile: 'lean' });
    const untrimmed = methodList
      .filter((spec) => spec.mcpTool)
      .reduce((sum, spec) => sum + countTokens(JSON.stringify({ name: spec.name, description: spec.summary, input_schema: z.toJSONSchema(spec.params, { io: 'input', unrepresentable: 'any' }) })), 0);
    const [fullTokens, leanTokens] = [toolListTokens(full.tools), toolListTokens(lean.tools)];
    report.set('mcpTools', { defaultTools: full.tools.length, defaultTokens: fullTokens, leanTools: lean.tools.length, leanTokens, untrimmedTokens: untrimmed, instructionsTokens: [countTokens(full.instructions), countTokens(lean.instructions)] });
    const reference = `contracts untrimmed ${count(untrimmed)} tokens`;
    report.target({ section: 'mcp-tools', figure: `default profile: ${full.tools.length} tools`, value: `${count(fullTokens)} tokens`, reference, ratio: times(fullTokens / untrimmed) }, fullTokens, DEFAULT_TARGET, `< ${count(DEFAULT_TARGET)} tokens`);
    report.add({ section: 'mcp-tools', figure: `lean profile (FLEET_MCP_TOOLS=lean): ${lean.tools.length} tools`, value: `${count(leanTokens)} tokens`, reference, ratio: times(leanTokens / untrimmed) });
    report.add({ section: 'mcp-tools', figure: 'server instructions, once per session (default / lean)', value: `${count(countTokens(full.instructions))} / ${count(countTokens(lean.instructions))} tokens` });
    spawnSync(process.execPath, [join(fileURLToPath(new URL('../../../', import.meta.url)), 'tools', 'bundle.mjs')], { stdio: 'ignore' });
    await toolListStart(options.quick === true, home, repo, report);
  } finally {
    removeHome(home);
    removeHome(repo);
  }
}
