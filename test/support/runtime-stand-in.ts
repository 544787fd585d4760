import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * A process standing for an agent runtime (Claude Code, Codex) in tests that feed hooks documented
 * payloads: the hooks it runs are its children, as a runtime's are, so an agent that registers its
 * pid at join (as the MCP bridge registers its runtime's) is the agent those hooks act for. The
 * real runtimes are run in test/clients/.
 */
export class RuntimeStandIn {
  private next = 0;
  private readonly waiting = new Map<number, (result: HookRun) => void>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (result: HookRun & { id: number }) => this.waiting.get(result.id)?.(result));
  }

  static async start(): Promise<RuntimeStandIn> {
    const child = fork(new URL('./runtime-stand-in-worker.js', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await once(child, 'spawn');
    return new RuntimeStandIn(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Runs `command` through a shell under this runtime, `input` on its stdin. */
  run(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; input: string }): Promise<HookRun> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, (result) => {
        this.waiting.delete(id);
        resolve({ status: result.status, stdout: result.stdout, stderr: result.stderr });
      });
      this.child.send({ id, command, ...options });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill();
    await once(this.child, 'exit');
  }
}

export interface HookRun {
  status: number | null;
  stdout: string;
  stderr: string;
}
