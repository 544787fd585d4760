// A cloud agent's MCP client, run as its own process (it trusts the test CA the way a Node runtime
// does, through NODE_EXTRA_CA_CERTS): the official SDK's Streamable HTTP client against /mcp.
// Reads {url, token, calls} as JSON from argv[2]; prints what it saw as one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

interface Script {
  url: string;
  token: string;
  calls: { name: string; arguments?: Record<string, unknown> }[];
}

export interface McpClientReport {
  connectError?: string;
  instructions?: string;
  tools?: string[];
  results?: { isError: boolean; text: string; structured?: Record<string, unknown> }[];
}

const script = JSON.parse(process.argv[2]!) as Script;
const client = new Client({ name: 'cloud-agent-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(script.url), { requestInit: { headers: { Authorization: `Bearer ${script.token}` } } });
const report: McpClientReport = {};
try {
  await client.connect(transport);
  report.instructions = client.getInstructions() ?? '';
  report.tools = (await client.listTools()).tools.map((tool) => tool.name);
  report.results = [];
  for (const call of script.calls) {
    const result = await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
    const content = result.content as { type: string; text?: string }[];
    report.results.push({ isError: result.isError === true, text: content.map((c) => c.text ?? '').join('\n'), ...(result.structuredContent != null && { structured: result.structuredContent as Record<string, unknown> }) });
  }
  await transport.terminateSession();
  await client.close();
} catch (error) {
  report.connectError = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
