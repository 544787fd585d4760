import { join } from 'node:path';

/** The files of one FLEET_HOME. One plane owns a home at a time. */
export function homePaths(home: string) {
  return {
    home,
    token: join(home, 'token'),
    discovery: join(home, 'plane.json'),
    socket: join(home, 'plane.sock'),
    lock: join(home, 'plane.lock'),
    state: join(home, 'state'),
    ledger: join(home, 'ledger.json'),
    sessions: join(home, 'sessions'),
    log: join(home, 'plane.log'),
  };
}
export type HomePaths = ReturnType<typeof homePaths>;
