// dist/fleet-hook.cjs, what FLEET_HOME/bin/fleet-hook starts where the VS Code extension (or the CLI
// bundle) installed it: the lean hook runner beside it (dist/fleet-hook-runner.cjs), run from V8's
// code cache of it. Compiling the runner and the functions a hook runs is about a fifth of what a
// hook adds to starting Node, on every tool call; the cache is written per runner file and Node by
// the first hooks of each verb (where this folder is writable), and V8 refuses one that does not fit.
// A cache holds the functions compiled by the runs that wrote it; one verb takes different paths
// (Codex's PreToolUse: an MCP join, then the shell, then apply_patch), and the first run alone would
// leave the later paths compiling on every call, so each of the first MERGED_RUNS hooks of a verb
// writes the cache again with what its run added. A checkout's compiled tree runs
// lean/fleet-hook.js itself, without a cache.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The runner's bundle, beside this one (tools/bundle.mjs writes both). */
const RUNNER = 'fleet-hook-runner.cjs';
/** How many hooks of a verb add their functions to its cache: enough for a session's first calls to take every path (join, claim, shell, file tool). */
const MERGED_RUNS = 8;

const here = dirname(fileURLToPath(import.meta.url));
const runner = join(here, RUNNER);
const { size, mtimeMs } = statSync(runner);
// V8 checks a cache against little more than the source's length: the name carries the runner's size and time, and the V8 that made it.
const made = `${RUNNER}.${size}-${Math.trunc(mtimeMs)}-${process.versions.v8}-${process.arch}.`;
// One per verb: each holds the functions its verb runs (a verb the runner does not know gets none).
const verb = process.argv[2] ?? '';
const cacheFile = /^[a-z-]{1,40}$/.test(verb) ? join(here, `${made}${verb}.cache`) : undefined;
// The cache file: one byte counting the runs merged into it, then V8's data.
const cached = readCache();
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(runner, 'utf8')}\n})`, { filename: runner, ...(cached !== undefined && { cachedData: cached.data }) });
const runs = cached === undefined || script.cachedDataRejected === true ? 0 : cached.runs;
// Made when the hook exits, so it holds the functions this hook compiled too (and those it read from the cache).
if (cacheFile !== undefined && runs < MERGED_RUNS) process.once('exit', () => keepCache(cacheFile, Buffer.concat([Buffer.from([runs + 1]), script.createCachedData()])));
const runnerModule = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(runnerModule.exports, createRequire(runner), runnerModule, runner, here);

function readCache(): { runs: number; data: Buffer } | undefined {
  try {
    const file = cacheFile !== undefined ? readFileSync(cacheFile) : undefined;
    return file !== undefined && file.length > 1 ? { runs: file[0]!, data: file.subarray(1) } : undefined;
  } catch {
    return undefined; // none yet
  }
}

/** Writes the cache (whole or not at all), and drops those of other runner files or Nodes. */
function keepCache(file: string, data: Buffer): void {
  try {
    for (const name of readdirSync(here)) if (name.startsWith(`${RUNNER}.`) && name.endsWith('.cache') && !name.startsWith(made)) rmSync(join(here, name), { force: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch {
    // A folder this user cannot write: the hooks compile the runner each time, as without a cache.
  }
}
