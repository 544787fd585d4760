import { isAbsolute, resolve } from 'node:path';
import { expandBraces, type ShellWord } from './shell-word.js';

/** Other folders followed besides the likeliest: each one multiplies the work on every command after it. */
export const MAX_FOLDERS = 7;

/** A folder the command is in, and the others it may be in. */
interface Place {
  cwd: string;
  also: readonly string[];
}

/**
 * Where a command may be as bash runs it: the folder it is in, the others it may be in (a `cd` that
 * may not have run: `[ -d b ] && cd b; rm x` removes ./x or b/x), where `cd -` returns to and the
 * folders `pushd` left for `popd`. A write is checked in every folder it may be in; past
 * MAX_FOLDERS the rest are not followed (a loop over many folders is mostly `cd "$d" && npm test`,
 * and PostToolUse sees what it wrote).
 */
export class Whereabouts {
  private place: Place;
  private previous: string;
  private pushed: Place[] = [];

  constructor(
    private readonly start: string,
    private readonly home: string | undefined,
    /** Told the new folder and the one `cd -` returns to ($PWD and $OLDPWD). */
    private readonly onMove: (cwd: string, previous: string) => void,
  ) {
    this.place = { cwd: start, also: [] };
    this.previous = start;
  }

  get cwd(): string {
    return this.place.cwd;
  }

  /** Every folder the command may be in, the likeliest first. */
  all(): string[] {
    return [this.place.cwd, ...this.place.also];
  }

  /** A child process (a subshell, `$(…)`, a pipeline's part, `&`) or a function's definition: its `cd` ends with it. */
  scoped(run: () => void): void {
    const [place, previous, pushed] = [this.place, this.previous, [...this.pushed]];
    run();
    this.moveTo(place);
    [this.previous, this.pushed] = [previous, pushed];
  }

  /** What may not run (a loop's body): after it, where it started is possible too. */
  maybe(run: () => void): void {
    const start = this.place;
    run();
    this.moveTo({ cwd: this.place.cwd, also: [...this.place.also, ...folders(start)] });
  }

  /** `a || b`: b runs from where a started, if a failed; after it, a's end, b's end and the start (both failed) are possible. */
  either(left: () => void, right: () => void): void {
    const start = this.place;
    left();
    const afterLeft = this.place;
    this.moveTo(start);
    right();
    this.moveTo({ cwd: afterLeft.cwd, also: [...afterLeft.also, ...folders(start), ...folders(this.place)] });
  }

  /**
   * `a && b && c`: each part runs where the one before left; after the chain, wherever it stopped is
   * possible, unless it is `certain` to have run whole (`… || exit`: past it, it did).
   */
  chain(parts: (() => void)[], certain: boolean): void {
    const stops: string[] = [];
    for (const part of parts) {
      stops.push(...this.all());
      part();
    }
    if (!certain) this.moveTo({ cwd: this.place.cwd, also: [...this.place.also, ...stops] });
  }

  /** Branches that start from one place (if/elif/else, case items); `orNone`: none may run. One that exits goes on nowhere. */
  branches(branches: { run(): void; exits: boolean }[], orNone: boolean): void {
    const start = this.place;
    const ends: Place[] = orNone ? [start] : [];
    for (const branch of branches) {
      this.moveTo(start);
      branch.run();
      if (!branch.exits) ends.push(this.place);
    }
    const [first, ...rest] = ends.flatMap(folders);
    this.moveTo(first === undefined ? start : { cwd: first, also: rest });
  }

  /**
   * `cd DIR` (`-P`, `--` skipped; none: HOME; `-`: the folder before; several: bash refuses), `pushd
   * DIR`, `popd`. `cd "$d"` in `for d in a b` is each folder. One built at run time is taken as a
   * return to where the command started (`cd "$ROOT"`, `cd "$(git rev-parse --show-toplevel)"`: an
   * agent's usual way back; staying put read `src/web/x.ts` after `cd src/api && …; cd "$ROOT"` as
   * src/api/src/web/x.ts, another agent's folder).
   */
  change(argv: readonly ShellWord[]): void {
    const name = argv[0]?.text;
    if (name === 'popd') {
      const back = this.pushed.pop();
      if (back) this.moveTo(back);
      return;
    }
    if (name !== 'cd' && name !== 'pushd') return;
    let at = 1;
    while (argv[at]?.literal && /^-[LPe@]+$/.test(argv[at]!.text)) at++;
    if (argv[at]?.text === '--') at++;
    if (argv.length > at + 1) return; // `cd a b`: too many arguments, it stays
    const targets = argv[at] ? expandBraces(argv[at]!) : [];
    if (targets.some((target) => !target.literal)) {
      this.moveTo({ cwd: this.start, also: [] });
      return;
    }
    const dirs = targets.length === 0 ? [this.home] : targets.map((target) => (target.text === '-' ? this.previous : resolve(this.place.cwd, target.text)));
    if (dirs[0] === undefined) return;
    if (name === 'pushd') this.pushed.push(this.place);
    // The other folders it may be in move alike (an absolute folder is one place from anywhere; `cd -` keeps them).
    const relative = targets.filter((target) => target.text !== '-' && !isAbsolute(target.text));
    const others = targets[0]?.text === '-' ? this.place.also : this.place.also.flatMap((other) => relative.map((target) => resolve(other, target.text)));
    this.moveTo({ cwd: dirs[0], also: [...(dirs.slice(1) as string[]), ...others] });
  }

  private moveTo(place: Place): void {
    const also = [...new Set(place.also)].filter((folder) => folder !== place.cwd).slice(0, MAX_FOLDERS);
    if (place.cwd !== this.place.cwd) {
      this.previous = this.place.cwd;
      this.onMove(place.cwd, this.previous);
    }
    this.place = { cwd: place.cwd, also };
  }
}

function folders(place: Place): string[] {
  return [place.cwd, ...place.also];
}
