import type { z } from 'zod';

/**
 * One line per problem (at most five), each naming the parameter, e.g. `patterns.0: expected
 * string` or `root: 80000 characters is over the limit of 4096 (see docs/limits.md): shorten it`.
 * The plane's INVALID_PARAMS replies and the MCP bridge's own checks word problems alike.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
