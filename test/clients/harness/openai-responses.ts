// The OpenAI Responses API as Codex speaks it to a `model_providers` entry with wire_api = "responses":
// POST {base_url}/responses with stream:true, answered with the events codex-rs reads
// (codex-api/src/sse/responses.rs): response.created, response.output_item.done per item, response.completed.
// Items: an assistant `message`; `function_call` (arguments a JSON string: exec_command, MCP tools);
// `custom_tool_call` (freeform input: apply_patch); `tool_search_call` (execution "client": Codex runs
// the search over its deferred tools, the MCP servers' among them, and answers with tool_search_output).
import type { ModelRequest, ToolCall, ToolResult, Turn } from './model-turn.js';

interface InputItem {
  type?: string;
  role?: string;
  name?: string;
  namespace?: string;
  call_id?: string;
  output?: unknown;
  tools?: unknown;
  arguments?: unknown;
  input?: string;
}
interface ResponsesBody {
  tools?: Array<{ name?: string; type?: string }>;
  input?: InputItem[];
}

const CALLS = new Set(['function_call', 'custom_tool_call', 'tool_search_call']);

export function readResponsesRequest(body: ResponsesBody): Pick<ModelRequest, 'main' | 'modelTurns' | 'toolNames' | 'results'> {
  const toolNames = (body.tools ?? []).map((tool) => tool.name ?? tool.type ?? '');
  const input = body.input ?? [];
  const calls = new Map<string, { name: string; input: unknown }>();
  const results: ToolResult[] = [];
  let modelTurns = 0;
  for (const item of input) {
    if (CALLS.has(item.type ?? '') || (item.type === 'message' && item.role === 'assistant')) modelTurns += 1;
    if (CALLS.has(item.type ?? '') && item.call_id) calls.set(item.call_id, { name: callName(item), input: callInput(item) });
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output' || item.type === 'tool_search_output') {
      const call = calls.get(item.call_id ?? '');
      results.push({ callId: item.call_id ?? '', name: call?.name ?? '', input: call?.input, text: outputText(item.type === 'tool_search_output' ? item.tools : item.output), isError: false });
    }
  }
  return { main: toolNames.includes('exec_command'), modelTurns, toolNames, results };
}

function callName(item: InputItem): string {
  if (item.type === 'tool_search_call') return 'tool_search';
  return item.namespace ? `${item.namespace}__${item.name ?? ''}` : item.name ?? '';
}

/** A function call's arguments travel as a JSON string; a freeform call's input as it is. */
function callInput(item: InputItem): unknown {
  if (item.type === 'custom_tool_call') return item.input;
  if (typeof item.arguments !== 'string') return item.arguments;
  try {
    return JSON.parse(item.arguments) as unknown;
  } catch {
    return item.arguments;
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part: { type?: string; text?: string }) => (typeof part.text === 'string' ? part.text : JSON.stringify(part))).join('\n');
  return JSON.stringify(output);
}

/** How a call travels: apply_patch is freeform, tool_search runs in the client, the rest are functions. */
function callItem(call: ToolCall, callId: string): object {
  if (call.name === 'tool_search') return { type: 'tool_search_call', call_id: callId, execution: 'client', status: 'completed', arguments: call.input };
  if (typeof call.input === 'string') return { type: 'custom_tool_call', id: `ctc_${callId}`, call_id: callId, name: call.name, input: call.input, status: 'completed' };
  // An MCP tool found through tool_search is called by its namespace and name (`mcp__fleet` + `fleet_agent_join`).
  const mcp = /^(mcp__.+?)__(.+)$/.exec(call.name);
  const naming = mcp ? { namespace: mcp[1], name: mcp[2] } : { name: call.name };
  return { type: 'function_call', id: `fc_${callId}`, call_id: callId, ...naming, arguments: JSON.stringify(call.input), status: 'completed' };
}

export function responsesEvents(turn: Turn, seq: number): { events: Array<[string, object]>; callIds: string[] } {
  const id = `resp_scripted_${seq}`;
  const events: Array<[string, object]> = [['response.created', { type: 'response.created', response: { id } }]];
  const callIds: string[] = [];
  const items: object[] = [];
  if ('text' in turn) {
    items.push({ type: 'message', role: 'assistant', id: `msg_${seq}`, status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] });
  } else {
    turn.calls.forEach((call, index) => {
      const callId = `call_scripted_${seq}_${index}`;
      callIds.push(callId);
      items.push(callItem(call, callId));
    });
  }
  for (const item of items) events.push(['response.output_item.done', { type: 'response.output_item.done', item }]);
  events.push(['response.completed', { type: 'response.completed', response: { id, usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 } } }]);
  return { events, callIds };
}
