import { z } from 'zod';

/** Absolute path of (a directory inside) a git repository; the plane resolves it to the repository. */
export const rootParam = z
  .string()
  .min(1)
  .optional()
  .describe('Absolute path inside the git repository the paths or patterns belong to. Required over WebSocket; the CLI and MCP bridge default it to the working directory.');

export const noParams = z.strictObject({});

export const isoTime = z.iso.datetime();
