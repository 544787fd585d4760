import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { limitDocs } from '../contracts/limit-docs.js';
import { errorDocs, schemaFiles } from '../contracts/schema-files.js';

/** Writes contracts/schemas/*.schema.json and docs/errors.md and docs/limits.md from the contracts (npm run generate). */
const root = process.cwd();
mkdirSync(join(root, 'contracts', 'schemas'), { recursive: true });
for (const [name, schema] of Object.entries(schemaFiles())) {
  writeFileSync(join(root, 'contracts', 'schemas', name), `${JSON.stringify(schema, null, 2)}\n`);
}
mkdirSync(join(root, 'docs'), { recursive: true });
writeFileSync(join(root, 'docs', 'errors.md'), errorDocs());
writeFileSync(join(root, 'docs', 'limits.md'), limitDocs());
console.log(`wrote ${Object.keys(schemaFiles()).length} schema files, docs/errors.md and docs/limits.md`);
