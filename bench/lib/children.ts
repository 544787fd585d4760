import type { ChildProcess } from 'node:child_process';

// Every process the suite starts is registered here, so that an interrupted run (Ctrl-C, an
// exception) leaves no plane, agent or peer behind. IPC children also exit on their own when the
// driver's channel closes; `fleet serve` children have no channel, so they need this.
const children = new Set<ChildProcess>();

export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

process.once('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
