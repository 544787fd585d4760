// What the scripted model says on one turn, and what a test reads from one request a client sent:
// the same for both wire protocols, so a script reads alike for Claude Code and Codex.

/** A tool call the model makes: `input` an object for JSON tools, a string for freeform ones (Codex's apply_patch). */
export interface ToolCall {
  name: string;
  input: Record<string, unknown> | string;
}

export type Turn = { text: string } | { calls: ToolCall[] };

/** A tool's result as the client sent it back to the model. */
export interface ToolResult {
  callId: string;
  /** The tool the call named, and the input it was called with (found by its id in the history). */
  name: string;
  input: unknown;
  /** The text the model reads: every text part joined; other parts as JSON. */
  text: string;
  isError: boolean;
}

export interface ModelRequest {
  protocol: 'anthropic' | 'responses';
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  receivedAt: number;
  /** When the reply to it ended, and the ids of the calls it made: the start of those calls' round trip. */
  repliedAt?: number;
  replyCallIds: string[];
  /** A request of the agent's own loop (it offers the client's shell tool), not a title or a side query. */
  main: boolean;
  /** How many model turns the history holds. */
  modelTurns: number;
  /** The tools offered, by name. */
  toolNames: string[];
  /** Every tool result in the history, oldest first. */
  results: ToolResult[];
  /** The whole request body as text: where injected context is searched for. */
  text: string;
}

/** A step that holds the script until `until` holds, answering `meanwhile` (e.g. Codex's tool_search until the MCP tools are in). */
export interface Wait {
  until: (request: ModelRequest) => boolean;
  meanwhile: Turn;
  /** Turns to wait at most; then the model gives up, saying what it waited for. */
  atMost: number;
  waitingFor: string;
}

export type Step = Turn | ((request: ModelRequest) => Turn) | Wait;

/**
 * The agent loop's turns in order, one per request (a run's requests come one at a time); once they run
 * out the model says it is done. Make one per client run: it keeps its place.
 */
export function scriptOf(steps: Step[]): (request: ModelRequest) => Turn {
  let position = 0;
  let waited = 0;
  return (request) => {
    for (;;) {
      const step = steps[position];
      if (step === undefined) return { text: 'done' };
      if (typeof step === 'object' && 'until' in step) {
        if (!step.until(request)) {
          waited += 1;
          if (waited > step.atMost) return { text: `gave up after ${step.atMost} turns waiting for ${step.waitingFor}` };
          return step.meanwhile;
        }
        position += 1;
        waited = 0;
        continue;
      }
      position += 1;
      return typeof step === 'function' ? step(request) : step;
    }
  };
}

/** The result of the (last) call to `name` the request carries, or undefined. */
export function resultOf(request: ModelRequest, name: string): ToolResult | undefined {
  return request.results.filter((result) => result.name === name).at(-1);
}

/** The last request of the agent's own loop: it carries the whole history of the run. */
export function lastAgentRequest(requests: ModelRequest[]): ModelRequest {
  const last = requests.filter((request) => request.main).at(-1);
  if (!last) throw new Error(`the model server received no request of the agent's loop (${requests.length} requests in all)`);
  return last;
}

/** Fleet tools every client must offer the model (the lean profile's core, by their MCP names). */
export const FLEET_TOOLS = ['fleet_agent_join', 'fleet_claim_path', 'fleet_check_path', 'fleet_release_path', 'fleet_work_pull', 'fleet_control_get', 'fleet_agent_handoff'];

/** The result of the (first) call to `name` whose input mentions `needle` (a file it writes, say). */
export function resultOfCallNaming(request: ModelRequest, name: string, needle: string): ToolResult | undefined {
  return request.results.find((result) => result.name === name && JSON.stringify(result.input ?? '').includes(needle));
}

/**
 * What the model read from a call's result on: the result and every message the client added after it
 * (Claude Code gives a PostToolUse hook's block reason as a system message after the tool_result), as
 * the request's JSON text.
 */
export function readAfterResult(request: ModelRequest, result: ToolResult): string {
  return request.text.slice(request.text.lastIndexOf(result.callId));
}
