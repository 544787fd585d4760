// The VS Code engines prepared by .ci/install-vscode-engines.sh, read from their marker files.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type EngineId = 'minimum' | 'current';

export interface Engine {
  id: EngineId;
  vscodeVersion: string;
  codeServerVersion: string;
  /** Node binary the server (and so the extension host) runs on. */
  node: string;
  nodeVersion: string;
  /** code-server's lib/vscode: holds out/server-main.js. */
  serverDir: string;
}

export const ENGINE_VERSIONS: Record<EngineId, { vscode: string; codeServer: string; nodeMajor: number }> = {
  minimum: { vscode: '1.100.3', codeServer: '4.100.3', nodeMajor: 20 },
  current: { vscode: '1.104.0', codeServer: '4.104.0', nodeMajor: 22 },
};

export const INSTALL_HINT = 'run `bash .ci/install-vscode-engines.sh` to prepare the VS Code engines';

export class EngineNotPreparedError extends Error {
  constructor(id: EngineId, reason: string) {
    super(`VS Code engine "${id}" (${ENGINE_VERSIONS[id].vscode}) is not prepared: ${reason}; ${INSTALL_HINT}`);
    this.name = 'EngineNotPreparedError';
  }
}

export function engineCacheDir(): string {
  return process.env.FLEET_VSCODE_CACHE || join(homedir(), '.cache', 'fleet-coordination', 'vscode');
}

export function loadEngine(id: EngineId): Engine {
  const want = ENGINE_VERSIONS[id];
  const marker = join(engineCacheDir(), want.vscode, 'fleet-engine.json');
  if (!existsSync(marker)) throw new EngineNotPreparedError(id, `no ${marker}`);
  const m = JSON.parse(readFileSync(marker, 'utf8')) as Omit<Engine, 'id'>;
  if (m.vscodeVersion !== want.vscode) throw new EngineNotPreparedError(id, `${marker} is for ${m.vscodeVersion}`);
  if (!m.nodeVersion.startsWith(`v${want.nodeMajor}.`)) {
    throw new EngineNotPreparedError(id, `it runs on Node ${m.nodeVersion}, needs ${want.nodeMajor}`);
  }
  for (const file of [m.node, join(m.serverDir, 'out', 'server-main.js')]) {
    if (!existsSync(file)) throw new EngineNotPreparedError(id, `${file} is missing`);
  }
  return { id, ...m };
}

export function loadEngines(): Engine[] {
  return (Object.keys(ENGINE_VERSIONS) as EngineId[]).map(loadEngine);
}

/**
 * The engines a run covers: both by default; FLEET_VSCODE_ENGINES=current (or minimum) narrows a
 * local run on a busy machine. CI leaves it unset.
 */
export function selectedEngineIds(): EngineId[] {
  const all = Object.keys(ENGINE_VERSIONS) as EngineId[];
  const wanted = process.env.FLEET_VSCODE_ENGINES?.split(',').map((id) => id.trim()).filter(Boolean);
  if (!wanted || wanted.length === 0) return all;
  const unknown = wanted.filter((id) => !all.includes(id as EngineId));
  if (unknown.length > 0) throw new Error(`FLEET_VSCODE_ENGINES names unknown engine(s) ${unknown.join(', ')}; engines are ${all.join(', ')}`);
  return all.filter((id) => wanted.includes(id));
}
