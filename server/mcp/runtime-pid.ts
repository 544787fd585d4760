import { readFileSync } from 'node:fs';

/** Editors' process names: VS Code and its builds (Electron), VSCodium, Cursor. */
const EDITOR_NAMES = /^(code|code-insiders|code-oss|codium|cursor|electron)$/i;

export interface RuntimeChoice {
  pid?: number;
  /** Said in the bridge's log, so an operator sees what the agent's liveness hangs on. */
  why: string;
}

/**
 * The pid the bridge registers when its agent joins (DESIGN §11): the agent runtime that started
 * `fleet mcp` — the bridge's parent, since the launcher execs node rather than staying a shell —
 * so the agent stays live through a long tool call and ends when the runtime does. Never an
 * editor: VS Code starts bridges for Copilot, and the window outlives every agent in it (and the
 * stop backstop would end it). FLEET_RUNTIME_PID names the runtime explicitly and wins.
 */
export function chooseRuntimePid(env: NodeJS.ProcessEnv, parentPid = process.ppid): RuntimeChoice {
  const named = env.FLEET_RUNTIME_PID;
  if (named !== undefined && named !== '') {
    const pid = Number(named);
    if (Number.isInteger(pid) && pid > 1) return { pid, why: `FLEET_RUNTIME_PID=${pid}` };
    return { why: `FLEET_RUNTIME_PID=${named} is not a process id: no process registered` };
  }
  if (parentPid <= 1) return { why: 'the bridge has no parent runtime: no process registered' };
  const editor = editorName(env, parentPid);
  if (editor !== undefined) return { why: `started by ${editor} (pid ${parentPid}), an editor: no process registered; set FLEET_RUNTIME_PID to the agent runtime's pid` };
  return { pid: parentPid, why: `the parent runtime, pid ${parentPid}` };
}

function editorName(env: NodeJS.ProcessEnv, pid: number): string | undefined {
  if (env.VSCODE_PID === String(pid)) return 'VS Code';
  const name = readProc(pid, 'comm')?.trim();
  if (name !== undefined && EDITOR_NAMES.test(name)) return name;
  // VS Code's extension host (and code-server's, a plain node) says what it is on its command line.
  if (readProc(pid, 'cmdline')?.includes('extensionHost')) return 'the VS Code extension host';
  return undefined;
}

function readProc(pid: number, file: 'comm' | 'cmdline'): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}
