/** The plane's ids (prefix_ and 12 base64url characters): for the plane, not for a person reading a row. */
const PLANE_ID = /\s*\b[a-z]{1,8}_[A-Za-z0-9_-]{12}\b/g;

/** A reason as a person reads it: "work w_3Jx…: fix the parser" → "work: fix the parser". */
export function readableReason(reason: string): string {
  return reason.replace(PLANE_ID, '').replace(/\s{2,}/g, ' ').trim();
}
