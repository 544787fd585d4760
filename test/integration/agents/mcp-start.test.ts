// Issue 22 item 5: Codex sends its first model request ~0.9 s after spawning `fleet mcp`; tools the
// bridge has not listed by then are missing from the first turn. The list is static: `fleet mcp`
// answers initialize and tools/list before it loads the MCP SDK, zod and the contracts, or reaches
// a plane (here there is none, and FLEET_HOME cannot even hold one).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, tempHome } from '../../support/plane-process.js';
import { within } from '../../support/within.js';

/** Node's module hooks (node --import): every module the process resolves is noted in `log`, as it resolves it. */
function moduleLog(dir: string): { flags: string[]; log: string } {
  const log = join(dir, 'modules.log');
  writeFileSync(join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const found = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, found.url + '\\n');\n  return found;\n}\n`);
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)});\n`);
  writeFileSync(log, '');
  return { flags: ['--import', join(dir, 'register.mjs')], log };
}

test('fleet mcp lists its tools before loading the MCP SDK, zod or the contracts, and with no plane to reach', async () => {
  const dir = tempHome('fleet-mcp-start-');
  const home = join(dir, 'home');
  mkdirSync(home);
  // A plane that would start here could not open its log: the list must not wait for one.
  mkdirSync(join(home, 'plane.log'));
  const { flags, log } = moduleLog(dir);
  const child = spawn(process.execPath, [...flags, CLI, 'mcp', '--home', home], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, FLEET_MCP_TOOLS: '' } });
  try {
    const replies: { id: number; result: { tools?: { name: string }[]; protocolVersion?: string } }[] = [];
    let buffered = '';
    const listed = new Promise<string>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          replies.push(JSON.parse(buffered.slice(0, end)) as (typeof replies)[number]);
          buffered = buffered.slice(end + 1);
        }
        // The modules loaded by the time tools/list was answered.
        if (replies.some((reply) => reply.id === 2)) resolve(readFileSync(log, 'utf8'));
      }),
    );
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'codex', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list', params: {} });
    const loaded = await within(listed, 20_000, 'tools/list answered');
    assert.equal(replies.find((reply) => reply.id === 1)?.result.protocolVersion, '2025-06-18');
    assert.equal(replies.find((reply) => reply.id === 2)?.result.tools?.length, 24);
    const heavy = loaded.split('\n').filter((url) => /node_modules\/(zod|@modelcontextprotocol|ws)\/|\/contracts\/index\.js$|\/client\/plane-client\.js$/.test(url));
    assert.deepEqual(heavy, [], 'loaded before tools/list was answered');
  } finally {
    // Removed only once the child is gone: it appends to modules.log as it loads (ENOTEMPTY in CI).
    const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit');
    child.kill();
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
