// Debian's Chromium driven by playwright-core (no browser download possible here), with a fresh profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { onProcessExit } from './processes.js';

export const CHROMIUM_PATH = process.env.FLEET_CHROMIUM_PATH || '/usr/bin/chromium';

// Without the networking flags Chromium keeps dialing hosts this offline machine refuses.
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchChromium(opts: { headless?: boolean; tempDir?: string } = {}): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(opts.tempDir ?? tmpdir(), 'fleet-chromium-'));
  // Playwright kills the browser when this process exits; the profile is ours to remove.
  const removeProfile = () => rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  const disarm = onProcessExit(removeProfile);
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: opts.headless ?? true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
      timeout: 60_000,
    });
  } catch (err) {
    disarm();
    removeProfile();
    throw err;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  return {
    context,
    page,
    close: async () => {
      if (closed) return;
      closed = true;
      // close() can hang on a wedged renderer; the profile is removed either way.
      await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 10_000).unref())]);
      disarm();
      removeProfile();
    },
  };
}
