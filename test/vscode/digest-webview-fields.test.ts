// The Digest webview (media/digest.js) reads the digest the extension posts: every field it reads
// must be one the digest schema has, or the view shows "NaN" and "undefined" (as it once did with
// `lastSeenAt` for the schema's `lastHeartbeatAt`). Plain Node: reads the script as text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { digestSchema } from '../../contracts/digest.js';
import { REPO_ROOT } from './support/fleet-fixtures.js';

const shape = digestSchema.shape;
/** The webview's variable names for each part of the digest. */
const READERS: Record<string, z.ZodObject> = {
  digest: digestSchema,
  'digest.control': shape.control,
  'digest.claims': shape.claims,
  agent: shape.agents.element,
  build: shape.builds.element,
  blocker: shape.blockers.element,
  claim: z.object({ ...shape.claims.shape.acquired.element.shape, ...shape.claims.shape.released.element.shape }),
  handoff: shape.handoffs.element,
  work: shape.workCompleted.element,
  escalation: shape.escalations.unwrap().element,
  budget: shape.budgetsSpent.unwrap().element,
  violation: shape.violations.unwrap().element,
  change: shape.controlChanges.unwrap().element,
  pending: shape.awaitingDecision.unwrap().element,
  wait: shape.waitingForPerson.unwrap().element,
  forecast: shape.forecasts.unwrap().element,
  unreached: shape.notCompared.unwrap().element,
};

test('the Digest webview reads only fields the digest schema has', () => {
  const script = readFileSync(join(REPO_ROOT, 'media', 'digest.js'), 'utf8');
  const reads = [...script.matchAll(/\b(digest\.(?:control|claims)|digest|agent|build|blocker|claim|handoff|work|violation|change|pending|escalation|budget|wait|forecast|unreached)\.(\w+)/g)];
  assert.ok(reads.some((read) => read[1] === 'agent'), 'the webview renders agents');
  const unknown = reads.filter(([, reader, field]) => !(field in READERS[reader]!.shape)).map(([whole]) => whole);
  assert.deepEqual([...new Set(unknown)], [], 'fields the webview reads that contracts/digest.ts does not define');
});
