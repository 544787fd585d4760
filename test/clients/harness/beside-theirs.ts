// The territory both clients' main tests work in: THEIRS, a script agent in a linked worktree of the
// same repository, holds src/theirs.ts and src/theirs-too.ts exclusively; src/mine.ts is free to claim.
import { fleetCheckout, type FleetCheckout } from './fleet-checkout.js';

export const THEIRS_TEXT = 'export const theirs = 1;\n';
export const MINE_TEXT = 'export const mine = 0;\n';

/** A script that writes into THEIRS's claim by a path it computes: no gate can see it before it runs. */
export const REGENERATE_SCRIPT = [
  "import { writeFileSync } from 'node:fs';",
  "writeFileSync(['src', 'theirs-too.ts'].join('/'), 'changed by a script\\n');",
  '',
].join('\n');

export async function checkoutBesideTheirs(): Promise<FleetCheckout> {
  const checkout = await fleetCheckout({
    'src/theirs.ts': THEIRS_TEXT,
    'src/theirs-too.ts': THEIRS_TEXT,
    'src/mine.ts': MINE_TEXT,
    'scripts/regenerate.mjs': REGENERATE_SCRIPT,
    'README.md': '# repo\n',
  });
  await checkout.scriptAgentClaims('THEIRS', checkout.linkedWorktree('theirs'), ['src/theirs.ts', 'src/theirs-too.ts']);
  return checkout;
}
