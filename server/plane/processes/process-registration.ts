import { FleetError } from '../../../contracts/index.js';
import { isAlive, processStartTime } from './process-identity.js';

/**
 * Registers the pid a joining agent names as its process, returning the start time that makes it
 * that process for good (undefined where /proc is unavailable: then the pid is only shown, never
 * watched or signalled). Refused: pid 1 and the plane itself (the stop backstop would end the
 * machine's init or the plane), and a pid that is not running (nothing to watch; a later process
 * that gets the number must never be taken for the agent).
 */
export function registerPid(pid: number): string | undefined {
  if (pid === 1) throw new FleetError('INVALID_PARAMS', 'pid 1 is the init process, never an agent: pass the pid of the agent runtime itself, or omit pid');
  if (pid === process.pid) throw new FleetError('INVALID_PARAMS', `pid ${pid} is the plane itself: pass the pid of the agent runtime, or omit pid`);
  if (!isAlive(pid)) throw new FleetError('INVALID_PARAMS', `no process with pid ${pid} runs on this machine: pass the pid of the running agent runtime, or omit pid`);
  return processStartTime(pid);
}
