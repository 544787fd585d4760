import { z } from 'zod';
import { boundedList, boundedText, limits } from '../limits.js';
import { callsignSchema, claimModeSchema } from '../records.js';

/** A file or directory path, absolute or relative to the repository root. */
export const pathParam = boundedText(limits.path).min(1);

/** A glob over repository-relative paths (DESIGN §4). */
export const patternParam = boundedText(limits.pattern).min(1);

/** Absolute path of (a directory inside) a git repository; the plane resolves it to the repository. */
const rootParam = pathParam
  .optional()
  .describe('Absolute path inside the git repository the paths or patterns belong to. Required over WebSocket; the CLI and MCP bridge default it to the working directory.');

/** A repository's portable id (DESIGN §13): its fleet.scope, or its origin URL in any form. */
export const scopeParam = boundedText(limits.path)
  .min(1)
  .optional()
  .describe(
    "The repository's id, the same on every machine: its git config fleet.scope, or its origin URL in any form (git@host:org/repo.git, https://host/org/repo). For agents without a local checkout: paths and patterns are then relative to the repository root. With root too, both must name the same repository.",
  );

/** Where the paths of a call belong: every method that takes `root` takes `scope` too. */
export const repositoryParams = { root: rootParam, scope: scopeParam };

/** An id the plane issued (claim, message, handoff, work item) or a client's own request id. */
export const idParam = boundedText(limits.id).min(1);

/** Ids of one call, e.g. the claims to renew or release. */
export const idsParam = boundedList(idParam, limits.ids);

export const noParams = z.strictObject({});

export const isoTime = z.iso.datetime();

/** A claim as granted: its id, the pattern as stored, its fence and when it lapses. */
export const grantedClaimSchema = z.object({ id: z.string(), pattern: z.string(), fence: z.number().int(), expiresAt: isoTime });

/** One claim covering a checked path: whose, how, under which pattern, until when. */
export const holderSchema = z.object({
  callsign: callsignSchema,
  mode: claimModeSchema,
  pattern: z.string(),
  expiresAt: isoTime,
  heldFor: z.string().optional().describe('Held for this work item until its branch lands (awaiting integration): nobody writes here before it lands'),
});

/** The answer of the check for one path: whether it may be written, and who holds it. */
export const pathVerdictSchema = z.object({ path: z.string(), allowed: z.boolean(), holders: z.array(holderSchema) });
