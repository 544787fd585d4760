import { messageStatusSchema } from '../../../contracts/index.js';
import { pageLimit, parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAs, using } from '../connection.js';
import { emit, moreLines } from '../output.js';
import { fetchLists } from '../paged-call.js';

const USAGE = 'fleet inbox --as X [--unread] [--limit N]\n       fleet inbox ack --as X [--status ACKNOWLEDGED|PROCESSED|BLOCKED] MESSAGE_ID…';

export async function inboxVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(argv, { as: { type: 'string' }, unread: { type: 'boolean' }, status: { type: 'string' }, limit: { type: 'string' } }, USAGE);
  const callsign = requireValue(values.as, '--as', USAGE);
  if (positionals[0] === 'ack') {
    const ids = positionals.slice(1);
    if (ids.length === 0) throw new UsageError(`name the messages to acknowledge\nusage: ${USAGE}`);
    const status = messageStatusSchema.exclude(['PENDING']).safeParse(values.status ?? 'ACKNOWLEDGED');
    if (!status.success) throw new UsageError(`--status ${values.status}: expected ACKNOWLEDGED, PROCESSED or BLOCKED`);
    const result = await using(connectAs(home, callsign), (client) => client.call('fleet_message_ack', { messageIds: ids, status: status.data }));
    emit(values.json, result, () => result.messages.map((m) => `${m.id} ${m.status}`).join('\n'));
    return 0;
  }
  const limit = pageLimit(values.limit);
  // Every page unless --limit: the whole inbox, newest first, however long.
  const result = await using(connectAs(home, callsign), (client) => fetchLists(limit, (page) => client.call('fleet_inbox', { unreadOnly: values.unread ?? false, ...page })));
  emit(values.json, result, () =>
    [
      `${result.unread} unread`,
      ...result.handoffs.map((h) => `HANDOFF ${h.id} from ${h.envelope.from}: ${h.envelope.summary} (accept: fleet handoff accept ${h.id} --as ${callsign})`),
      ...moreLines(result.handoffs.length, result.totals.handoffs, 'handoffs'),
      ...result.messages.map((m) => `${m.status.padEnd(12)} ${m.type.padEnd(10)} ${m.id} from ${m.from}${m.subject ? ` — ${m.subject}` : ''}: ${m.body.split('\n')[0]}`),
      ...moreLines(result.messages.length, result.totals.messages, 'messages'),
    ].join('\n'),
  );
  return 0;
}
