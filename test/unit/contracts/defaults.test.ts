import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_AGENT_TTL_SECONDS, fleetHome } from '../../../contracts/defaults.js';
import { defaultHome, loadConfig } from '../../../server/plane/config.js';

test('FLEET_HOME unset, empty or blank all mean ~/.fleet; a set one is used as given', () => {
  for (const configured of [undefined, '', '   ']) assert.equal(fleetHome(configured, '/home/dana'), '/home/dana/.fleet', JSON.stringify(configured));
  assert.equal(fleetHome('/srv/fleet', '/home/dana'), '/srv/fleet');
});

test('the plane, the CLI and the language server read FLEET_HOME the same way: an empty one is not the current directory', () => {
  const expected = join(homedir(), '.fleet');
  assert.equal(defaultHome({ FLEET_HOME: '' }), expected);
  assert.equal(defaultHome({}), expected);
  assert.equal(loadConfig({ FLEET_HOME: '' }).home, expected);
  assert.equal(defaultHome({ FLEET_HOME: '/srv/fleet' }), '/srv/fleet');
});

test('the agent TTL defaults to DEFAULT_AGENT_TTL_SECONDS', () => {
  assert.equal(loadConfig({}).agentTtlMs, DEFAULT_AGENT_TTL_SECONDS * 1000);
  assert.equal(loadConfig({ FLEET_AGENT_TTL: '' }).agentTtlMs, DEFAULT_AGENT_TTL_SECONDS * 1000);
});
