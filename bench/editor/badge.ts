// Claim granted → Explorer badge painted, read from the real workbench page the way a person sees
// it: the page-side MutationObserver of the UI test (test/vscode/support/explorer-page.ts) stamps
// the first animation frame after the badge text changed; the bench stamps the claim's reply.
import type { Page } from 'playwright-core';
import { armBadgeWatch, badgeSeenAt, waitForExplorerRow } from '../../test/vscode/support/explorer-page.js';
import type { RawClient } from '../lib/raw-client.js';

/** A pause after each change, so each claim meets an idle window, not the tail of the last one. */
const SETTLE_MS = 100;

/** Opens the Explorer and expands `folders` (one per tree level) until the row `label` shows. */
export async function revealInExplorer(page: Page, folders: readonly string[], label: string): Promise<void> {
  if (!(await page.locator('.explorer-folders-view').first().isVisible())) {
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
  }
  for (const [depth, folder] of folders.entries()) {
    // aria-level tells apart folders of the same name at different depths (src/ and pkg-00/src/).
    const row = page
      .locator(`.explorer-folders-view .monaco-list-row[aria-level="${depth + 1}"]`, { has: page.locator('.label-name', { hasText: new RegExp(`^${folder}$`) }) })
      .first();
    await row.waitFor({ timeout: 60_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  }
  await waitForExplorerRow(page, label, 60_000);
}

/** One claim of the probe file, in Date.now() time (one clock for the bench, the page and VS Code). */
export interface BadgeCycle {
  sentAt: number;
  grantedAt: number;
  paintedAt: number;
}

/**
 * `cycles` times: claim `path` and time until its row shows `mark`; release and wait for it to go.
 * Each cycle goes into `samples` as it ends, so the cycles before a failure are kept.
 */
export async function badgeLatencies(page: Page, agent: RawClient, root: string, probe: { path: string; label: string; mark: string }, cycles: number, samples: BadgeCycle[] = []): Promise<BadgeCycle[]> {
  for (let cycle = 0; cycle < cycles; cycle++) {
    await armBadgeWatch(page, probe.label, probe.mark);
    const sentAt = Date.now();
    const result = await agent.call<{ granted: boolean }>('fleet_claim_path', { patterns: [probe.path], root, reason: 'editor benchmark' });
    const grantedAt = Date.now();
    if (!result.granted) throw new Error(`the probe claim of ${probe.path} was refused`);
    samples.push({ sentAt, grantedAt, paintedAt: await badgeSeenAt(page, 20_000) });
    await page.waitForTimeout(SETTLE_MS);
    await armBadgeWatch(page, probe.label, '');
    await agent.call('fleet_release_path', { patterns: [probe.path], root });
    await badgeSeenAt(page, 20_000);
    await page.waitForTimeout(SETTLE_MS);
  }
  return samples;
}
