/** "in 1m 40s" / "3s ago" relative to now, for people reading expiries. */
export function relativeTime(iso: string, now = Date.now()): string {
  const delta = Math.round((Date.parse(iso) - now) / 1000);
  if (delta === 0) return 'now';
  const magnitude = Math.abs(delta);
  const text = magnitude >= 3600 ? `${Math.floor(magnitude / 3600)}h ${Math.floor((magnitude % 3600) / 60)}m` : magnitude >= 60 ? `${Math.floor(magnitude / 60)}m ${magnitude % 60}s` : `${magnitude}s`;
  return delta >= 0 ? `in ${text}` : `${text} ago`;
}
