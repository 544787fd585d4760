import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAsOperator, connectUnjoined, using } from '../connection.js';
import { parseSince } from '../since-arg.js';

const USAGE = 'fleet digest [--since DURATION|SEQ | --publish] [--json]';

/**
 * Prints the heartbeat digest (Markdown, or JSON with --json): since the last published one, or over
 * the window --since names (a morning report: `fleet digest --since 8h`); --publish makes it the new baseline.
 */
export async function digestVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, { publish: { type: 'boolean' }, since: { type: 'string' } }, USAGE);
  if (values.publish && values.since !== undefined) throw new UsageError(`--publish covers the events since the last published digest; it takes no --since. Usage: ${USAGE}`);
  const params = { publish: values.publish ?? false, ...(values.since !== undefined && parseSince(values.since)) };
  const result = await using(values.publish ? connectAsOperator(home) : connectUnjoined(home), (client) => client.call('fleet_digest', params));
  process.stdout.write(values.json ? `${JSON.stringify(result.digest, null, 2)}\n` : result.markdown);
  return 0;
}
