import * as vscode from 'vscode';
import { callsignPattern, callsignRule } from '../../../contracts/index.js';
import type { FleetContext } from '../fleet-context.js';
import { showCommandError, text } from './command-args.js';
import { registerPlaneCommand } from './plane-required.js';

/** Join as Operator, Connect to the Plane, Show Log, Show Digest. */
export function registerOperatorCommands(ctx: FleetContext): vscode.Disposable[] {
  return [
    registerPlaneCommand(ctx, 'fleet.joinAsOperator', 'Fleet: Join as Operator', async (arg) => {
      try {
        await joinAsOperator(ctx, text(arg, 'callsign'));
      } catch (error) {
        showCommandError(ctx, 'Joining as operator failed', error);
      }
    }),
    vscode.commands.registerCommand('fleet.startPlane', async () => {
      try {
        await ctx.request('fleet/reconnect', { start: true });
      } catch {
        await ctx.restart(); // the language server itself is gone: start it again, it starts the plane
      }
    }),
    vscode.commands.registerCommand('fleet.showLog', () => ctx.log.show()),
  ];
}

/** Joins the roster as the person (role operator); the callsign is asked for unless given. */
export async function joinAsOperator(ctx: FleetContext, given?: string): Promise<boolean> {
  const callsign =
    given ??
    (await vscode.window.showInputBox({
      title: 'Fleet: Join as Operator',
      prompt: 'Your callsign on the roster. Claims you make belong to it; the plane records it on what you do.',
      value: ctx.joinedAs ?? ctx.config.operatorCallsign,
      validateInput: (value) => (callsignPattern.test(value) ? undefined : `${callsignRule}.`),
    }));
  if (!callsign) return false;
  const joined = await ctx.request('fleet/joinAsOperator', { callsign });
  await ctx.rememberOperator(joined.callsign);
  vscode.window.setStatusBarMessage(`$(person) On the roster as ${joined.callsign} (operator)`, 4000);
  return true;
}

/** Claims belong to agents: offers to join first when the person has not. */
export async function ensureJoined(ctx: FleetContext): Promise<boolean> {
  if (ctx.state?.operator) return true;
  const join = `Join as ${ctx.joinedAs ?? ctx.config.operatorCallsign}`;
  const choice = await vscode.window.showInformationMessage('Claims belong to agents on the roster: join it as the operator first.', join, 'Choose a Callsign…');
  if (choice === join) return joinAsOperator(ctx, ctx.joinedAs ?? ctx.config.operatorCallsign);
  if (choice === 'Choose a Callsign…') return joinAsOperator(ctx);
  return false;
}
