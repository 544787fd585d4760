// The hook front, FLEET_HOME/bin/fleet-hook-front, as both launcher writers install it (the CLI's
// server/hooks/launcher.ts, the extension's extension/src/launcher.ts): the PreToolUse hooks of
// Claude Code and Codex run it on every tool call. A Node process costs a hook more than the whole
// gate's answer (docs/runtimes.md, "What a hook costs"), so the front is bash alone: it hands the
// event to the plane's POST /hooks/VERB on loopback, where the lean runner's own verb decides it,
// and prints the answer. On anything unexpected it runs the lean runner beside it with the same
// arguments and event, which does all it does today (starting a plane, the deadlines, the refusals).

import { MAX_FRAME_BYTES } from './protocol.js';

/** Its file name beside bin/fleet-hook (POSIX only: Windows runs bin/fleet-hook.cmd). */
export const HOOK_FRONT_FILE = 'fleet-hook-front';

/** The longest event the front posts, in characters (the plane bounds it in bytes): what one call's frame carries. */
const HOOK_FRONT_MAX_EVENT = MAX_FRAME_BYTES;

/**
 * How long the front waits for the plane's answer before the lean runner asks again. A plane answers
 * in milliseconds; one that is stuck then costs this plus the runner's own deadline (10 s), well
 * inside the runtimes' 30 s hook timeout, past which they would let the tool call through.
 */
export const HOOK_FRONT_WAIT_SECONDS = 2;

/**
 * Builtins only, no process started on the way (each fork costs a hook a millisecond): $(<file)
 * and read take the files, /dev/tcp the connection, `read -t` the deadline. LC_ALL=C makes ${#…}
 * count bytes for Content-Length. A value holding a line break could forge a header: the runner takes it.
 */
export const HOOK_FRONT_SCRIPT = `#!/bin/bash
# Written by fleet (install-hooks, init, the VS Code extension): the fast path of the PreToolUse
# hooks. Usage: fleet-hook-front VERB --home FLEET_HOME [--root REPO], the event on stdin.
args=("$@")
runner=\${0%/*}/fleet-hook
# read -N came with bash 4.1 (macOS's /bin/bash is 3.2): an older bash leaves the event to the runner, unread.
((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 1))) || exec "$runner" "$@"
# -N reads a socket (Claude Code's stdin) in blocks, where -d '' reads a byte at a time and
# /dev/stdin cannot be opened. A longer event goes to the runner whole: what was read, then the rest.
IFS= read -r -N ${HOOK_FRONT_MAX_EVENT + 1} event
runner() { exec "$runner" "\${args[@]}" < <(printf '%s' "$event"; [ \${#event} -le ${HOOK_FRONT_MAX_EVENT} ] || cat); }
[ \${#event} -le ${HOOK_FRONT_MAX_EVENT} ] || runner
# The arguments as install-hooks writes them, else the runner's (it knows every other form).
case $#:$1:$2:$4 in 3:claude-pre-tool-use:--home: | 5:codex-pre-tool-use:--home:--root) ;; *) runner ;; esac
home=$3 root=\${5-}
# A plane noted as silent: the runner's short deadline (plane-unanswered.json) decides as ever.
[ -e "$home/plane-unanswered.json" ] && runner
IFS= read -r -d '' plane 2>/dev/null < "$home/plane.json"
[[ $plane =~ \\"port\\":([0-9]+) ]] || runner
port=\${BASH_REMATCH[1]}
# The plane's process lives (another user's answers kill -0 with EPERM: /proc still shows it).
[[ $plane =~ \\"pid\\":([0-9]+) ]] && { kill -0 "\${BASH_REMATCH[1]}" 2>/dev/null || [ -e "/proc/\${BASH_REMATCH[1]}" ]; } || runner
IFS= read -r token 2>/dev/null < "$home/token"
[ -n "$token" ] || runner
cd -P . 2>/dev/null || runner
case "$home$root$PWD\${FLEET_AS-}\${FLEET_OVERRIDE-}" in *$'\\n'* | *$'\\r'*) runner ;; esac
{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || runner
bytes() { local LC_ALL=C; length=\${#event}; }
bytes
printf 'POST /hooks/%s HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\nAuthorization: Bearer %s\\r\\nContent-Length: %s\\r\\nFleet-Root: %s\\r\\nFleet-Cwd: %s\\r\\nFleet-Parent-Pid: %s\\r\\nFleet-As: %s\\r\\nFleet-Override: %s\\r\\n\\r\\n%s' \\
  "$1" "$token" "$length" "$root" "$PWD" "$PPID" "\${FLEET_AS-}" "\${FLEET_OVERRIDE-}" "$event" >&3 2>/dev/null || runner
read -r -t ${HOOK_FRONT_WAIT_SECONDS} version status _ <&3 || runner
[ "$status" = 200 ] || runner
code=
while IFS= read -r -t ${HOOK_FRONT_WAIT_SECONDS} line <&3; do
  line=\${line%$'\\r'}
  [ -z "$line" ] && break
  case $line in [Ff]leet-[Ee]xit:*) code=\${line#*:} code=\${code// /} ;; esac
done
[ -z "$line" ] && [[ $code =~ ^[0-9]+$ ]] || runner
IFS= read -r -d '' -t ${HOOK_FRONT_WAIT_SECONDS} answer <&3
(($? > 128)) && runner
printf '%s' "$answer"
exit "$code"
`;
