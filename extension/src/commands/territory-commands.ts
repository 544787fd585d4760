import * as vscode from 'vscode';
import type { ViewClaim } from '../../../contracts/lsp.js';
import type { FleetContext } from '../fleet-context.js';
import type { OwnershipCache } from '../ownership-cache.js';
import type { TerritoryView } from '../views/territory-view.js';
import { flag, option, showCommandError, text } from './command-args.js';
import { ensureJoined } from './operator-commands.js';
import { registerPlaneCommand } from './plane-required.js';

const MAX_REVEALED_FILES = 500;

/** Claim Current File, Release, Reveal Claimed Files and Request Handoff. */
export function registerTerritoryCommands(ctx: FleetContext, territory: TerritoryView, ownership: OwnershipCache): vscode.Disposable[] {
  return [
    registerPlaneCommand(ctx, 'fleet.claimFile', 'Fleet: Claim Current File', (arg) => claimFile(ctx, arg)),
    registerPlaneCommand(ctx, 'fleet.releaseClaim', 'Fleet: Release', (arg) => releaseClaim(ctx, arg)),
    vscode.commands.registerCommand('fleet.revealClaim', (arg?: unknown) => revealClaim(ctx, territory, arg)),
    registerPlaneCommand(ctx, 'fleet.requestHandoff', 'Fleet: Request Handoff of Current File', (arg) => requestHandoff(ctx, ownership, arg)),
  ];
}

/** Argument: `{ claimId, path? }` (the code action), or none: the holder of the active editor's file. */
async function requestHandoff(ctx: FleetContext, ownership: OwnershipCache, arg: unknown): Promise<void> {
  let claimId = text(arg, 'claimId');
  let path = text(arg, 'path');
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (!claimId && uri) {
    const owned = await ownership.lookup(uri);
    const holder = owned?.holders.find((candidate) => !candidate.mine);
    claimId = holder?.claimId;
    path = owned?.path;
  }
  if (!claimId) {
    void vscode.window.showInformationMessage('No other agent holds this file: there is nothing to ask for.');
    return;
  }
  try {
    const sent = await ctx.request('fleet/requestHandoff', { claimId, ...(path !== undefined && { path }) });
    void vscode.window.showInformationMessage(`Asked ${sent.to} to hand off ${path ?? 'its claim'}: the request is in ${sent.to}'s inbox.`);
  } catch (error) {
    showCommandError(ctx, 'The handoff request was not sent', error);
  }
}

/** Argument: a Uri (Explorer, editor title), a URI string (code action), `{ uri }`, or none: the active editor. */
async function claimFile(ctx: FleetContext, arg: unknown): Promise<void> {
  const given = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.parse(arg) : text(arg, 'uri') ? vscode.Uri.parse(text(arg, 'uri')!) : undefined;
  const uri = given ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') {
    void vscode.window.showInformationMessage('Open a file of the workspace to claim it.');
    return;
  }
  try {
    if (!(await ensureJoined(ctx))) return;
    const result = await ctx.request('fleet/claimFile', { uri: uri.toString(), ...(text(arg, 'reason') && { reason: text(arg, 'reason')! }) });
    if (result.granted) {
      vscode.window.setStatusBarMessage(`$(lock) Claimed ${result.path}`, 4000);
    } else if (result.refusedBy === 'control') {
      void vscode.window.showWarningMessage(`The fleet is ${result.control.state === 'stop' ? 'stopped' : 'paused'}: new claims are refused until it resumes.`);
    } else {
      const holders = result.conflicts.map((conflict) => `${conflict.holder} (${conflict.heldPattern}, ${conflict.mode})`).join(', ');
      void vscode.window.showWarningMessage(`${result.path} is already held by ${holders}.`);
    }
  } catch (error) {
    showCommandError(ctx, `Claiming ${vscode.workspace.asRelativePath(uri)} failed`, error);
  }
}

/** Argument: a Territory tree node, `{ claimId, confirmed? }`, or none: pick one. */
async function releaseClaim(ctx: FleetContext, arg: unknown): Promise<void> {
  const claim = (await pickClaim(ctx, arg)) ?? undefined;
  if (!claim) return;
  const mine = claim.agentId === ctx.state?.operator?.agentId;
  if (!mine && !flag(arg, 'confirmed')) {
    const release = `Release ${claim.holder}'s Claim`;
    const choice = await vscode.window.showWarningMessage(
      `Release ${claim.holder}'s claim on ${claim.pattern}?`,
      { modal: true, detail: `${claim.holder} may be in the middle of changing these files. The plane records that you released it, and why.` },
      release,
    );
    if (choice !== release) return;
  }
  try {
    const result = await ctx.request('fleet/releaseClaim', { claimId: claim.id });
    vscode.window.setStatusBarMessage(`$(unlock) Released ${claim.pattern}${result.forced ? ` (held by ${claim.holder})` : ''}`, 4000);
  } catch (error) {
    showCommandError(ctx, `Releasing ${claim.pattern} failed`, error);
  }
}

async function pickClaim(ctx: FleetContext, arg: unknown): Promise<ViewClaim | undefined> {
  const claims = ctx.state?.claims ?? [];
  const node = option(arg, 'claim');
  const id = text(arg, 'claimId') ?? (typeof node === 'object' && node !== null ? (node as ViewClaim).id : undefined);
  if (id !== undefined) {
    const found = claims.find((claim) => claim.id === id);
    if (found) return found;
    // Not in the view yet (or already gone): the plane decides, and says so if it has ended.
    return { id, holder: 'its holder', pattern: 'that claim', agentId: '' } as ViewClaim;
  }
  const mine = ctx.state?.operator?.agentId;
  const items = [...claims]
    .sort((a, b) => Number(b.agentId === mine) - Number(a.agentId === mine) || a.holder.localeCompare(b.holder))
    .map((claim) => ({ label: claim.pattern, description: `${claim.holder}${claim.agentId === mine ? ' (you)' : ''} · ${claim.mode}`, detail: claim.reason, claim }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No claims are live.');
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: 'Fleet: Release a claim', placeHolder: 'Your claims first; releasing another agent\'s claim asks for confirmation' }))?.claim;
}

/** Shows the claim in the Territory view and offers the files it covers. Argument: `{ claimId }`. */
async function revealClaim(ctx: FleetContext, territory: TerritoryView, arg: unknown): Promise<void> {
  const claim = ctx.state?.claims.find((candidate) => candidate.id === text(arg, 'claimId'));
  if (!claim) {
    void vscode.window.showInformationMessage('That claim has already ended.');
    return;
  }
  await territory.reveal(claim.id);
  if (!claim.root) {
    void vscode.window.showInformationMessage(`${claim.holder}'s claim ${claim.pattern} is in a repository this window does not have open.`);
    return;
  }
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(claim.root), claim.pattern), null, MAX_REVEALED_FILES);
  const items = files
    .map((file) => ({ label: vscode.workspace.asRelativePath(file), uri: file }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick(items, {
    title: `${claim.holder} holds ${claim.pattern} (${claim.mode})`,
    placeHolder: items.length === 0 ? 'No existing file matches yet' : `${items.length}${items.length === MAX_REVEALED_FILES ? '+' : ''} file(s): pick one to open`,
  });
  if (picked) await vscode.window.showTextDocument(picked.uri, { preview: true });
}
