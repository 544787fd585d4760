// What a person sees in the VS Code page, read from the DOM: Explorer rows and their decoration
// badges (VS Code draws a badge as the ::after content of a generated CSS class on the row label).
import type { Page } from 'playwright-core';

// The functions handed to page.evaluate run in the page. The project compiles without the DOM
// library, so the few page globals they use are declared here, in this module only.
interface PageElement {
  textContent: string | null;
  querySelector(selector: string): PageElement | null;
}
declare const document: { querySelector(selector: string): PageElement | null; querySelectorAll(selector: string): ArrayLike<PageElement>; body: PageElement };
declare const window: object;
declare function getComputedStyle(element: PageElement, pseudo: string): { content: string };
declare function requestAnimationFrame(callback: () => void): number;
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: PageElement, options: object): void;
  disconnect(): void;
}

/** Resolves once the Explorer shows a row labelled `file`. */
export async function waitForExplorerRow(page: Page, file: string, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (name) => Array.from(document.querySelectorAll('.explorer-folders-view .label-name')).some((label) => label.textContent?.trim() === name),
    file,
    { timeout: timeoutMs },
  );
}

/** The badge text on the Explorer row of `file` ('' when none, null when the row is not shown). */
export function explorerBadge(page: Page, file: string): Promise<string | null> {
  return page.evaluate(readBadge, file);
}

/** Resolves (in the page) with Date.now() at the first animation frame after the badge reads `want` (alone, or among other providers' badges). */
export async function armBadgeWatch(page: Page, file: string, want: string): Promise<void> {
  await page.evaluate(
    ({ file, want, readBadgeSource }) => {
      const read = new Function(`return (${readBadgeSource})`)() as (file: string) => string | null;
      const root = document.querySelector('.explorer-folders-view') ?? document.body;
      (window as unknown as { fleetBadgeSeen: Promise<number> }).fleetBadgeSeen = new Promise<number>((resolve) => {
        const check = () => {
          // VS Code joins the badges of several providers into one ("M, BO" once git sees a change).
          const badge = read(file);
          if (badge !== want && (want === '' || !badge?.split(', ').includes(want))) return;
          observer.disconnect();
          requestAnimationFrame(() => resolve(Date.now()));
        };
        const observer = new MutationObserver(check);
        observer.observe(root, { subtree: true, attributes: true, childList: true, characterData: true });
        check();
      });
    },
    { file, want, readBadgeSource: readBadge.toString() },
  );
}

export function badgeSeenAt(page: Page, timeoutMs = 10_000): Promise<number> {
  return page.evaluate(
    (timeout) =>
      Promise.race([
        (window as unknown as { fleetBadgeSeen: Promise<number> }).fleetBadgeSeen,
        new Promise<number>((_, reject) => setTimeout(() => reject(new Error('the badge did not change in time')), timeout)),
      ]),
    timeoutMs,
  );
}

/** Runs in the page: finds the Explorer row whose label is `file` and reads its badge. */
function readBadge(file: string): string | null {
  const rows = Array.from(document.querySelectorAll('.explorer-folders-view .monaco-list-row'));
  const row = rows.find((candidate) => candidate.querySelector('.label-name')?.textContent?.trim() === file);
  if (!row) return null;
  const badged = row.querySelector('[class*="monaco-decoration-itemBadge-"]');
  if (!badged) return '';
  const content = getComputedStyle(badged, '::after').content;
  return content === 'none' || content === 'normal' ? '' : content.replace(/^"|"$/g, '');
}
