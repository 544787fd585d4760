import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from './plane-process.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `fleet …` as a user would: a separate process, in `cwd`, against `home`; `cli` another build of it (the bundle). */
export function runCli(args: string[], options: { home: string; cwd: string; env?: NodeJS.ProcessEnv; cli?: string }): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [options.cli ?? CLI, ...args],
      { cwd: options.cwd, env: { ...process.env, FLEET_PORT: '0', ...codexHome(options), ...options.env, FLEET_HOME: options.home }, timeout: 30_000, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Codex's config dir for the run: never the real ~/.codex (install-hooks writes hooks.json there); a test that brings its own HOME or CODEX_HOME keeps it. */
function codexHome(options: { home: string; env?: NodeJS.ProcessEnv }): NodeJS.ProcessEnv {
  return options.env?.HOME !== undefined || options.env?.CODEX_HOME !== undefined ? {} : { CODEX_HOME: join(options.home, 'codex') };
}
