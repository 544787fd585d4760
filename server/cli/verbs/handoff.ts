import { parseVerbArgs, positiveNumber, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAs, using } from '../connection.js';
import { emit } from '../output.js';

const USAGE =
  'fleet handoff --as X (--to CALLSIGN | --to-role ROLE) --summary TEXT [--claim ID…] [--next STEP…] [--question Q…] [--file PATH…] [--context TEXT] [--work ID] [--ttl S]\n' +
  '       fleet handoff accept|decline HANDOFF_ID --as X [--reason TEXT]';

export async function handoffVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(
    argv,
    {
      as: { type: 'string' },
      to: { type: 'string' },
      'to-role': { type: 'string' },
      summary: { type: 'string' },
      claim: { type: 'string', multiple: true },
      next: { type: 'string', multiple: true },
      question: { type: 'string', multiple: true },
      file: { type: 'string', multiple: true },
      context: { type: 'string' },
      work: { type: 'string' },
      ttl: { type: 'string' },
      reason: { type: 'string' },
    },
    USAGE,
  );
  const callsign = requireValue(values.as, '--as', USAGE);
  const [action, handoffId] = positionals;
  if (action === 'accept' || action === 'decline') {
    const id = requireValue(handoffId, 'HANDOFF_ID', USAGE);
    const result = await using(connectAs(home, callsign), (client) =>
      client.call('fleet_handoff_respond', { handoffId: id, accept: action === 'accept', ...(values.reason !== undefined && { reason: values.reason }) }),
    );
    emit(values.json, result, () => `${action === 'accept' ? 'accepted' : 'declined'} ${id}${result.claims.map((c) => `\n  now holding ${c.pattern} (fence ${c.fence})`).join('')}`);
    return 0;
  }
  if (action !== undefined) throw new UsageError(`unknown handoff action "${action}"\nusage: ${USAGE}`);
  if ((values.to === undefined) === (values['to-role'] === undefined)) throw new UsageError(`give exactly one of --to or --to-role\nusage: ${USAGE}`);
  const ttlSeconds = positiveNumber(values.ttl, '--ttl');
  const result = await using(connectAs(home, callsign), (client) =>
    client.call('fleet_agent_handoff', {
      to: values.to !== undefined ? { callsign: values.to } : { role: values['to-role'] as 'worker' },
      summary: requireValue(values.summary, '--summary', USAGE),
      claims: values.claim ?? [],
      nextSteps: values.next ?? [],
      openQuestions: values.question ?? [],
      filesTouched: values.file ?? [],
      ...(values.context !== undefined && { context: values.context }),
      ...(values.work !== undefined && { workItem: values.work }),
      ...(ttlSeconds !== undefined && { ttlSeconds }),
    }),
  );
  emit(values.json, result, () => `handoff ${result.handoff.id} sent; ${result.handoff.envelope.claims.length} claims in escrow until ${result.handoff.expiresAt}`);
  return 0;
}
