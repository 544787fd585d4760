import { readDiscovery } from '../../client/connect.js';
import { isAlive } from '../../plane/processes/process-identity.js';
import { parseVerbArgs } from '../args.js';
import { connectToPlane } from '../../client/connect.js';
import { using } from '../connection.js';
import { emit } from '../output.js';

const EXIT_WAIT_MS = 15_000;

/** Ends the plane process (not the fleet switch) and waits until it has exited. */
export async function shutdownVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, {}, 'fleet shutdown [--home DIR]');
  const running = readDiscovery(home);
  if (!running) {
    emit(values.json, { shuttingDown: false, running: false }, () => `no plane is running on ${home}`);
    return 0;
  }
  await using(connectToPlane({ home, client: 'fleet-cli', autoStart: false, credential: 'operator' }), (client) => client.call('fleet_plane_shutdown', {}));
  const deadline = Date.now() + EXIT_WAIT_MS;
  while (isAlive(running.discovery.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  const stopped = !isAlive(running.discovery.pid);
  emit(values.json, { shuttingDown: true, stopped, pid: running.discovery.pid }, () =>
    stopped ? `plane (pid ${running.discovery.pid}) shut down` : `plane (pid ${running.discovery.pid}) is still shutting down`,
  );
  return stopped ? 0 : 1;
}
