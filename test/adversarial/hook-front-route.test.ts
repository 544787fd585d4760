// The plane's POST /hooks/VERB (the hook front's route) is input from any local process: it is
// vetted as a WebSocket upgrade is (loopback Host, no Origin, the bearer one of the plane's secrets),
// its body bounded before it is read, its fields checked, each refusal saying why.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MAX_FRAME_BYTES } from '../../contracts/protocol.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from '../support/plane-process.js';

/** One raw HTTP exchange on the plane's loopback port: what it answers, up to its closing the connection. */
function exchange(port: number, request: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, end), body: text.slice(end + 4) });
    });
    socket.write(request);
  });
}

describe('the hook front route refuses what is not its own front', () => {
  let plane: PlaneProcess;
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const event = JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${repo}/src/a.ts`, content: 'x' }, tool_use_id: 't1' });

  /** The request as the front sends it, with `change` applied to its header lines. */
  const post = (change: (headers: Record<string, string>) => void = () => undefined, body = event, path = '/hooks/claude-pre-tool-use') => {
    const headers: Record<string, string> = { Host: '127.0.0.1', Authorization: `Bearer ${plane.token}`, 'Content-Length': String(Buffer.byteLength(body)), 'Fleet-Cwd': repo, 'Fleet-Parent-Pid': String(process.pid) };
    change(headers);
    return `POST ${path} HTTP/1.0\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
  };

  before(async () => {
    plane = await startPlaneProcess();
  });

  after(async () => {
    await plane?.stop();
    removeHome(plane.home);
    removeHome(repo);
  });

  test('the front\'s own request is answered (200, the hook\'s exit code, its stdout: a person\'s write, allowed, says nothing); anything else is still told the plane speaks WebSocket', async () => {
    const answer = await exchange(plane.port, post());
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.headers, /\r\nfleet-exit: 0\r\n/i);
    assert.equal(answer.body, '');
    for (const request of ['GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n', `GET /hooks/claude-pre-tool-use HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`]) {
      const other = await exchange(plane.port, request);
      assert.equal(other.status, 426, request);
      assert.match(other.body, /speaks WebSocket JSON-RPC only/);
    }
  });

  test('no token, a wrong one, a Host that is not loopback, a browser\'s Origin: refused with the reason', async () => {
    const cases: [(headers: Record<string, string>) => void, number, RegExp][] = [
      [(h) => delete h.Authorization, 401, /missing "Authorization: Bearer <token>": read the token from FLEET_HOME\/token/],
      [(h) => (h.Authorization = `Bearer ${plane.token.slice(0, -1)}x`), 401, /wrong plane token/],
      [(h) => (h.Host = 'evil.example:80'), 403, /Host "evil\.example:80" is not loopback/],
      [(h) => (h.Origin = 'https://evil.example'), 403, /Origin "https:\/\/evil\.example" refused/],
    ];
    for (const [change, status, reason] of cases) {
      const answer = await exchange(plane.port, post(change));
      assert.equal(answer.status, status, answer.body);
      assert.match(answer.body, reason);
      assert.doesNotMatch(answer.headers, /fleet-exit/i);
    }
  });

  test('an event over the bound is refused from its Content-Length, before a byte of it is read', async () => {
    const declared = MAX_FRAME_BYTES + 1;
    const answer = await exchange(plane.port, post((h) => (h['Content-Length'] = String(declared)), ''));
    assert.equal(answer.status, 413);
    assert.match(answer.body, new RegExp(`the event is ${declared} bytes, over the limit of ${MAX_FRAME_BYTES}`));
  });

  test('no Content-Length, a body shorter than declared, a bad parent pid, a missing cwd, an unknown verb: refused, saying what was wrong', async () => {
    const missing = await exchange(plane.port, post((h) => delete h['Content-Length'], ''));
    assert.deepEqual([missing.status, missing.body], [411, "Content-Length (the event's size in bytes) is required\n"]);
    // The client half-closes after a short body: never run, the request is refused as malformed.
    const short = await new Promise<string>((resolve, reject) => {
      const socket = connect(plane.port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      socket.end(post((h) => (h['Content-Length'] = '999')));
    });
    assert.match(short, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.doesNotMatch(short, /fleet-exit/i);
    for (const pid of ['me', '0', '99999999999']) {
      const parent = await exchange(plane.port, post((h) => (h['Fleet-Parent-Pid'] = pid)));
      assert.deepEqual([parent.status, parent.body], [400, `fleet-parent-pid: expected the pid of the hook's parent, got "${pid}"\n`]);
    }
    const cwd = await exchange(plane.port, post((h) => delete h['Fleet-Cwd']));
    assert.deepEqual([cwd.status, cwd.body], [400, "fleet-cwd: expected the hook's working directory\n"]);
    const verb = await exchange(plane.port, post(undefined, event, '/hooks/git-pre-commit'));
    assert.equal(verb.status, 500);
    assert.match(verb.body, /the plane answers claude-pre-tool-use and codex-pre-tool-use for the hook front, not "git-pre-commit": run bin\/fleet-hook/);
  });
});
