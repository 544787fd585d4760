#!/usr/bin/env bash
# Installs the pinned agent clients the `clients` test tier drives (test/clients): the real Claude Code
# and Codex CLIs from the npm registry, into a cache, not as devDependencies every user would download.
#   $CACHE/claude-code-<version>/node_modules/.bin/claude
#   $CACHE/codex-<version>/node_modules/.bin/codex
#   $CACHE/<client>-<version>/fleet-client.json   marker, written last (read by test/clients/harness/installed-clients.ts)
# Idempotent: a client whose marker exists is skipped; a folder without one is a half-finished attempt.
set -Eeuo pipefail

CACHE="${FLEET_CLIENTS_CACHE:-$HOME/.cache/fleet-coordination/clients}"
SECONDS=0

log() { printf '[agent-clients +%ss] %s\n' "$SECONDS" "$*"; }
die() { printf '[agent-clients] ERROR: %s\n' "$*" >&2; exit 1; }
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR

# install_client NAME PACKAGE VERSION BIN
install_client() {
  local name="$1" package="$2" version="$3" bin="$4"
  local dir="$CACHE/$name-$version" marker="$CACHE/$name-$version/fleet-client.json"
  if [[ -f $marker ]]; then log "$package@$version: already installed in $dir"; return; fi
  log "$package@$version: installing in $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{"private": true}' >"$dir/package.json"
  # Both packages fetch their native binary as an optional dependency of the same registry: no postinstall download.
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error --save-exact "$package@$version") >"$dir/npm.log" 2>&1 \
    || die "npm install $package@$version failed, see $dir/npm.log (is the npm registry reachable?)"
  local path="$dir/node_modules/.bin/$bin"
  [[ -x $path ]] || die "$package@$version installed no $path, see $dir/npm.log"
  local reported
  reported="$("$path" --version 2>&1)" || die "$path --version failed: $reported"
  [[ $reported == *"$version"* ]] || die "$path --version says '$reported', expected $version"
  printf '{"package":"%s","version":"%s","bin":"%s"}\n' "$package" "$version" "$path" >"$marker"
  log "$package@$version: ready ($reported)"
}

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9  # two installs at once would share folders
install_client claude-code @anthropic-ai/claude-code 2.1.328 claude
install_client codex @openai/codex 0.169.0 codex
log "clients ready in $CACHE (${SECONDS}s)"
