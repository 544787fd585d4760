// The agent clients .ci/install-agent-clients.sh installed, read from their marker files; and the rule
// for a client that is missing: in CI (FLEET_REQUIRE_CLIENTS=1, set by .ci/run) the test fails, elsewhere it skips loudly.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type ClientId = 'claude-code' | 'codex';

/** The pinned versions: the ones docs/runtimes.md speaks of and the install script installs. */
export const CLIENT_VERSIONS: Record<ClientId, string> = { 'claude-code': '2.1.328', codex: '0.169.0' };

export const INSTALL_HINT = 'run `bash .ci/install-agent-clients.sh` to install the pinned agent clients';

export interface InstalledClient {
  id: ClientId;
  version: string;
  /** The CLI to run (`claude`, `codex`). */
  bin: string;
}

export function clientsCacheDir(): string {
  return process.env.FLEET_CLIENTS_CACHE || join(homedir(), '.cache', 'fleet-coordination', 'clients');
}

/** The installed client, or why it is not there. */
export function findClient(id: ClientId): InstalledClient | { missing: string } {
  const version = CLIENT_VERSIONS[id];
  const marker = join(clientsCacheDir(), `${id}-${version}`, 'fleet-client.json');
  if (!existsSync(marker)) return { missing: `${id} ${version} is not installed (no ${marker}); ${INSTALL_HINT}` };
  const { bin } = JSON.parse(readFileSync(marker, 'utf8')) as { bin: string };
  if (!existsSync(bin)) return { missing: `${id} ${version}: ${bin} named by ${marker} is gone; ${INSTALL_HINT}` };
  return { id, version, bin };
}

export function clientsRequired(): boolean {
  return process.env.FLEET_REQUIRE_CLIENTS === '1';
}

/**
 * The client for a describe() block, or the skip reason node:test prints. Where clients are
 * required a missing one throws, so the tier fails instead of passing empty.
 */
export function clientOrSkip(id: ClientId): { client?: InstalledClient; skip: string | false } {
  const found = findClient(id);
  if ('bin' in found) return { client: found, skip: false };
  if (clientsRequired()) throw new Error(`FLEET_REQUIRE_CLIENTS=1 and ${found.missing}`);
  const message = `SKIPPED: the real-client tests for ${id}: ${found.missing}`;
  console.error(`\n*** ${message} ***\n`);
  return { skip: message };
}
