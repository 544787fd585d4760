// The trust a person gives the fleet's Codex hooks in Codex's /hooks, as it lands in config.toml:
// one `[hooks.state."<key>"]` table per hook, keyed and hashed as Codex does (codex-hook-hash.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexHookHash, codexHookKey } from '../../server/hooks/codex-hook-hash.js';

interface HooksJson {
  hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number }[] }[]>;
}

/** The tables for the fleet hooks of `workspace`; `hashFor` may put another hash in (a hook changed since it was trusted). */
export function trustTables(codexHome: string, workspace: string, hashFor: (event: string, hash: string) => string): string {
  const hooksFile = join(codexHome, 'hooks.json');
  const file = JSON.parse(readFileSync(hooksFile, 'utf8')) as HooksJson;
  const tables: string[] = [];
  for (const [event, groups] of Object.entries(file.hooks)) {
    groups.forEach((group, groupIndex) =>
      group.hooks.forEach((hook, index) => {
        if (!hook.command.includes(workspace)) return;
        tables.push(`[hooks.state."${codexHookKey(hooksFile, event, groupIndex, index)}"]\ntrusted_hash = "${hashFor(event, codexHookHash(event, group.matcher, hook))}"\n`);
      }),
    );
  }
  assert.ok(tables.length >= 3, `fleet install-hooks put the fleet's hooks for ${workspace} in ${hooksFile}`);
  return tables.join('\n');
}
