/** "12 s ago", "3 min ago", "in 4 min": how long until or since an ISO time, for tree descriptions. */
export function since(iso: string, now = Date.now()): string {
  return `${span(now - Date.parse(iso))} ago`;
}

export function until(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  return ms <= 0 ? 'expiring' : `in ${span(ms)}`;
}

function span(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}
