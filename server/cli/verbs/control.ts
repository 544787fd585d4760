import type { ControlState } from '../../../contracts/index.js';
import { parseVerbArgs } from '../args.js';
import { connectAsOperator, using } from '../connection.js';
import { emit } from '../output.js';

/** `fleet pause|drain|resume|stop`: the operator moves the fleet switch (resume = back to run). */
export function controlVerb(state: ControlState, verb: string) {
  return async (argv: string[]): Promise<number> => {
    const { values, home } = parseVerbArgs(argv, { reason: { type: 'string' } }, `fleet ${verb} [--reason T]`);
    const result = await using(connectAsOperator(home), (client) =>
      client.call('fleet_control_set', { state, ...(values.reason !== undefined && { reason: values.reason }) }),
    );
    emit(values.json, result, () => `fleet is now ${result.state}${result.reason ? ` (${result.reason})` : ''}, set by ${result.setBy}`);
    return 0;
  };
}
