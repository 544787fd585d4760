// The text a webview view shows. VS Code nests each webview in two iframes; this finds the frame
// whose document holds `selector` and returns its text once it contains `expected`.
import type { Page } from 'playwright-core';

export async function webviewText(page: Page, selector: string, expected: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const text = await frame
        .locator(selector)
        .first()
        .innerText({ timeout: 200 })
        .catch(() => undefined);
      if (text === undefined) continue;
      last = text;
      if (text.includes(expected)) return text;
    }
    await page.waitForTimeout(100); // frames come and go; look again on the next tick
  }
  throw new Error(`no webview ${selector} showed "${expected}" within ${timeoutMs} ms; last seen:\n${last}`);
}

/** Clicks the `button` whose text is `label` in the webview frame that holds `selector`. */
export async function clickInWebview(page: Page, selector: string, button: string, label: string): Promise<void> {
  for (const frame of page.frames()) {
    const target = frame.locator(`${selector} ${button}`, { hasText: label }).first();
    if (!(await target.isVisible().catch(() => false))) continue; // the folded Digest view's frame, or another webview
    await target.click();
    return;
  }
  throw new Error(`no webview on screen shows ${selector} ${button} "${label}"`);
}
