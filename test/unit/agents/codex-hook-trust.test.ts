import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { codexEventLabel, codexHookHash, codexHookKey } from '../../../server/hooks/codex-hook-hash.js';
import { readCodexHookStates } from '../../../server/hooks/codex-hook-state.js';
import { upsertBlock } from '../../../server/hooks/marked-block.js';
import { CODEX_MARKERS, codexBlock, codexBlockForeign } from '../../../server/mcp/runtime-config.js';

describe("Codex's hook trust, as Codex computes and records it", () => {
  test('the hash matches trusted_hash values Codex itself wrote', () => {
    // Published by others who compared them with the trusted_hash Codex wrote in config.toml
    // (a PreToolUse hook with a statusMessage; one with an empty matcher, verified with Codex 0.145).
    assert.equal(
      codexHookHash('PreToolUse', '^Bash$', { command: 'bash "$HOME/.codex/hooks/block-dangerous-commands.sh"', statusMessage: 'コマンド安全性チェック中...', timeout: 10 }),
      'sha256:926d8278e318187e63816360f984fd354cad9dec305d9e7f4154a02377b3f39d',
    );
    assert.equal(codexHookHash('PreToolUse', '', { command: 'node /x/pretool.js', timeout: 300 }), 'sha256:425c5a1875dd70a65d18b62585543a832b671b349933cdbafa2f6a4717fea6ed');
  });

  test('normalized as Codex normalizes: default timeout and async, the short events clamped, matchers dropped where ignored, commandWindows never hashed', () => {
    assert.equal(codexHookHash('SessionStart', undefined, { command: 'x' }), codexHookHash('SessionStart', undefined, { command: 'x', timeout: 600, async: false, commandWindows: 'y' } as never));
    assert.equal(codexHookHash('SessionEnd', undefined, { command: 'x', timeout: 30 }), codexHookHash('SessionEnd', undefined, { command: 'x', timeout: 3 }));
    assert.equal(codexHookHash('Stop', 'anything', { command: 'x' }), codexHookHash('Stop', undefined, { command: 'x' }));
    assert.equal(codexHookHash('PreToolUse', 'Bash', { command: 'x', additionalContextLimit: 2500 }), codexHookHash('PreToolUse', 'Bash', { command: 'x' }));
    assert.notEqual(codexHookHash('PreToolUse', 'Bash', { command: 'x' }), codexHookHash('PreToolUse', 'Bash', { command: 'x ' }), 'a changed command is a changed hook');
    assert.notEqual(codexHookHash('PreToolUse', 'Bash', { command: 'x' }), codexHookHash('PostToolUse', 'Bash', { command: 'x' }));
  });

  test('the key names the file, the event in snake case and the position', () => {
    assert.equal(codexEventLabel('UserPromptSubmit'), 'user_prompt_submit');
    assert.equal(codexHookKey('/home/u/.codex/hooks.json', 'PreToolUse', 2, 0), '/home/u/.codex/hooks.json:pre_tool_use:2:0');
  });

  test('config.toml: the hook states in the shapes Codex and people write them', () => {
    const states = readCodexHookStates(
      [
        'model = "o4-mini"',
        '[hooks.state."/h/hooks.json:pre_tool_use:0:0"]',
        'trusted_hash = "sha256:aa" # reviewed',
        '[hooks.state]',
        '"/h/hooks.json:post_tool_use:0:0" = { trusted_hash = "sha256:bb", enabled = false }',
        "'/h/lit\\eral.json:session_start:1:0'.trusted_hash = 'sha256:cc'",
        '[hooks.state."/h/quo\\"te\\u00e9.json:stop:0:0"]',
        'enabled = true',
        '[profiles.x]',
        'trusted_hash = "sha256:not-a-hook-state"',
      ].join('\n'),
    );
    assert.deepEqual(Object.fromEntries(states), {
      '/h/hooks.json:pre_tool_use:0:0': { trustedHash: 'sha256:aa' },
      '/h/hooks.json:post_tool_use:0:0': { trustedHash: 'sha256:bb', enabled: false },
      '/h/lit\\eral.json:session_start:1:0': { trustedHash: 'sha256:cc' },
      '/h/quo"teé.json:stop:0:0': { enabled: true },
    });
  });

  test('our config.toml block: the tables Codex appended inside it move after it byte for byte; settings of the fleet server stay in it', () => {
    const bridge = { command: '/f/bin/fleet', args: ['mcp'], env: { FLEET_HOME: '/f' } };
    const written = upsertBlock('model = "o4-mini"\n', CODEX_MARKERS, codexBlock(bridge), 'bottom', codexBlockForeign);
    const trust = '[hooks.state."/h/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:aa"\n\n[hooks.state."/h/hooks.json:session_start:0:0"]\ntrusted_hash = "sha256:bb"\n';
    const edited = written.replace('env = { FLEET_HOME = "/f" }\n', `env = { FLEET_HOME = "/f" }\nenabled = false\n\n[mcp_servers.fleet.tools.fleet_claim_path]\napproval_mode = "approve"\n\n${trust}`);
    const again = upsertBlock(edited, CODEX_MARKERS, codexBlock(bridge), 'bottom', codexBlockForeign);
    assert.equal(
      again,
      `model = "o4-mini"\n\n${CODEX_MARKERS.begin}\n${codexBlock(bridge)}\nenabled = false\n[mcp_servers.fleet.tools.fleet_claim_path]\napproval_mode = "approve"\n\n${CODEX_MARKERS.end}\n${trust}`,
    );
    assert.equal(upsertBlock(again, CODEX_MARKERS, codexBlock(bridge), 'bottom', codexBlockForeign), again, 'then nothing moves any more');
  });
});
