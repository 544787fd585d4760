import { z } from 'zod';

/**
 * Every size an outsider's input may have (DESIGN §12): the plane is a single writer, so one
 * oversized value (an 80,000-character root handed to git, a 40 KB worktree compared on every hook
 * check) stalls the whole fleet. Each bound is far above what a real agent sends and says why;
 * docs/limits.md is rendered from this table and a test keeps the two in step.
 */
export interface Limit {
  readonly max: number;
  readonly unit: 'characters' | 'items' | 'characters of JSON' | 'levels' | 'memos';
  readonly appliesTo: string;
  readonly why: string;
}

export const limits = {
  path: { max: 4096, unit: 'characters', appliesTo: 'root, scope, worktree, a checked, touched or historic path', why: "Linux's PATH_MAX: no file system opens a longer path, so nothing real is refused." },
  pattern: { max: 1024, unit: 'characters', appliesTo: 'a claim, release or work pattern', why: 'A glob names a few directories and a wildcard; the overlap check compares every pattern with its neighbours.' },
  callsign: { max: 32, unit: 'characters', appliesTo: 'a callsign', why: 'A name people read in a sidebar and type after --as.' },
  id: { max: 128, unit: 'characters', appliesTo: 'claim, message, handoff and work-item ids, refs, requestId, sessionToken', why: 'The plane issues ids of about 30 characters; a client\'s own requestId (a UUID) or token fits four times over.' },
  cursor: { max: 1000, unit: 'characters', appliesTo: 'a page cursor', why: 'The plane issues cursors (a creation time and an id) and clients pass them back unchanged.' },
  label: { max: 64, unit: 'characters', appliesTo: 'runtime, hook name, client name', why: 'One word such as claude-code or git-pre-commit.' },
  line: { max: 200, unit: 'characters', appliesTo: 'message subject, heartbeat task, reason code, memo key and prefix, lease name', why: 'One line a person scans in a list.' },
  reason: { max: 500, unit: 'characters', appliesTo: 'claim, control, release and override reasons, heartbeat note, work title', why: 'A sentence or two, shown beside a claim or in the digest.' },
  paragraph: { max: 1000, unit: 'characters', appliesTo: 'a criterion, next step, open question, doubt, handoff reply, artifact ref', why: 'One point of a list; long prose goes in a summary or a file.' },
  summary: { max: 5000, unit: 'characters', appliesTo: 'handoff and artifact summaries, evidence, decision notes', why: 'About a page: what a reader needs before opening the files.' },
  body: { max: 20_000, unit: 'characters', appliesTo: 'message body, handoff context', why: 'A long message (about 5,000 tokens); more belongs in the repository.' },
  command: { max: 4096, unit: 'characters', appliesTo: 'build command, a command recorded in an artifact', why: 'A long shell line; a longer one belongs in a script.' },
  shellCommand: { max: 256 * 1024, unit: 'characters', appliesTo: 'a shell command the write gate judges', why: 'Heredocs carry whole files; the parser runs off the plane\'s loop, bounded in time.' },
  json: { max: 32 * 1024, unit: 'characters of JSON', appliesTo: 'memo value, handoff artifact data', why: 'Shared notes and plans, not files: every memo stays in the plane\'s memory and snapshot.' },
  nesting: { max: 64, unit: 'levels', appliesTo: 'JSON nesting of any parameter (memo values, artifact data)', why: 'Deep enough for any real document, shallow enough that logging or snapshotting it cannot overflow the stack.' },
  patterns: { max: 64, unit: 'items', appliesTo: 'patterns of one claim, release or work item', why: 'All-or-nothing claims stay small; claim a directory instead of its files.' },
  paths: { max: 1000, unit: 'items', appliesTo: 'paths of one check', why: 'A large commit; hooks check in batches.' },
  ids: { max: 500, unit: 'items', appliesTo: 'claim ids or message ids of one call', why: 'More than an agent holds or reads at once.' },
  refs: { max: 200, unit: 'items', appliesTo: 'refs and dependencies', why: 'What one item can meaningfully point at.' },
  entries: { max: 200, unit: 'items', appliesTo: 'criteria, verdicts, next steps, open questions, doubts, artifacts', why: 'A checklist people read to the end.' },
  files: { max: 10_000, unit: 'items', appliesTo: 'touched files of an artifact or a handoff', why: 'A large refactor; the frame limit (1 MiB) caps the whole request anyway.' },
  commands: { max: 1000, unit: 'items', appliesTo: 'commands recorded in an artifact', why: 'A long session\'s worth of builds and tests.' },
  ancestors: { max: 32, unit: 'items', appliesTo: 'the processes a hook runs under (runtimePids)', why: 'A runtime, its shell and a launcher: a handful; the chain above them ends at init long before 32.' },
  memosPerFleet: { max: 1000, unit: 'memos', appliesTo: 'memos in the fleet', why: 'Worst case 32 MB of notes in memory; rewriting a key is always allowed.' },
  memosPerWriter: { max: 200, unit: 'memos', appliesTo: 'memos last written by one agent (or the operator)', why: 'One runaway agent cannot take the whole fleet\'s memo room.' },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof limits;

const SEE = 'see docs/limits.md';

/**
 * A string of at most `limit.max` characters; the refusal names the limit and what to do. With
 * `whenAbsent`, a required string's refusal when it is missing says what to add.
 */
export function boundedText(limit: Limit, whenAbsent?: string): z.ZodString {
  const absent = whenAbsent !== undefined ? { error: (issue: { input: unknown }) => (issue.input === undefined ? whenAbsent : undefined) } : undefined;
  return z.string(absent).max(limit.max, {
    error: (issue) => `${String((issue.input as string).length)} characters is over the limit of ${limit.max} (${SEE}): shorten it`,
  });
}

/** A list of at most `limit.max` items; the refusal names the limit and what to do. */
export function boundedList<T extends z.ZodType>(item: T, limit: Limit): z.ZodArray<T> {
  return z.array(item).max(limit.max, {
    error: (issue) => `${String((issue.input as unknown[]).length)} items is over the limit of ${limit.max} (${SEE}): split it over several calls`,
  });
}

/** Any JSON value whose serialized form fits in `limit.max` characters (zod cannot bound it otherwise). */
export function boundedJson(limit: Limit): z.ZodUnknown {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const size = jsonBytes(value);
      if (size === undefined || size > limit.max) {
        ctx.addIssue({
          code: 'custom',
          message: `${size === undefined ? 'a value nested too deep to measure' : `${size} characters of JSON`} is over the limit of ${limit.max} (${SEE}): keep large content in a file and store its path`,
        });
      }
    })
    .describe(`Any JSON value, at most ${limit.max} characters once serialized (docs/limits.md)`);
}

function jsonBytes(value: unknown): number | undefined {
  try {
    return (JSON.stringify(value) ?? '').length;
  } catch {
    return undefined;
  }
}

/**
 * How a schema that is both sent (method params) and stored (events, snapshot) is sized. Limits
 * added later grandfather what is stored: replay never refuses what the plane once accepted.
 */
export interface Sizing {
  text(limit: Limit): z.ZodString;
  list<T extends z.ZodType>(item: T, limit: Limit): z.ZodArray<T>;
  json(limit: Limit): z.ZodUnknown;
}

export const sentSizes: Sizing = { text: boundedText, list: boundedList, json: boundedJson };
export const storedSizes: Sizing = { text: () => z.string(), list: (item) => z.array(item), json: () => z.unknown() };
