// Helpers for orchestration tests against a real plane process.
import assert from 'node:assert/strict';
import type { ErrorName, Role, Tier } from '../../contracts/index.js';
import { PlaneCallError, type PlaneClient } from '../../server/client/plane-client.js';
import type { PlaneProcess } from './plane-process.js';

export interface PlaneAgent {
  client: PlaneClient;
  callsign: string;
  agentId: string;
  sessionToken: string;
}

/** A new connection joined as an agent. */
export async function joinPlane(plane: PlaneProcess, callsign: string, options: { role?: Role; runtime?: string; tier?: Tier } = {}): Promise<PlaneAgent> {
  const client = await plane.connect(callsign);
  const joined = await client.call('fleet_agent_join', { callsign, runtime: options.runtime ?? 'test', ...(options.role && { role: options.role }), ...(options.tier && { tier: options.tier }) });
  return { client, callsign, agentId: joined.agentId, sessionToken: joined.sessionToken };
}

/** Awaits `call` and asserts the plane answered with the JSON-RPC error `name`; returns it. */
export async function expectCallError(call: Promise<unknown>, name: ErrorName): Promise<PlaneCallError> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof PlaneCallError, `expected ${name}, got ${caught === undefined ? 'a result' : String(caught)}`);
  assert.equal(caught.errorName, name, caught.message);
  return caught;
}

export const passingReport = (criteria: string[]) => ({
  verdicts: criteria.map((criterion) => ({ criterion, verdict: 'pass' as const, evidence: `checked ${criterion}` })),
});

export const buildArtifact = (criteria: string[], touchedFiles: string[] = []) => ({
  touchedFiles,
  commands: [{ command: 'npm test', exitCode: 0 }],
  criteria,
});
