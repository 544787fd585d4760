// Which installed VS Code engines the editor section runs on: the newest by default, or those
// FLEET_BENCH_ENGINES names ("all", or ids such as "minimum,current"). run.ts has no flag of its
// own for this section, so an environment variable keeps that table untouched.
import { ENGINE_VERSIONS, INSTALL_HINT, loadEngine, type Engine, type EngineId } from '../../test/vscode/harness/index.js';

export interface EngineChoice {
  engines: Engine[];
  /** Why the wanted engines that are not used could not be loaded (the harness's own messages). */
  missing: string[];
}

export function chooseEngines(wanted = process.env.FLEET_BENCH_ENGINES ?? ''): EngineChoice {
  const ids = Object.keys(ENGINE_VERSIONS) as EngineId[];
  const asked = wanted === '' || wanted === 'all' ? ids : (wanted.split(',').map((id) => id.trim()) as EngineId[]);
  const engines: Engine[] = [];
  const missing: string[] = [];
  for (const id of asked) {
    if (!ids.includes(id)) {
      missing.push(`FLEET_BENCH_ENGINES names "${id}"; the engines are all, ${ids.join(', ')}`);
      continue;
    }
    try {
      engines.push(loadEngine(id));
    } catch (error) {
      missing.push((error as Error).message.replace(`; ${INSTALL_HINT}`, '')); // the section says how once
    }
  }
  // ENGINE_VERSIONS lists the engines oldest first: by default only the newest installed one runs.
  return { engines: wanted === '' ? engines.slice(-1) : engines, missing: wanted === '' && engines.length > 0 ? [] : missing };
}
