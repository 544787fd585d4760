/**
 * The `hooks` of one event in a Claude Code settings file or Codex's hooks.json: matcher groups,
 * each with its hooks. Codex keys a user's trust in a hook by its position (`…:event:group:hook`,
 * codex-rs/hooks/src/engine/discovery.rs), so the fleet's hook keeps the place it has.
 */
export interface HookEntry {
  command?: string | undefined;
  [key: string]: unknown;
}
export interface MatcherGroup {
  matcher?: string | undefined;
  hooks?: HookEntry[] | undefined;
  [key: string]: unknown;
}

/**
 * The groups with our hook set: in place where it already is (the fields someone added to it and
 * the hooks beside it kept, ours written over its own), else as a new group at the end. A second
 * copy of ours elsewhere goes, with its group if that leaves the group empty.
 */
export function placeOurHook(groups: MatcherGroup[], isOurs: (hook: HookEntry) => boolean, matcher: string | undefined, hook: HookEntry): MatcherGroup[] {
  const at = groups.findIndex((group) => group.hooks?.some(isOurs));
  if (at < 0) return [...groups, { ...(matcher !== undefined && { matcher }), hooks: [hook] }];
  return groups.flatMap((group, index) => {
    if (!group.hooks?.some(isOurs)) return [group];
    let placed = index !== at;
    const hooks = group.hooks.flatMap((entry) => {
      if (!isOurs(entry)) return [entry];
      if (placed) return [];
      placed = true;
      return [{ ...entry, ...hook }];
    });
    if (hooks.length === 0) return [];
    return [index === at ? { ...group, ...(matcher !== undefined ? { matcher } : {}), hooks } : { ...group, hooks }];
  });
}
