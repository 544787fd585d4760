// What a client waits for before the fleet's tools can be in its model's first turn: `fleet mcp`
// spawned as the clients spawn it (the launcher FLEET_HOME/bin/fleet, over stdio), answering
// `initialize`, then `tools/list` after the `initialized` notification — the order an MCP client
// keeps (it sends nothing else before the initialize answer). Timed beside `node -e 0`, spawn to exit.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A handshake that takes longer measured a stuck server: it is killed and the figure refused. */
const HANDSHAKE_TIMEOUT_MS = 30_000;
const PROTOCOL_VERSION = '2025-06-18';

export interface Handshake {
  /** Spawn → the initialize answer, and spawn → the tools/list answer, in milliseconds. */
  initializedMs: number;
  listedMs: number;
  tools: number;
}

/** Spawns `command args` in `cwd` with `env`, speaks MCP to it until tools/list is answered, then kills it. */
export function timeHandshake(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Handshake> {
  const start = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - start) / 1e6;
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  child.stdin.on('error', () => undefined); // a server that died early: its exit says so
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return new Promise<Handshake>((resolve, reject) => {
    let initializedMs = NaN;
    let answered: Handshake | undefined;
    let failure: string | undefined;
    // Settled on exit only, so the next spawn never overlaps this one.
    const stop = (why?: string) => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(`no tools/list answer within ${HANDSHAKE_TIMEOUT_MS} ms`), HANDSHAKE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command}: could not start: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (answered && failure === undefined) resolve(answered);
      else reject(new Error(`${command} ${args.join(' ')}: ${failure ?? `exited (${code ?? signal}) before answering tools/list`}\nstderr: ${stderr}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { id?: number; result?: { tools?: unknown[] }; error?: { message: string } };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return stop(`wrote a line that is not JSON-RPC on stdout: ${line.slice(0, 200)}`);
      }
      if (message.error) return stop(`answered request ${message.id} with an error: ${message.error.message}`);
      if (message.id === 1) {
        initializedMs = since();
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/list', params: {} });
      } else if (message.id === 2) {
        answered = { initializedMs, listedMs: since(), tools: message.result?.tools?.length ?? 0 };
        stop();
      }
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fleet-bench', version: '1' } } });
  });
}

/** Spawn → exit of `node -e 0`, in milliseconds: the least any Node process costs. */
export function timeBareNode(): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`node -e 0 exited ${run.status ?? run.signal}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}
