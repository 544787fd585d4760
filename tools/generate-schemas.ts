import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { limitDocs } from '../contracts/limit-docs.js';
import { errorDocs, schemaFiles } from '../contracts/schema-files.js';
import { toolListModule } from '../server/mcp/tool-list-module.js';

/** Writes contracts/schemas/*.schema.json and docs/errors.md and docs/limits.md from the contracts, and the stdio bridge's tool list (npm run generate). */
const root = process.cwd();
mkdirSync(join(root, 'contracts', 'schemas'), { recursive: true });
for (const [name, schema] of Object.entries(schemaFiles())) {
  writeFileSync(join(root, 'contracts', 'schemas', name), `${JSON.stringify(schema, null, 2)}\n`);
}
mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(join(root, 'docs', 'errors.md'), errorDocs());
writeFileSync(join(root, 'docs', 'limits.md'), limitDocs());
writeFileSync(join(root, 'server', 'mcp', 'tool-list.generated.ts'), toolListModule());
console.log(`wrote ${Object.keys(schemaFiles()).length} schema files, docs/errors.md, docs/limits.md and server/mcp/tool-list.generated.ts`);
