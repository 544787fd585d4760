// The command palette and the theme picker as a person uses them: F1, type, read what VS Code
// ranks first, press Enter.
import type { Page } from 'playwright-core';

const WIDGET = '.quick-input-widget';

// The function handed to page.waitForFunction runs in the page (the project compiles without DOM types).
interface PageElement {
  textContent: string | null;
  value?: string;
  querySelector(selector: string): PageElement | null;
}
declare const document: { querySelector(selector: string): PageElement | null; querySelectorAll(selector: string): ArrayLike<PageElement> };

/** Opens the palette, types `text`, and resolves with the labels VS Code lists, best first, once they are filtered. */
export async function paletteMatches(page: Page, text: string): Promise<string[]> {
  const input = page.locator(`${WIDGET} input`).first();
  // F1 pressed while a quick input is still closing, or while a webview holds the keyboard, can be
  // lost under a busy fleet (seen once in CI-like runs): press it again, as a person would, 3 times.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await input.fill(`>${text}`);
  const handle = await page.waitForFunction(
    ({ widget, typed }) => {
      const field = document.querySelector(`${widget} input`);
      if (field?.value !== typed) return undefined;
      const labels = Array.from(document.querySelectorAll(`${widget} .monaco-list-row .label-name`)).map((label) => label.textContent?.trim() ?? '');
      return labels.length > 0 && labels.every((label) => label.length > 0) ? labels : undefined;
    },
    { widget: WIDGET, typed: `>${text}` },
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as string[];
}

/** Runs the command the palette ranks first for `text` (what Enter does). */
export async function runFromPalette(page: Page, text: string): Promise<string> {
  const [first] = await paletteMatches(page, text);
  await page.keyboard.press('Enter');
  return first!;
}

export async function closeQuickInput(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator(`${WIDGET}:visible`).first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Answers the input box a command opened (its prompt containing `prompt`) with `answer`. */
export async function answerInputBox(page: Page, prompt: RegExp, answer: string): Promise<void> {
  await page.locator(WIDGET, { hasText: prompt }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.locator(`${WIDGET} input`).first().fill(answer);
  await page.keyboard.press('Enter');
}

/** Switches the colour theme through "Preferences: Color Theme", as a person does. */
export async function setColorTheme(page: Page, theme: string): Promise<void> {
  const input = page.locator(`${WIDGET} input[placeholder*="Theme"]:visible`).first();
  // The click on the command can be lost like F1 under a busy fleet (seen in a full run): again, 3 times.
  for (let attempt = 1; ; attempt++) {
    // VS Code ranks "Preferences: Browse Color Themes in Marketplace" first (alphabetical): pick the row by its label.
    await paletteMatches(page, 'Preferences: Color Theme');
    await page.locator(`${WIDGET} .monaco-list-row:visible`, { has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }) }).first().click();
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await input.fill(theme);
  await page.locator(`${WIDGET} .monaco-list-row.focused .label-name:visible`, { hasText: new RegExp(`^${theme}$`) }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.locator(`${WIDGET}:visible`).first().waitFor({ state: 'hidden', timeout: 10_000 });
}
