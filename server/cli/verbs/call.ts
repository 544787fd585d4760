import type { z } from 'zod';
import { isMethodName, methodList, methods } from '../../../contracts/index.js';
import { gatherPages, isPaged, type PageReply } from '../../client/gather-pages.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAs, connectAsOperator, using } from '../connection.js';

const USAGE = "fleet call METHOD [--as X] [--params '{…}'] | fleet call --list   (--json '{…}' is accepted for --params)";

/** Reaches every method of the table, so nothing is CLI-less. Output is always JSON. */
export async function callVerb(argv: string[]): Promise<number> {
  // `--json` takes the params here (DESIGN's pinned form), so it is parsed as a string option.
  const rewritten = argv.map((arg) => (arg === '--json' ? '--params' : arg.startsWith('--json=') ? `--params=${arg.slice(7)}` : arg));
  const { values, positionals, home } = parseVerbArgs(rewritten, { as: { type: 'string' }, params: { type: 'string' }, list: { type: 'boolean' } }, USAGE);
  if (values.list) {
    for (const method of methodList) process.stdout.write(`${method.name}${method.mcpTool ? '  (MCP tool)' : ''}\n    ${method.summary}\n`);
    return 0;
  }
  const [method] = positionals;
  if (method === undefined) throw new UsageError(`name the method to call\nusage: ${USAGE}`);
  if (!isMethodName(method)) throw new UsageError(`unknown method "${method}": see \`fleet call --list\``);
  let params: unknown = {};
  if (values.params !== undefined) {
    try {
      params = JSON.parse(values.params);
    } catch (error) {
      throw new UsageError(`--params is not valid JSON: ${(error as Error).message}`);
    }
  }
  // As everywhere in the CLI, paths and patterns belong to the repository of the working directory
  // unless the call names its repository by scope (an agent without a checkout).
  const shape = (methods[method].params as z.ZodObject).shape;
  if ('root' in shape && typeof params === 'object' && params !== null && !('root' in params) && !('scope' in params)) params = { ...params, root: process.cwd() };
  const connection = values.as !== undefined ? connectAs(home, values.as) : connectAsOperator(home);
  // A paged method called without cursor or limit answers with every page, like the other verbs.
  const object = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined;
  const whole = isPaged(method) && object !== undefined && !('cursor' in object) && !('limit' in object);
  const result = await using(connection, (client) =>
    whole ? gatherPages((page) => client.callRaw(method, { ...object, ...page }) as Promise<PageReply>) : client.callRaw(method, params),
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
