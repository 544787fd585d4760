import { homedir, userInfo } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import { callsignPattern, fleetHome, nonCallsignChars } from '../../contracts/index.js';

export type GuardMode = 'off' | 'warn' | 'block';

const GUARD_MODES: readonly GuardMode[] = ['off', 'warn', 'block'];

/** The `fleet.*` settings, typed, with their defaults applied. */
export class FleetConfig {
  private readonly changed = new vscode.EventEmitter<vscode.ConfigurationChangeEvent>();
  readonly onDidChange = this.changed.event;
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('fleet')) this.changed.fire(event);
  });

  private get section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('fleet');
  }

  get guard(): GuardMode {
    const value = this.section.get<string>('guard', 'warn');
    return GUARD_MODES.includes(value as GuardMode) ? (value as GuardMode) : 'warn';
  }

  /**
   * The FLEET_HOME whose plane this window joins: the setting, else the environment, else ~/.fleet.
   * A relative one stays relative (resolved against wherever VS Code started, it would be a plane
   * nobody else finds): the language server refuses it with a message saying so.
   */
  get home(): string {
    const configured = this.section.get<string>('home', '').trim();
    return resolvedIfAbsolute(configured ? configured.replace(/^~(?=$|\/)/, homedir()) : fleetHome(process.env.FLEET_HOME, homedir()));
  }

  /** The callsign for Join as Operator: the setting, else the user name in capitals. */
  get operatorCallsign(): string {
    const configured = this.section.get<string>('operator.callsign', '').trim();
    if (callsignPattern.test(configured)) return configured;
    const name = safeUserName().replace(nonCallsignChars(), '').toUpperCase();
    return callsignPattern.test(name) ? name : 'OPERATOR';
  }

  /** The theme colour the person chose for an agent's badges (fleet.agentColors), if any. */
  agentColor(callsign: string): string | undefined {
    const colors = this.section.get<Record<string, unknown>>('agentColors', {});
    const color = colors[callsign];
    return typeof color === 'string' && color.trim() !== '' ? color.trim() : undefined;
  }

  notify(kind: 'staleAgents' | 'blockers' | 'controlChanges' | 'violations'): boolean {
    return this.section.get<boolean>(`notifications.${kind}`, true);
  }

  setGuard(mode: GuardMode): Thenable<void> {
    return this.section.update('guard', mode, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function resolvedIfAbsolute(path: string): string {
  return isAbsolute(path) ? resolve(path) : path;
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return '';
  }
}
