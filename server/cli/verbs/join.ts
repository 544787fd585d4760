import { roleSchema, tierSchema } from '../../../contracts/index.js';
import { parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAsOperator, connectUnjoined, using } from '../connection.js';
import { emit } from '../output.js';
import { remotePlane } from '../../client/remote-plane.js';
import { loadSession, saveSession } from '../../home/sessions.js';

const USAGE = 'fleet join --callsign X --runtime Y [--role R] [--pid N] [--worktree DIR] [--tier local|edge]';

/** Joins (or re-joins with the saved token) and keeps the session token for later `--as` calls. */
export async function joinVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(
    argv,
    { callsign: { type: 'string' }, runtime: { type: 'string' }, role: { type: 'string' }, pid: { type: 'string' }, worktree: { type: 'string' }, tier: { type: 'string' } },
    USAGE,
  );
  const callsign = requireValue(values.callsign, '--callsign', USAGE);
  const runtime = requireValue(values.runtime, '--runtime', USAGE);
  const role = values.role === undefined ? undefined : roleSchema.safeParse(values.role);
  if (role && !role.success) throw new UsageError(`--role ${values.role}: expected one of ${roleSchema.options.join(', ')}`);
  const tier = values.tier === undefined ? undefined : tierSchema.safeParse(values.tier);
  if (tier && !tier.success) throw new UsageError(`--tier ${values.tier}: expected local or edge`);
  const pid = values.pid === undefined ? undefined : Number(values.pid);
  if (pid !== undefined && (!Number.isInteger(pid) || pid <= 0)) throw new UsageError(`--pid ${values.pid}: expected a process id`);
  const saved = loadSession(home, callsign);
  // Role operator is the person's own: that join (and every later --as) presents the operator credential.
  const operator = role?.data === 'operator' || saved?.role === 'operator';
  const result = await using(operator ? connectAsOperator(home) : connectUnjoined(home), (client) =>
    client.call('fleet_agent_join', {
      callsign,
      runtime,
      ...(role?.data !== undefined && { role: role.data }),
      ...(tier?.data !== undefined && { tier: tier.data }),
      ...(pid !== undefined && { pid }),
      // A remote plane does not watch this machine's worktrees (FLEET_URL: DESIGN §13).
      ...(remotePlane() === undefined && { worktree: values.worktree ?? process.cwd() }),
      ...(saved && { sessionToken: saved.sessionToken }),
    }),
  );
  await saveSession(home, { callsign, runtime, agentId: result.agentId, sessionToken: result.sessionToken, ...(operator && { role: 'operator' as const }) });
  emit(values.json, result, () => `${result.rejoined ? 'rejoined' : 'joined'} as ${result.callsign} (${result.agentId}); fleet is ${result.control.state}\nact as it with: fleet … --as ${result.callsign}`);
  return 0;
}
