// The landing watch's git work is bounded per tick (DESIGN §12: one client never hurts the fleet):
// with more items waiting than it checks in a tick, it checks them in rotation, so a branch late in
// the list is still seen landed within ceil(waiting / per tick) ticks. Real git; the watch's ticks
// are its own `check()`, called here one by one on a core that holds the waiting items.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LandingWatch } from '../../../server/integration/train/landing-watch.js';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { joinAgent, makeHarness } from '../../support/core-harness.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { add, artifact, pull } from '../../support/orchestration-harness.js';
import { removeHome } from '../../support/plane-process.js';

const PER_TICK = 4;
const NEVER_LANDING = 8;

test('landing watch: at most N branches checked per tick, in rotation: the last of nine waiting items, landed by hand, is seen within three ticks and not in the first', async (t) => {
  const repo = makeRepo();
  t.after(() => removeHome(repo));
  const repository = git(repo, 'rev-parse', '--absolute-git-dir');
  const base = git(repo, 'rev-parse', 'main');
  const h = makeHarness();
  const waitingOn = (i: number): string => {
    git(repo, 'checkout', '-q', '-b', `work-${i}`, base);
    git(repo, 'commit', '-q', '--allow-empty', '-m', `work ${i}`);
    const commit = git(repo, 'rev-parse', 'HEAD');
    const builder = joinAgent(h, `B${i}`, { role: 'builder' });
    const item = add(h, { title: `item ${i}`, criteria: ['it works'] });
    pull(h, builder);
    h.core.run(builder.caller, (ctx) => updateWork(ctx, builder.caller, item.id, { action: 'complete', artifact: artifact(['it works']), integration: { branch: `work-${i}`, commit, target: 'main', repository, base } }));
    return item.id;
  };
  for (let i = 0; i < NEVER_LANDING; i++) waitingOn(i);
  const last = waitingOn(NEVER_LANDING);
  // Landed by hand (a fast-forward): the watch must notice it, whatever its place in the list.
  git(repo, 'update-ref', 'refs/heads/main', git(repo, 'rev-parse', `work-${NEVER_LANDING}`), base);
  const landed = () => h.core.state.work.get(last)?.landedCommit !== undefined;

  const watch = new LandingWatch(h.core, 60_000, () => undefined, PER_TICK);
  await watch.check();
  assert.equal(landed(), false, `the first tick checks only the first ${PER_TICK} waiting branches`);
  await watch.check();
  assert.equal(landed(), false, 'nor the second');
  await watch.check();
  assert.equal(landed(), true, 'the third tick reaches the ninth branch: no branch waits longer than ceil(9 / 4) ticks');
});
