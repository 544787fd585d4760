import { spawnSync } from 'node:child_process';

/**
 * Milliseconds from spawn to exit of `sh -c command` fed `input`, as a runtime runs a hook; its
 * stdout must be `expect` (or match it): a hook that answered wrong was not measured.
 */
export function timeHook(command: string, input: string, expect: string | RegExp, cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  const start = process.hrtime.bigint();
  const run = spawnSync('sh', ['-c', command], { input, cwd, env, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  const right = typeof expect === 'string' ? run.stdout === expect : expect.test(run.stdout);
  if (run.status !== 0 || !right) throw new Error(`${command} answered ${run.status}: ${run.stdout}${run.stderr}`);
  return elapsed;
}
