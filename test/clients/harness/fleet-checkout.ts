// A repository set up as a user sets one up: a real plane on a temp FLEET_HOME, a git repository,
// `fleet init` run in it with HOME (and so ~/.codex and ~/.claude) in a temp folder of its own.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, makeRepo } from '../../support/git-repo.js';
import { startPlaneProcess, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { runCli, type CliResult } from '../../support/run-cli.js';

export interface FleetCheckout {
  repo: string;
  fleetHome: string;
  /** The user's HOME for every client run: ~/.claude, ~/.claude.json and ~/.codex live here, never in the real one. */
  userHome: string;
  codexHome: string;
  plane: PlaneProcess;
  /** `fleet …` in the repository, as the user at the terminal runs it. */
  fleet(...args: string[]): Promise<CliResult>;
  /** `fleet …` run in another folder (a linked worktree of the repository, say). */
  fleetAt(cwd: string, ...args: string[]): Promise<CliResult>;
  /** A linked worktree of the repository on a branch of its own: where another agent works. */
  linkedWorktree(branch: string): string;
  /** Another agent, a script run from `cwd` as a person would run it: `fleet join --runtime script`, then `fleet claim`. */
  scriptAgentClaims(callsign: string, cwd: string, patterns: string[]): Promise<void>;
  /** The environment a client starts with: the user's PATH with the fleet launcher on it, HOME, nothing of this process. */
  clientEnv(): NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

/**
 * `cli`: the CLI the user runs (default: this checkout's compiled one). The bundle (dist/fleet.cjs)
 * is what the VS Code extension installs: `fleet init` run by it makes FLEET_HOME/bin's launchers
 * run the bundled CLI and hook runner.
 */
export async function fleetCheckout(files: Record<string, string>, options: { cli?: string } = {}): Promise<FleetCheckout> {
  const fleetHome = tempHome('fleet-clients-home-');
  const userHome = tempHome('fleet-clients-user-');
  const codexHome = join(userHome, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const plane = await startPlaneProcess({ home: fleetHome });
  const repo = makeRepo(files);
  const fleetAt = (cwd: string, ...args: string[]) => runCli(args, { home: fleetHome, cwd, env: { HOME: userHome, CODEX_HOME: codexHome }, ...(options.cli !== undefined && { cli: options.cli }) });
  const fleet = (...args: string[]) => fleetAt(repo, ...args);
  const init = await fleet('init');
  const worktrees = tempHome('fleet-clients-worktrees-');
  if (init.code !== 0) throw new Error(`fleet init failed (${init.code}):\n${init.stdout}\n${init.stderr}`);
  return {
    repo,
    fleetHome,
    userHome,
    codexHome,
    plane,
    fleet,
    fleetAt,
    scriptAgentClaims: async (callsign, cwd, patterns) => {
      for (const args of [['join', '--callsign', callsign, '--runtime', 'script'], ['claim', '--as', callsign, ...patterns]]) {
        const done = await fleetAt(cwd, ...args);
        if (done.code !== 0) throw new Error(`fleet ${args.join(' ')} failed (${done.code}): ${done.stderr}`);
      }
    },
    linkedWorktree: (branch) => {
      const path = join(worktrees, branch);
      git(repo, 'worktree', 'add', '-q', path, '-b', branch, 'main');
      return path;
    },
    // `fleet init` says to put FLEET_HOME/bin on PATH (Claude Code starts `fleet mcp` by name); node and git stay reachable.
    clientEnv: () => ({ PATH: [join(fleetHome, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'), HOME: userHome, LANG: 'C.UTF-8', TERM: 'dumb' }),
    dispose: async () => {
      await plane.stop();
      for (const dir of [repo, worktrees, fleetHome, userHome]) rmSync(dir, { recursive: true, force: true });
    },
  };
}
