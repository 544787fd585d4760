import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadSession, saveSession } from '../../../server/home/sessions.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

// Every write replaces the file (temp file, fsync, rename): a new inode is a rewrite.
const inodeOf = (home: string, callsign: string) => statSync(join(home, 'sessions', `${callsign}.json`)).ino;

test('the sessions file is rewritten only when its content changes (every --as call saves it)', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const session = { callsign: 'ATLAS', runtime: 'claude-code', agentId: 'ag-1', sessionToken: 'secret' };
  await saveSession(home, session);
  const written = inodeOf(home, 'ATLAS');
  // The same session, its keys in another order, as `connectAs` saves it after each re-join.
  await saveSession(home, { sessionToken: 'secret', agentId: 'ag-1', runtime: 'claude-code', callsign: 'ATLAS' });
  assert.equal(inodeOf(home, 'ATLAS'), written, 'an unchanged session must not be written again');
  await saveSession(home, { ...session, agentId: 'ag-2' });
  assert.notEqual(inodeOf(home, 'ATLAS'), written, 'a changed session is written');
  assert.equal(loadSession(home, 'ATLAS')?.agentId, 'ag-2');
});

test('the role is kept, so an operator agent is re-attached with the operator credential', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  await saveSession(home, { callsign: 'DANA', runtime: 'vscode', agentId: 'ag-1', sessionToken: 's', role: 'operator' });
  assert.equal(loadSession(home, 'DANA')?.role, 'operator');
});
