import { CodeActionKind, CodeActionTriggerKind, DiagnosticSeverity, type CodeActionContext, MarkupKind, type CodeAction, type CodeLens, type Diagnostic, type Hover } from 'vscode-languageserver/node';
import type { Ownership } from '../../contracts/lsp.js';
import { hoverMarkdown, lensTitle, otherHolders, territoryMessage } from './describe.js';

/** The editor features built from a file's ownership; the server decides when to send them. */

export const DIAGNOSTIC_SOURCE = 'Fleet';
export const TERRITORY_CODE = 'fleet.territory';
export const CLAIM_ACTION_KIND = `${CodeActionKind.Source}.fleet.claimFile`;

const FIRST_LINE = { start: { line: 0, character: 0 }, end: { line: 0, character: 2 ** 31 - 1 } };

/** A diagnostic on a file another agent holds; none for free files or the operator's own. */
export function territoryDiagnostics(ownership: Ownership | null): Diagnostic[] {
  if (!ownership || otherHolders(ownership).length === 0) return [];
  return [
    {
      range: FIRST_LINE,
      severity: ownership.blocked ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information,
      source: DIAGNOSTIC_SOURCE,
      code: TERRITORY_CODE,
      message: territoryMessage(ownership),
      data: { holders: otherHolders(ownership).map((holder) => holder.callsign) },
    },
  ];
}

/** The hover sits on the first line, beside the diagnostic and the CodeLens. */
export function territoryHover(ownership: Ownership | null, line: number): Hover | null {
  if (!ownership || line !== 0) return null;
  return { contents: { kind: MarkupKind.Markdown, value: hoverMarkdown(ownership) }, range: FIRST_LINE };
}

export function territoryLenses(ownership: Ownership | null): CodeLens[] {
  if (!ownership) return [];
  const first = otherHolders(ownership)[0] ?? ownership.holders[0]!;
  return [{ range: FIRST_LINE, command: { title: lensTitle(ownership), command: 'fleet.revealClaim', arguments: [{ claimId: first.claimId }] } }];
}

/**
 * Claim this file when nobody holds it: a quick fix when the person asks for actions (Ctrl+., the
 * Quick Fix menu), a source action in the Source Action menu, and nothing when the editor asks on
 * its own (no light bulb on every free file). On a file another agent holds, show its territory,
 * or ask its holder to hand it over (a REQUEST in the holder's inbox; the holder decides).
 */
export function territoryActions(uri: string, ownership: Ownership | null, { diagnostics, only, triggerKind }: CodeActionContext): CodeAction[] {
  if (!ownership) {
    const kind = only?.some((wanted) => wanted.startsWith(CodeActionKind.Source)) ? CLAIM_ACTION_KIND : triggerKind === CodeActionTriggerKind.Automatic ? undefined : CodeActionKind.QuickFix;
    return kind ? [{ title: 'Fleet: Claim this file', kind, command: { title: 'Claim this file', command: 'fleet.claimFile', arguments: [uri] } }] : [];
  }
  const others = otherHolders(ownership);
  if (others.length === 0) return [];
  const owner = others[0]!;
  const ours = diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE && diagnostic.code === TERRITORY_CODE);
  return [
    {
      title: `Fleet: Show ${owner.callsign}'s territory`,
      kind: CodeActionKind.QuickFix,
      diagnostics: ours,
      command: { title: 'Show territory', command: 'fleet.revealClaim', arguments: [{ claimId: owner.claimId }] },
    },
    {
      title: `Fleet: Ask ${owner.callsign} to hand off ${ownership.path}`,
      kind: CodeActionKind.QuickFix,
      diagnostics: ours,
      command: { title: 'Request handoff', command: 'fleet.requestHandoff', arguments: [{ claimId: owner.claimId, path: ownership.path }] },
    },
  ];
}
