import { createHash } from 'node:crypto';

/**
 * Codex's identity of a command hook, as it checks a user's trust in it. Read from openai/codex
 * codex-rs/hooks/src/engine/discovery.rs (`append_matcher_groups`, `hook_hash`), with
 * codex-rs/config/src/fingerprint.rs (`version_for_toml`) and codex-rs/hooks/src/lib.rs (`hook_key`):
 *
 * - the key of `[hooks.state."<key>"]` is `<absolute path of hooks.json>:<event in snake case>:<group index>:<hook index>`;
 * - the hash is `sha256:` + hex SHA-256 of the canonical JSON (keys sorted, no spaces) of
 *   `{event_name, matcher?, hooks: [the hook, normalized]}`, built through TOML, so an absent field
 *   is left out: `timeout` always there (600 s by default; SessionEnd and Interrupt 1 s, at most 3),
 *   `async` always there (false by default), `commandWindows` never, `statusMessage` when set,
 *   `additionalContextLimit` only on events that can add context and only when not 2500; the
 *   matcher is dropped for UserPromptSubmit and Stop. The command is hashed as written.
 *
 * Trusted when the hash at the key equals the current one; modified when it differs; untrusted when
 * there is none. A hook `enabled = false` there does not run at all.
 */

/** `PreToolUse` → `pre_tool_use`, as Codex's `hook_event_key_label`. */
export function codexEventLabel(event: string): string {
  return event.replace(/[A-Z]/g, (letter, at: number) => `${at > 0 ? '_' : ''}${letter.toLowerCase()}`);
}

export function codexHookKey(hooksFile: string, event: string, group: number, hook: number): string {
  return `${hooksFile}:${codexEventLabel(event)}:${group}:${hook}`;
}

const MATCHERLESS_EVENTS = new Set(['UserPromptSubmit', 'Stop']);
const SHORT_TIMEOUT_EVENTS = new Set(['SessionEnd', 'Interrupt']);
const CONTEXT_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'SubagentStart']);
const DEFAULT_CONTEXT_LIMIT = 2500;

export interface CodexCommandHook {
  command: string;
  timeout?: unknown;
  async?: unknown;
  statusMessage?: unknown;
  additionalContextLimit?: unknown;
}

export function codexHookHash(event: string, matcher: string | undefined, hook: CodexCommandHook): string {
  const timeout = typeof hook.timeout === 'number' ? hook.timeout : undefined;
  const limit = typeof hook.additionalContextLimit === 'number' && CONTEXT_EVENTS.has(event) && hook.additionalContextLimit !== DEFAULT_CONTEXT_LIMIT ? hook.additionalContextLimit : undefined;
  const normalized = {
    type: 'command',
    command: hook.command,
    timeout: SHORT_TIMEOUT_EVENTS.has(event) ? Math.min(3, Math.max(1, timeout ?? 1)) : Math.max(1, timeout ?? 600),
    async: hook.async === true,
    ...(typeof hook.statusMessage === 'string' && { statusMessage: hook.statusMessage }),
    ...(limit !== undefined && { additionalContextLimit: limit }),
  };
  const identity = { event_name: codexEventLabel(event), ...(matcher !== undefined && !MATCHERLESS_EVENTS.has(event) && { matcher }), hooks: [normalized] };
  return `sha256:${createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
}

/** JSON with every object's keys sorted and no whitespace (serde_json's compact form). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
