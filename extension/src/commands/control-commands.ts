import * as vscode from 'vscode';
import type { ControlState } from '../../../contracts/index.js';
import { lspRequests } from '../../../contracts/lsp.js';
import type { FleetContext } from '../fleet-context.js';
import { flag, showCommandError, text } from './command-args.js';
import { registerPlaneCommand } from './plane-required.js';

const WORD: Record<ControlState, string> = { run: 'running', drain: 'draining', pause: 'paused', stop: 'stopped' };
const STOP = 'Stop the Fleet';
/** The longest reason fleet/setControl takes. */
const REASON_MAX = lspRequests['fleet/setControl'].params.shape.reason.unwrap().maxLength ?? Infinity;

/**
 * Fleet: Pause / Drain / Resume / Stop, acting as the operator (the plane records the callsign
 * when the person joined). Stop asks first: after the grace period the plane ends agents that
 * ignore it. Pause, Drain and Stop ask for the operator's reason (optional: Enter skips it, Escape
 * cancels); the plane records it with the switch. Arguments (other extensions, tests):
 * `{ reason?: string, confirmed?: boolean }`; a reason passed is not asked for.
 */
export function registerControlCommands(ctx: FleetContext): vscode.Disposable[] {
  const move = async (state: ControlState, arg: unknown, reason = text(arg, 'reason')) => {
    try {
      const control = await ctx.setControl(state, reason ?? `${state === 'run' ? 'resumed' : `set to ${state}`} from VS Code`);
      vscode.window.setStatusBarMessage(`$(check) Fleet ${WORD[control.state]}`, 4000);
    } catch (error) {
      showCommandError(ctx, `The fleet could not be set to ${state}`, error);
    }
  };
  return [
    registerPlaneCommand(ctx, 'fleet.pause', 'Fleet: Pause', async (arg) => {
      if (already(ctx, 'pause')) return;
      const reason = await askReason('pause', arg);
      if (reason !== undefined) await move('pause', arg, reason || undefined);
    }),
    registerPlaneCommand(ctx, 'fleet.drain', 'Fleet: Drain', async (arg) => {
      if (already(ctx, 'drain')) return;
      const reason = await askReason('drain', arg);
      if (reason !== undefined) await move('drain', arg, reason || undefined);
    }),
    registerPlaneCommand(ctx, 'fleet.resume', 'Fleet: Resume', async (arg) => {
      if (!already(ctx, 'run')) await move('run', arg);
    }),
    registerPlaneCommand(ctx, 'fleet.stop', 'Fleet: Stop', async (arg) => {
      if (already(ctx, 'stop')) return;
      const reason = await askReason('stop', arg);
      if (reason === undefined) return;
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
      await move('stop', arg, reason || undefined);
    }),
  ];
}

/**
 * The switch is there already: said, not moved again (the four commands stay in the palette in
 * every state, so "Fleet: Pause" + Enter never falls through to another command).
 */
function already(ctx: FleetContext, state: ControlState): boolean {
  const control = ctx.state?.control;
  if (control?.state !== state) return false;
  void vscode.window.showInformationMessage(`The fleet is already ${WORD[state]} (set by ${control.setBy} at ${new Date(control.setAt).toLocaleTimeString()}${control.reason ? `: ${control.reason}` : ''}).`);
  return true;
}

/** The reason passed, else the one the operator types ('' when skipped), undefined when cancelled. */
async function askReason(state: ControlState, arg: unknown): Promise<string | undefined> {
  const passed = text(arg, 'reason');
  if (passed !== undefined) return passed;
  const typed = await vscode.window.showInputBox({
    title: `Fleet: ${state[0]!.toUpperCase()}${state.slice(1)}`,
    prompt: `Why is the fleet set to ${state}? Agents and the digest show your reason (optional: Enter to skip, Escape to cancel).`,
    placeHolder: 'e.g. reviewing the night\'s merges',
    validateInput: (value) => (value.length > REASON_MAX ? `At most ${REASON_MAX} characters` : undefined),
  });
  return typed?.trim();
}
