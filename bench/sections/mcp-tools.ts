// The MCP tool list as agents pay for it (issue 17): every tool definition sits in every agent's
// context on every turn. Listed with the official MCP client from `fleet mcp`, counted in Claude
// tokens per definition (name, description, input schema), for both profiles. The reference is
// the same tools as the contracts state them, untrimmed (summaries and full JSON Schemas), counted
// in the same run.
import { countTokens } from '@anthropic-ai/tokenizer';
import { z } from 'zod';
import { methodList } from '../../contracts/index.js';
import { makeRepo } from '../../test/support/git-repo.js';
import { listBridgeTools, toolListTokens } from '../../test/support/mcp-tool-list.js';
import { removeHome, tempHome } from '../../test/support/plane-process.js';
import { count, times, type Report } from '../lib/report.js';

const DEFAULT_TARGET = 4000;

export async function mcpTools(_options: unknown, report: Report): Promise<void> {
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
  } finally {
    removeHome(home);
    removeHome(repo);
  }
}
