import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_FRAME_BYTES } from '../../contracts/index.js';
import type { Credential } from '../core/context.js';
import { refuseUpgrade, type PlaneSecrets } from './handshake.js';

/** Where the hook front (FLEET_HOME/bin/fleet-hook-front) posts a PreToolUse event: /hooks/VERB. */
const HOOK_FRONT_PATH = /^\/hooks\/([a-z-]{1,40})$/;

export const isHookFrontPost = (request: IncomingMessage): boolean => request.method === 'POST' && HOOK_FRONT_PATH.test(request.url ?? '');

/** An event is at most what one call's frame may carry: the lean runner sends its gist in one. */
export const HOOK_FRONT_MAX_BYTES = MAX_FRAME_BYTES;

/** What the front says of the hook process, beside the event: its runtime's arguments, cwd and environment. */
export interface HookFrontRequest {
  verb: string;
  /** The event, as the runtime wrote it to the hook's stdin. */
  stdin: string;
  /** `--root REPO` of the Codex verbs ('' for Claude Code's). */
  root: string;
  /** The front's parent: the runtime that ran the hook (the ancestry starts there). */
  parentPid: number;
  cwd: string;
  /** FLEET_AS and FLEET_OVERRIDE ('' when unset, as the hooks read them). */
  env: { FLEET_AS: string; FLEET_OVERRIDE: string };
  credential: Credential;
}

/** What the hook prints and its exit code: exactly the lean runner's for the same event. */
export interface HookFrontAnswer {
  stdout: string;
  code: number;
}

export type AnswerHookFront = (request: HookFrontRequest) => Promise<HookFrontAnswer>;

/**
 * Serves one plain HTTP POST of the hook front (isHookFrontPost): vetted as an upgrade is (loopback
 * Host, no Origin, the bearer one of the plane's secrets in constant time), its body bounded, its
 * fields checked.
 * Any answer but 200 makes the front run the lean runner instead, so a refusal here costs a hook
 * its speed, never its decision; the reason is said in the body for whoever posts by hand.
 */
export function serveHookFront(request: IncomingMessage, response: ServerResponse, secrets: PlaneSecrets, answer: AnswerHookFront, admitted: () => void): void {
  const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
    // The front reads to the end of the connection: one answer per connection.
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...headers }).end(body);
  };
  const verb = HOOK_FRONT_PATH.exec(request.url!)![1]!;
  const vetting = refuseUpgrade(request, secrets);
  if ('status' in vetting) return reply(vetting.status, `${vetting.reason}\n`);
  const declared = Number(request.headers['content-length']);
  if (!Number.isInteger(declared) || declared < 0) return reply(411, 'Content-Length (the event\'s size in bytes) is required\n');
  if (declared > HOOK_FRONT_MAX_BYTES) return reply(413, `the event is ${declared} bytes, over the limit of ${HOOK_FRONT_MAX_BYTES}: the lean runner answers it\n`);
  const fields = frontFields(request);
  if ('problem' in fields) return reply(400, `${fields.problem}\n`);
  // Vetted: the connection is no idler, and the hook may take the plane's full deadline.
  admitted();
  // Node's parser reads exactly Content-Length bytes; a connection that ends short of them is answered 400 by it.
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    void answer({ verb, stdin: Buffer.concat(chunks).toString('utf8'), ...fields, credential: vetting.credential }).then(
      (said) => reply(200, said.stdout, { 'fleet-exit': String(said.code) }),
      (error: unknown) => reply(500, `the hook failed in the plane: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
}

const FRONT_HEADERS = ['fleet-root', 'fleet-cwd', 'fleet-as', 'fleet-override', 'fleet-parent-pid'] as const;

/** The largest pid a process may have (Linux's pid_max ceiling, above every other system's). */
const MAX_PID = 2 ** 22;

/** The front's headers, each one value of at most 4 KiB; UTF-8 travels as the latin-1 HTTP header text Node hands over. */
function frontFields(request: IncomingMessage): Omit<HookFrontRequest, 'verb' | 'stdin' | 'credential'> | { problem: string } {
  const text: Partial<Record<(typeof FRONT_HEADERS)[number], string>> = {};
  for (const name of FRONT_HEADERS) {
    const value = request.headers[name] ?? '';
    if (typeof value !== 'string') return { problem: `${name}: one value expected` };
    if (value.length > 4096) return { problem: `${name}: over 4096 bytes` };
    text[name] = Buffer.from(value, 'latin1').toString('utf8');
  }
  const { 'fleet-root': root = '', 'fleet-cwd': cwd = '', 'fleet-as': as = '', 'fleet-override': override = '', 'fleet-parent-pid': parent = '' } = text;
  const parentPid = Number(parent);
  if (!/^[0-9]+$/.test(parent) || parentPid < 1 || parentPid > MAX_PID) return { problem: `fleet-parent-pid: expected the pid of the hook's parent, got "${parent}"` };
  if (cwd === '') return { problem: "fleet-cwd: expected the hook's working directory" };
  return { root, cwd, parentPid, env: { FLEET_AS: as, FLEET_OVERRIDE: override } };
}
