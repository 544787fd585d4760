import { parseVerbArgs } from '../args.js';
import { connectAsOperator, connectUnjoined, using } from '../connection.js';

/** Prints the heartbeat digest (Markdown, or JSON with --json); --publish makes it the new baseline. */
export async function digestVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, { publish: { type: 'boolean' } }, 'fleet digest [--publish] [--json]');
  const result = await using(values.publish ? connectAsOperator(home) : connectUnjoined(home), (client) => client.call('fleet_digest', { publish: values.publish ?? false }));
  process.stdout.write(values.json ? `${JSON.stringify(result.digest, null, 2)}\n` : result.markdown);
  return 0;
}
