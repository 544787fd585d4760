// Trusts fleet's Codex hooks the way a person does in Codex's /hooks: through Codex's own app server,
// `hooks/list` (each hook's key, `<hooks.json path>:<event>:<group>:<handler>`, and its currentHash) then
// `config/batchWrite` upserting `hooks.state.<key>.trusted_hash` into $CODEX_HOME/config.toml — the
// request the TUI sends. Codex computes the hash; fleet never writes it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ListedHook {
  key: string;
  eventName: string;
  command: string;
  matcher: string | null;
  currentHash: string;
  trustStatus: string;
}

/** A JSON-RPC session with `codex app-server` over stdio. */
async function withAppServer<T>(bin: string, cwd: string, env: NodeJS.ProcessEnv, talk: (call: (method: string, params: object) => Promise<unknown>) => Promise<T>): Promise<T> {
  const child = spawn(bin, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number; result?: unknown; error?: { message: string } };
    const pending = message.id === undefined ? undefined : waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id!);
    if (message.error) pending.reject(new Error(`codex app-server: ${message.error.message}`));
    else pending.resolve(message.result);
  });
  let next = 0;
  const call = (method: string, params: object) =>
    new Promise<unknown>((resolve, reject) => {
      next += 1;
      waiting.set(next, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: next, method, params })}\n`);
    });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.once('exit', () => {
    for (const pending of waiting.values()) pending.reject(new Error(`codex app-server exited:\n${stderr}`));
  });
  try {
    await call('initialize', { clientInfo: { name: 'fleet-clients-tier', version: '1' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
    return await talk(call);
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
}

export async function listCodexHooks(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ListedHook[]> {
  return withAppServer(bin, cwd, env, async (call) => {
    const listed = (await call('hooks/list', { cwds: [cwd] })) as { data: Array<{ hooks: ListedHook[] }> };
    return listed.data.flatMap((entry) => entry.hooks);
  });
}

export const isFleetHook = (hook: ListedHook) => / codex-(pre-tool-use|post-tool-use|session-start|permission-request) --home /.test(hook.command);

/** Trusts the hooks `select` picks (fleet's: `fleet-hook codex-…`) and returns the list Codex shows afterwards. */
export async function trustCodexHooks(bin: string, cwd: string, env: NodeJS.ProcessEnv, select: (hook: ListedHook) => boolean = isFleetHook): Promise<ListedHook[]> {
  return withAppServer(bin, cwd, env, async (call) => {
    const list = async () => ((await call('hooks/list', { cwds: [cwd] })) as { data: Array<{ hooks: ListedHook[] }> }).data.flatMap((entry) => entry.hooks);
    const fleets = (await list()).filter(select);
    if (fleets.length === 0) throw new Error('codex hooks/list shows none of the hooks to trust: did fleet init write $CODEX_HOME/hooks.json?');
    const value = Object.fromEntries(fleets.map((hook) => [hook.key, { trusted_hash: hook.currentHash }]));
    await call('config/batchWrite', { edits: [{ keyPath: 'hooks.state', value, mergeStrategy: 'upsert' }], reloadUserConfig: true });
    return list();
  });
}
