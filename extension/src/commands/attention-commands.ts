import * as vscode from 'vscode';
import type { Decision, WorkItem } from '../../../contracts/index.js';
import { lspRequests, type LspRequestParams } from '../../../contracts/lsp.js';
import type { AttentionEntry, AttentionKind } from '../attention/attention-entries.js';
import type { FleetContext } from '../fleet-context.js';
import type { AttentionNode, AttentionView } from '../views/attention-view.js';
import { flag, option, showCommandError, text } from './command-args.js';
import { registerPlaneCommand } from './plane-required.js';

type Disposition = Decision['disposition'];

/** The longest reason code and note the plane takes (contracts: a line, a summary). */
const decisionShape = lspRequests['fleet/updateWork'].params.options[0].shape.decision.shape;
const REASON_MAX = decisionShape.reasonCode.maxLength ?? 200;
const NOTE_MAX = decisionShape.note.unwrap().maxLength ?? 5000;

/** Reason codes offered per disposition (the operator may type another). */
const REASON_CODES: Record<Exclude<Disposition, 'escalate'>, string[]> = {
  accept: ['verified', 'accepted-with-notes'],
  rework: ['criteria-not-met', 'tests-missing', 'scope-changed', 'needs-clarification'],
  rollback: ['broke-the-build', 'wrong-approach', 'no-longer-wanted'],
};

/**
 * The actions of the Needs You view, also in the palette (a pick of what they apply to) and for
 * tests and other extensions (an options object: `{ itemId | agentId, option, rationale, reason,
 * note, disposition, confirmed }`). Every decision cites what it rests on (invariant 8): accept
 * the verification report; send back and roll back the report or the build; where there is none,
 * the operator's note.
 */
export function registerAttentionCommands(ctx: FleetContext, view: AttentionView): vscode.Disposable[] {
  const act = (command: string, title: string, kinds: AttentionKind[], run: (entry: AttentionEntry, arg: unknown) => Promise<void>) =>
    registerPlaneCommand(ctx, command, title, async (arg) => {
      const entry = await target(view, arg, kinds, title);
      if (!entry) return;
      try {
        await run(entry, arg);
      } catch (error) {
        showCommandError(ctx, `${title} failed`, error);
      }
    });
  const update = async (params: LspRequestParams<'fleet/updateWork'>, done: string) => {
    const result = await ctx.request('fleet/updateWork', params);
    vscode.window.setStatusBarMessage(`$(check) ${done}: now ${result.status}`, 5000);
  };
  return [
    act('fleet.attention.accept', 'Fleet: Accept', ['decision'], async (entry, arg) => {
      const item = workOf(ctx, entry);
      const report = item.report?.artifactId;
      if (!report) throw new Error(`${item.title} has no verification report to accept on`);
      await update({ id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: text(arg, 'reason') ?? 'verified', refs: [report], ...note(arg) } }, `${item.title} accepted`);
    }),
    act('fleet.attention.sendBack', 'Fleet: Send Back', ['decision', 'escalated', 'question'], async (entry, arg) => {
      const item = workOf(ctx, entry);
      const why = text(arg, 'note') ?? (await askText(`Send back “${item.title}”`, 'What must change? The builder reads it with the decision.', NOTE_MAX));
      if (why === undefined) return;
      await update({ id: item.id, action: 'decide', decision: { disposition: 'rework', reasonCode: text(arg, 'reason') ?? 'sent-back', refs: judged(item), note: why } }, `${item.title} sent back`);
    }),
    act('fleet.attention.decide', 'Fleet: Decide', ['decision', 'escalated', 'question'], async (entry, arg) => {
      const item = workOf(ctx, entry);
      const disposition = (text(arg, 'disposition') as Disposition | undefined) ?? (await pickDisposition(item));
      if (!disposition || disposition === 'escalate') return;
      const reason = text(arg, 'reason') ?? (await pickReason(disposition));
      if (reason === undefined) return;
      const refs = disposition === 'accept' ? (item.report?.artifactId ? [item.report.artifactId] : []) : judged(item);
      // Nothing to cite: the operator's note is what the decision rests on.
      const said = text(arg, 'note') ?? (await askText(`${disposition}: “${item.title}”`, refs.length > 0 ? 'A note for the builder and the record (optional: Enter to skip).' : 'Nothing to cite yet: say what the decision rests on.', NOTE_MAX, refs.length > 0));
      if (said === undefined) return;
      await update({ id: item.id, action: 'decide', decision: { disposition, reasonCode: reason, refs, ...(said !== '' && { note: said }) } }, `${item.title}: ${disposition}`);
    }),
    act('fleet.attention.answer', 'Fleet: Answer', ['question', 'clarification'], async (entry, arg) => {
      const question = entry.question!;
      const chosen = chosenOption(question.options, arg) ?? (await pickOption(question.question, question.options));
      if (chosen === undefined) return;
      const rationale = text(arg, 'rationale') ?? (await askText(`Answer: ${chosen}`, `Why? ${question.askedBy} reads it with your answer.`, NOTE_MAX));
      if (rationale === undefined) return;
      await update({ id: entry.itemId!, action: 'answer', requestId: question.id, chosen, rationale, updatedConstraints: [] }, `Answered ${question.askedBy}`);
    }),
    act('fleet.attention.showReason', 'Fleet: Show Why It Could Not Land', ['landing'], async (entry) => {
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: landingReport(ctx, entry) });
      await vscode.window.showTextDocument(document, { preview: true });
    }),
    act('fleet.attention.release', 'Fleet: Release Claims', ['waiting', 'question', 'escalated'], async (entry, arg) => {
      const agentId = entry.agentId ?? agentIdOf(ctx, workOf(ctx, entry).assignee);
      const claims = (ctx.state?.claims ?? []).filter((claim) => claim.agentId === agentId);
      const holder = claims[0]?.holder ?? 'this agent';
      if (claims.length === 0) return void vscode.window.showInformationMessage(`${holder} holds no claims.`);
      if (!flag(arg, 'confirmed')) {
        const release = `Release ${claims.length} Claim(s)`;
        const choice = await vscode.window.showWarningMessage(`Release ${holder}'s claims?`, { modal: true, detail: `${claims.map((c) => c.pattern).join(', ')}\n\nOther agents may then take these paths; ${holder} is told by the plane's record.` }, release);
        if (choice !== release) return;
      }
      for (const claim of claims) await ctx.request('fleet/releaseClaim', { claimId: claim.id });
      vscode.window.setStatusBarMessage(`$(unlock) Released ${claims.length} claim(s) of ${holder}`, 5000);
    }),
  ];
}

/** The entry a command acts on: the row it was run from, the one named in the options, else the person's pick. */
async function target(view: AttentionView, arg: unknown, kinds: AttentionKind[], title: string): Promise<AttentionEntry | undefined> {
  const fits = (entry: AttentionEntry | undefined) => (entry && kinds.includes(entry.kind) ? entry : undefined);
  if (isNode(arg)) return fits(view.entry(arg.entry.key));
  const itemId = option(arg, 'itemId');
  const agentId = option(arg, 'agentId');
  if (typeof itemId === 'string' || typeof agentId === 'string') {
    const key = typeof itemId === 'string' ? `work:${itemId}` : `agent:${String(agentId)}`;
    const entry = fits(view.entry(key));
    if (!entry) void vscode.window.showWarningMessage(`${title}: ${key.slice(key.indexOf(':') + 1)} does not wait for this action now.`);
    return entry;
  }
  const candidates = view.list.filter((entry) => kinds.includes(entry.kind));
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`${title}: nothing waits for it now.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((entry) => ({ label: entry.label, description: entry.description, entry })),
    { title, placeHolder: 'Which one?', matchOnDescription: true },
  );
  return picked?.entry;
}

function isNode(arg: unknown): arg is Extract<AttentionNode, { kind: 'entry' }> {
  return typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'entry' && 'entry' in arg;
}

function workOf(ctx: FleetContext, entry: AttentionEntry): WorkItem {
  const item = entry.itemId !== undefined ? ctx.records?.workItem(entry.itemId) : undefined;
  if (!item) throw new Error(`${entry.label} is no work item the window knows now`);
  return item;
}

/** Why the train could not land an item (or its revert), with the build's output it left with. */
function landingReport(ctx: FleetContext, entry: AttentionEntry): string {
  const onTrain = [...ctx.trains].flatMap((train) => train.entries).find((e) => e.itemId === entry.itemId && e.reason !== undefined);
  const lines = [`# ${entry.label} (${entry.itemId ?? ''})`, '', entry.description, '', `Reason: ${entry.reason ?? onTrain?.reason ?? 'none recorded'}`, ''];
  for (const detail of entry.details) lines.push(`- ${detail.label}: ${detail.description ?? ''}`);
  if (onTrain?.logTail) lines.push('', "## The build's output (its tail)", '', '```text', onTrain.logTail, '```');
  return `${lines.join('\n')}\n`;
}

function agentIdOf(ctx: FleetContext, callsign: string | undefined): string | undefined {
  return callsign === undefined ? undefined : ctx.state?.agents.find((agent) => agent.callsign === callsign)?.agentId;
}

/** What a send back or roll back rests on: the report that judged the work, else the build itself. */
function judged(item: WorkItem): string[] {
  const id = item.report?.artifactId ?? item.artifact?.artifactId;
  return id !== undefined ? [id] : [];
}

function note(arg: unknown): { note?: string } {
  const given = text(arg, 'note');
  return given !== undefined ? { note: given } : {};
}

/** `option` as given: the option's text, or its number (1-based). */
function chosenOption(options: string[], arg: unknown): string | undefined {
  const given = option(arg, 'option');
  if (typeof given === 'number') return options[given - 1];
  return typeof given === 'string' && given !== '' ? given : undefined;
}

async function pickOption(question: string, options: string[]): Promise<string | undefined> {
  if (options.length === 0) return askText('Answer', question, 1000);
  const picked = await vscode.window.showQuickPick(
    options.map((label, index) => ({ label, description: `option ${index + 1}` })),
    { title: question, placeHolder: 'Pick the answer: the asker goes on with it' },
  );
  return picked?.label;
}

async function pickDisposition(item: WorkItem): Promise<Disposition | undefined> {
  const choices: { label: string; disposition: Disposition; detail: string }[] = [
    ...(item.status === 'verified' ? [{ label: '$(pass) Accept', disposition: 'accept' as const, detail: 'Done: cites the verification report' }] : []),
    { label: '$(debug-restart) Send back (rework)', disposition: 'rework', detail: 'The builder works on it again: cites the report or the build' },
    { label: '$(discard) Roll back', disposition: 'rollback', detail: 'Back to the commit it started from' },
  ];
  return (await vscode.window.showQuickPick(choices, { title: `Decide “${item.title}”` }))?.disposition;
}

async function pickReason(disposition: Exclude<Disposition, 'escalate'>): Promise<string | undefined> {
  const other = 'Another reason…';
  const picked = await vscode.window.showQuickPick([...REASON_CODES[disposition], other], { title: `Reason code for ${disposition}` });
  if (picked !== other) return picked;
  return askText('Reason code', 'One short code the record and the digest show, e.g. "criteria-not-met".', REASON_MAX);
}

/** A line the person types; undefined when cancelled; '' only when `optional`. */
function askText(title: string, prompt: string, max: number, optional = false): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt,
    validateInput: (value) => (value.length > max ? `At most ${max} characters` : !optional && value.trim() === '' ? 'Required: say why' : undefined),
  }).then((value) => value?.trim());
}
