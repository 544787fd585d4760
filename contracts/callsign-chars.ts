/** Characters no callsign contains, to strip from a user name or a file name (zod-free: the lean hook runner names session files with it). */
export const nonCallsignChars = (): RegExp => /[^A-Za-z0-9_-]/g;
