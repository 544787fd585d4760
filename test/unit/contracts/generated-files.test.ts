import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { errorDocs, schemaFiles } from '../../../contracts/schema-files.js';
import { errorTable } from '../../../contracts/errors.js';
import { limitDocs } from '../../../contracts/limit-docs.js';
import { limits } from '../../../contracts/limits.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PROTOCOL_VERSIONS } from '../../../server/mcp/stdio-front.js';
import { buildToolCatalog } from '../../../server/mcp/tool-catalog.js';
import { TOOL_LISTS } from '../../../server/mcp/tool-list.generated.js';
import { toolListModule } from '../../../server/mcp/tool-list-module.js';
import { PROFILES } from '../../../server/mcp/tool-profile.js';

const root = process.cwd();
const STALE = 'is stale: run `npm run generate` and commit the result';

test('every generated JSON Schema file on disk matches the contracts', () => {
  const expected = schemaFiles();
  for (const [name, schema] of Object.entries(expected)) {
    const onDisk = JSON.parse(readFileSync(join(root, 'contracts', 'schemas', name), 'utf8')) as unknown;
    assert.deepEqual(onDisk, JSON.parse(JSON.stringify(schema)), `contracts/schemas/${name} ${STALE}`);
  }
  const present = readdirSync(join(root, 'contracts', 'schemas')).filter((f) => f.endsWith('.schema.json'));
  assert.deepEqual(present.sort(), Object.keys(expected).sort(), `contracts/schemas/ has files the contracts do not generate`);
});

test('the ledger and handoff schemas are among them', () => {
  const names = Object.keys(schemaFiles());
  assert.ok(names.includes('fleet-coordination-ledger.schema.json'));
  assert.ok(names.includes('fleet-coordination-handoff.schema.json'));
});

test('docs/errors.md documents every entry of the error table', () => {
  const docs = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');
  assert.equal(docs, errorDocs(), `docs/errors.md ${STALE}`);
  for (const [name, entry] of Object.entries(errorTable)) {
    assert.match(docs, new RegExp(`\\| \`${entry.code}\` \\| \`${name}\` \\|`), `${name} is not documented`);
  }
});

test('docs/limits.md lists every limit of contracts/limits.ts with its value', () => {
  const docs = readFileSync(join(root, 'docs', 'limits.md'), 'utf8');
  assert.equal(docs, limitDocs(), `docs/limits.md ${STALE}`);
  for (const [name, limit] of Object.entries(limits)) {
    assert.match(docs, new RegExp(`\\| \`${name}\` \\| ${limit.max.toLocaleString('en-US')} `), `${name} is not documented`);
  }
});

test('error codes are unique', () => {
  const codes = Object.values(errorTable).map((e) => e.code);
  assert.equal(new Set(codes).size, codes.length);
});

test("the stdio bridge's generated tool list is what the catalog builds from the contracts, for every profile", () => {
  assert.equal(readFileSync(join(root, 'server', 'mcp', 'tool-list.generated.ts'), 'utf8'), toolListModule(), `server/mcp/tool-list.generated.ts ${STALE}`);
  for (const profile of PROFILES) {
    assert.deepEqual(TOOL_LISTS[profile], [...buildToolCatalog(profile, 'checkout').values()].map((tool) => JSON.parse(JSON.stringify(tool.definition)) as unknown), profile);
  }
});

test('the bridge speaks the MCP revisions the SDK does', () => {
  assert.deepEqual([...MCP_PROTOCOL_VERSIONS], SUPPORTED_PROTOCOL_VERSIONS);
});
