// Lint: the type-aware rules that catch what tsc does not (a forgotten await above all).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bench-results/**', 'test/vscode/fixtures/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // DESIGN §2's layering, enforced: each block says what its folder may not import, and why.
  layer('contracts/**/*.ts', 'contracts import zod only: they are the schema every side shares', [
    { regex: '^(?!zod$|\\.{1,2}/)', message: 'contracts import zod and each other, nothing else' },
    { regex: '^\\.\\./(\\.\\./)*(server|extension)/', message: 'contracts import zod and each other, nothing else' },
  ]),
  layer('server/core/**/*.ts', 'the domain core is pure: no disk, socket, process or clock of its own', [
    { regex: '^node:(?!crypto$)', message: 'the core does no I/O: the plane hands it what it needs' },
    { regex: '^\\.\\./(\\.\\./)?(plane|store|transport|cli|client|hooks|mcp|language-server|gate|home)/', message: 'the core knows nothing of the layers around it' },
  ]),
  layer('extension/**/*.ts', 'the extension reaches the plane through the language server, never its code', [
    { regex: '/server/', message: 'the extension imports contracts and vscode, not server code' },
  ]),
  layer('server/transport/**/*.ts', 'the transport carries frames; the plane hands it the dispatcher', [
    { regex: '/dispatcher\\.js$', message: 'the transport does not import the plane\'s dispatcher: it is handed a Dispatch' },
  ]),
  layer('server/{mcp,hooks,language-server,client,home,gate,plane,store}/**/*.ts', 'only the CLI imports the CLI', [
    { regex: '^\\.\\./(\\.\\./)?cli/', message: 'move what both need to a neutral place (server/home, server/format, server/client)' },
  ]),
);

/** A no-restricted-imports rule for the files of one layer. */
function layer(files, why, patterns) {
  return { files: [files], rules: { 'no-restricted-imports': ['error', { patterns: patterns.map((p) => ({ ...p, message: `${p.message} (${why})` })) }] } };
}
