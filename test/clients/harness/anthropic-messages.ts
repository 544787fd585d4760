// The Anthropic Messages API as Claude Code speaks it to ANTHROPIC_BASE_URL: POST /v1/messages with
// stream:true, answered with the streaming events (message_start, content_block_start/delta/stop,
// message_delta, message_stop; tool input as input_json_delta), and /v1/messages/count_tokens.
import type { ModelRequest, ToolResult, Turn } from './model-turn.js';

interface ContentBlock {
  type: string;
  id?: string;
  name?: string;
  text?: string;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
  tool_name?: string;
  input?: unknown;
}
interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name?: string }>;
  messages?: Array<{ role: string; content: string | ContentBlock[] }>;
}

export function readMessagesRequest(body: MessagesBody): Pick<ModelRequest, 'main' | 'modelTurns' | 'toolNames' | 'results'> {
  const toolNames = (body.tools ?? []).map((tool) => tool.name ?? '');
  const messages = body.messages ?? [];
  const calls = new Map<string, { name: string; input: unknown }>();
  const results: ToolResult[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use' && block.id) calls.set(block.id, { name: block.name ?? '', input: block.input });
      if (block.type === 'tool_result' && block.tool_use_id) {
        const call = calls.get(block.tool_use_id);
        results.push({ callId: block.tool_use_id, name: call?.name ?? '', input: call?.input, text: blockText(block.content), isError: block.is_error === true });
      }
    }
  }
  return { main: toolNames.includes('Bash'), modelTurns: messages.filter((message) => message.role === 'assistant').length, toolNames, results };
}

function blockText(content: string | ContentBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text ?? '' : JSON.stringify(part))).join('\n');
}

/** The SSE events of one assistant message saying `turn`, and the ids of the calls it makes. */
export function messagesEvents(turn: Turn, model: string, seq: number): { events: Array<[string, object]>; callIds: string[] } {
  const id = `msg_scripted_${seq}`;
  const events: Array<[string, object]> = [
    ['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }],
  ];
  const callIds: string[] = [];
  if ('text' in turn) {
    events.push(
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    );
  } else {
    turn.calls.forEach((call, index) => {
      const callId = `toolu_scripted_${seq}_${index}`;
      callIds.push(callId);
      events.push(
        ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: callId, name: call.name, input: {} } }],
        ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } }],
        ['content_block_stop', { type: 'content_block_stop', index }],
      );
    });
  }
  events.push(
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'text' in turn ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: 1 } }],
    ['message_stop', { type: 'message_stop' }],
  );
  return { events, callIds };
}

/** A non-streamed answer (a side query that does not ask for a stream). */
export function messagesJson(text: string, model: string, seq: number): object {
  return { id: `msg_scripted_${seq}`, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
}
