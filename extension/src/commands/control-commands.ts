import * as vscode from 'vscode';
import type { ControlState } from '../../../contracts/index.js';
import type { FleetContext } from '../fleet-context.js';
import { flag, showCommandError, text } from './command-args.js';

const WORD: Record<ControlState, string> = { run: 'running', drain: 'draining', pause: 'paused', stop: 'stopped' };
const STOP = 'Stop the Fleet';

/**
 * Fleet: Pause / Drain / Resume / Stop, acting as the operator (the plane records the callsign
 * when the person joined). Stop asks first: after the grace period the plane ends agents that
 * ignore it. Arguments (other extensions, tests): `{ reason?: string, confirmed?: boolean }`.
 */
export function registerControlCommands(ctx: FleetContext): vscode.Disposable[] {
  const move = async (state: ControlState, arg: unknown) => {
    try {
      const control = await ctx.setControl(state, text(arg, 'reason') ?? `${state === 'run' ? 'resumed' : `set to ${state}`} from VS Code`);
      vscode.window.setStatusBarMessage(`$(check) Fleet ${WORD[control.state]}`, 4000);
    } catch (error) {
      showCommandError(ctx, `The fleet could not be set to ${state}`, error);
    }
  };
  return [
    vscode.commands.registerCommand('fleet.pause', (arg?: unknown) => move('pause', arg)),
    vscode.commands.registerCommand('fleet.drain', (arg?: unknown) => move('drain', arg)),
    vscode.commands.registerCommand('fleet.resume', (arg?: unknown) => move('run', arg)),
    vscode.commands.registerCommand('fleet.stop', async (arg?: unknown) => {
      if (!flag(arg, 'confirmed')) {
        const choice = await vscode.window.showWarningMessage(
          'Stop the fleet?',
          {
            modal: true,
            detail:
              'Every agent is told to wind down and leave: no new claims or work start. After the grace period (FLEET_STOP_GRACE), agents that registered a process id and are still on the roster are terminated. Resume brings the fleet back to run.',
          },
          STOP,
        );
        if (choice !== STOP) return;
      }
      await move('stop', arg);
    }),
  ];
}
