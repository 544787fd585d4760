import { EVENT_NOTIFICATION, eventNotificationSchema, EVENTS_GAP_NOTIFICATION, eventsGapNotificationSchema, type FleetEvent } from '../../../contracts/index.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAsOperator } from '../connection.js';

const USAGE = 'fleet events [--from SEQ] [--follow] [--json]';

/** Prints the event log (from a sequence number), and with --follow keeps printing new events. */
export async function eventsVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, { from: { type: 'string' }, follow: { type: 'boolean' } }, USAGE);
  const from = values.from === undefined ? 0 : Number(values.from);
  if (!Number.isInteger(from) || from < 0) throw new UsageError(`--from ${values.from}: expected a sequence number`);
  const client = await connectAsOperator(home);
  client.onNotification((method, params) => {
    // Fell behind (a slow terminal): the plane stopped sending; pick up where it stopped, nothing is skipped.
    if (method === EVENTS_GAP_NOTIFICATION) return void client.call('fleet_events_subscribe', { fromSeq: eventsGapNotificationSchema.parse(params).fromSeq }).catch(() => undefined);
    if (method !== EVENT_NOTIFICATION) return;
    const { event } = eventNotificationSchema.parse(params);
    process.stdout.write(`${values.json ? JSON.stringify(event) : describe(event)}\n`);
  });
  await client.call('fleet_events_subscribe', { fromSeq: from });
  if (values.follow) {
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      client.onClose(resolve);
    });
  }
  client.close();
  return 0;
}

function describe(event: FleetEvent): string {
  const { seq, at, type, by, ...rest } = event;
  const details = Object.entries(rest)
    .filter(([key]) => key !== 'tokenHash')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${String(seq).padStart(6)}  ${new Date(at).toISOString()}  ${type.padEnd(16)} ${by ?? ''}  ${details}`;
}
