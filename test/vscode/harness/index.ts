export * from './engines.js';
export { startServer, type VSCodeServer, type StartServerOptions } from './server.js';
export { launchChromium, CHROMIUM_PATH, type LaunchedBrowser } from './browser.js';
export * from './workbench.js';
export * from './run-tests.js';
