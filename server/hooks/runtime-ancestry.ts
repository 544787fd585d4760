// Node builtins only: the lean hook runner loads this on every tool call.
import { readFileSync } from 'node:fs';

/** As many as the plane accepts (limits.ancestors; not imported: the lean runner loads no zod). */
const MAX_ANCESTORS = 32;

let cached: number[] | undefined;

/**
 * The processes this hook runs under, its parent first, up to (not including) pid 1: the runtime
 * that ran the hook is among them, and the plane matches it with the process an MCP bridge
 * registered at join, so a session is known as the agent its own bridge joined and never as one
 * another process joined in the same checkout (DESIGN §11). Read from /proc; elsewhere the parent
 * alone (the runtime itself when it runs hooks without a shell).
 */
export function runtimeAncestry(): number[] {
  cached ??= ancestryFrom(process.ppid);
  return cached;
}

/** The processes from `start` up, as runtimeAncestry reads a hook's own: the plane reads a hook front's this way, from the parent it names. */
export function ancestryFrom(start: number): number[] {
  const pids: number[] = [];
  let pid = start;
  while (pid > 1 && pids.length < MAX_ANCESTORS && !pids.includes(pid)) {
    pids.push(pid);
    const parent = parentOf(pid);
    if (parent === undefined) break;
    pid = parent;
  }
  return pids;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the name) may hold spaces and parentheses: the fields after it start past the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}
