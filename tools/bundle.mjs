#!/usr/bin/env node
// Bundles what VS Code loads (esbuild, CommonJS .cjs files: the package is "type": "module"):
//   dist/extension.cjs        the extension (vscode is provided by the host)
//   dist/language-server.cjs  the language server the extension starts
//   dist/fleet.cjs            the CLI, whose `serve` verb starts a plane that outlives the window
//   dist/fleet-hook.cjs       what the hook launcher starts: dist/fleet-hook-runner.cjs from V8's code cache
//   dist/fleet-hook-runner.cjs the lean hook runner (node builtins only), beside the CLI it hands over to
//   dist/shell-worker.cjs     the thread the plane parses shell commands in
// With --tests, also the test module run inside the extension host: out/vscode-suite/index.cjs.
// Files are written to a temp name and renamed, so a VS Code starting meanwhile never loads half a file.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const bundles = {
  extension: { entry: 'extension/src/extension.ts', out: 'dist/extension.cjs' },
  'language-server': { entry: 'server/language-server/main.ts', out: 'dist/language-server.cjs' },
  cli: { entry: 'server/cli/main.ts', out: 'dist/fleet.cjs', plugins: [selfStartingCli()] },
  hook: { entry: 'server/hooks/lean/cached-start.ts', out: 'dist/fleet-hook.cjs' },
  'hook-runner': { entry: 'server/hooks/lean/fleet-hook.ts', out: 'dist/fleet-hook-runner.cjs', plugins: [cliBesideHook()] },
  // The plane's shell parser thread (server/gate/shell-analyzer.ts finds it next to the CLI bundle).
  'shell-worker': { entry: 'server/gate/shell-worker.ts', out: 'dist/shell-worker.cjs' },
  tests: { entry: 'test/vscode/suite/index.ts', out: 'out/vscode-suite/index.cjs' },
};

/** @param {{ tests?: boolean, production?: boolean }} [options] */
export async function bundleAll(options = {}) {
  const names = Object.keys(bundles).filter((name) => name !== 'tests' || options.tests);
  const started = Date.now();
  await Promise.all(names.map((name) => bundleOne(bundles[name], options.production === true)));
  return { names, ms: Date.now() - started };
}

async function bundleOne({ entry, out, plugins = [] }, production) {
  const result = await build({
    plugins,
    entryPoints: [join(root, entry)],
    outfile: join(root, out),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // `vscode` is the host's; ws loads its optional native helpers only if present.
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
    // ESM sources that use import.meta.url keep working in a CommonJS bundle.
    define: { 'import.meta.url': '__fleetImportMetaUrl' },
    banner: { js: 'var __fleetImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    sourcemap: production ? false : 'linked',
    minify: production,
    keepNames: true,
    legalComments: production ? 'none' : 'inline',
    logLevel: 'warning',
    write: false,
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
}

/**
 * server/client/connect.ts starts a plane by running `../cli/main.js` next to itself, which is right
 * for the compiled tree (out/) but names nothing in a bundle. In the CLI bundle the CLI is the
 * bundle itself: point the default there. (The language server passes its cliEntry explicitly.)
 */
function selfStartingCli() {
  return pointCliAt('self-starting-cli', /[\\/]server[\\/]client[\\/]connect\.ts$/, "new URL('../cli/main.js', import.meta.url)", "require('node:url').pathToFileURL(__filename)");
}

/** The lean hook runner hands what it does not decide to the CLI bundle beside it: dist/fleet.cjs. */
function cliBesideHook() {
  return pointCliAt('cli-beside-hook', /[\\/]server[\\/]hooks[\\/]lean[\\/]fleet-hook\.ts$/, "new URL('../../cli/main.js', import.meta.url)", "require('node:url').pathToFileURL(require('node:path').join(__dirname, 'fleet.cjs'))");
}

/** Replaces `needle` (where a module finds the compiled CLI) with `replacement` in the files `filter` matches. */
function pointCliAt(name, filter, needle, replacement) {
  return {
    name,
    setup(build) {
      build.onLoad({ filter }, async (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(needle)) throw new Error(`${args.path} no longer contains ${needle}: update ${name} in tools/bundle.mjs`);
        return { contents: source.replace(needle, replacement), loader: 'ts' };
      });
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const { names, ms } = await bundleAll({ tests: args.includes('--tests'), production: args.includes('--production') });
  console.log(`bundled ${names.join(', ')} in ${ms} ms`);
}
