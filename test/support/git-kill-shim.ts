import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeHome, tempHome } from './plane-process.js';

/**
 * When the plane dies around a git step: `before` it runs (the step never happens), `during` it
 * (the step runs on, orphaned, while the plane is dead), `after` it (the step happened; the plane
 * never read its outcome), or `with-git`: the plane and that git die together (a kill of the process
 * group, the OOM killer), git leaving its index.lock behind as a git killed mid-write does.
 */
export type KillWhen = 'before' | 'during' | 'after' | 'with-git';

export interface GitKillShim {
  /** PATH for the plane's environment: the shim's folder first. */
  env: { PATH: string };
  /** From now on, the next `git <subcommand>` the plane runs SIGKILLs it (once). */
  arm(): void;
  /** Whether the shim has killed the plane. */
  fired(): boolean;
  remove(): void;
}

/**
 * A `git` first on the plane's PATH that, once armed, SIGKILLs its parent (the plane: it runs git
 * directly, without a shell) at the chosen subcommand, then lets the real git run or not: a kill -9
 * at an exact step of the train without a test hook in the product.
 */
export function gitKillShim(subcommand: string, when: KillWhen): GitKillShim {
  const dir = tempHome('fleet-git-shim-');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const armed = join(dir, 'armed');
  const fired = join(dir, 'fired');
  // The subcommand is the first word that is no option (skipping the values of -c and -C); mkdir makes "once" atomic.
  const script = `#!/bin/sh
sub=''; skip=''
for a in "$@"; do
  if [ -n "$skip" ]; then skip=''; continue; fi
  case "$a" in -c|-C) skip=1 ;; -*) ;; *) sub="$a"; break ;; esac
done
if [ "$sub" = '${subcommand}' ] && [ -e '${armed}' ] && mkdir '${fired}' 2>/dev/null; then
  case '${when}' in
    before) kill -9 "$PPID"; exit 137 ;;
    during) kill -9 "$PPID"; exec '${realGit}' "$@" ;;
    after) '${realGit}' "$@"; code=$?; kill -9 "$PPID"; exit $code ;;
    with-git) echo torn > "$('${realGit}' rev-parse --git-path index.lock)"; kill -9 "$PPID"; kill -9 $$ ;;
  esac
fi
exec '${realGit}' "$@"
`;
  writeFileSync(join(dir, 'git'), script);
  chmodSync(join(dir, 'git'), 0o755);
  return {
    env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
    arm: () => writeFileSync(armed, ''),
    fired: () => existsSync(fired),
    remove: () => removeHome(dir),
  };
}
