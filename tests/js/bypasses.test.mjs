// The table of published bypasses (tests/fixtures/bypasses.json) through the packed package's
// bindings (Node build): the same rows tests/bypasses.rs replays natively, decided by
// `toolgate/engine` as an extension host calls it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from './install-package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const table = JSON.parse(readFileSync(join(here, '..', 'fixtures', 'bypasses.json'), 'utf8'));
const { Policy } = installPackage()('toolgate/engine');

test('every published bypass is held and every benign call runs, through the bindings', () => {
  const policies = new Map(Object.entries(table.policies).map(([name, spec]) => [name, new Policy(spec)]));
  const failures = [];
  try {
    for (const row of table.cases) {
      assert.ok(row.source, `${row.name}: a row needs its source`);
      const policy = policies.get(row.policy);
      assert.ok(policy, `${row.name}: no policy ${row.policy}`);
      const d = policy.decide(row.tool, row.inputs.length === 1 ? row.inputs[0] : row.inputs);
      assert.ok(row.outcome && row.reason, `${row.name}: a row says outcome and reason`);
      const wrong = d.outcome !== row.outcome || d.reason !== row.reason;
      if (wrong) failures.push(`${row.name}: ${JSON.stringify(row.inputs)} → ${d.outcome} (${d.reason}) ${d.message}`);
      if (d.reason === 'protectedPath') assert.ok(d.protectedPath?.entry && d.protectedPath.why, `${row.name}: the entry is named`);
    }
  } finally {
    for (const policy of policies.values()) policy.free();
  }
  assert.deepEqual(failures, []);
  assert.ok(table.cases.length >= 75);
});

test('Cursor\'s blocklist holds in run-everything mode, through the bindings', () => {
  const { decideTerminalCommand } = installPackage()('toolgate/engine');
  const failures = [];
  for (const row of table.cursorCases) {
    assert.ok(row.source, `${row.name}: a row needs its source`);
    const d = decideTerminalCommand(row.command, table.cursorSettings[row.settings]);
    if (d.needApproval !== row.needApproval || d.reason !== row.reason) failures.push(`${row.name}: ${JSON.stringify(row.command)} → ${d.needApproval} (${d.reason}) ${d.message}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(table.cursorCases.length >= 20);
});

test('the built-in protected paths are listed with why and where the need was shown', () => {
  const { protectedPathEntries } = installPackage()('toolgate/tools');
  const entries = protectedPathEntries();
  for (const entry of ['.vscode', '.git', '.cursor', '.claude', '.env', '.bashrc', '.ssh', '*.toolgate.json']) {
    const found = entries.find((e) => e.entry === entry);
    assert.ok(found, `${entry} is listed`);
    assert.ok(found.why.length > 10 && found.source.length > 5, `${entry} says why and names its source`);
    assert.equal(found.layer, undefined, 'built in');
  }
});

test('an MCP call of a type the engine cannot read throws a TypeError and never passes a deny rule', () => {
  const policy = new Policy(table.policies.mcpDenied);
  try {
    for (const input of [42, { server: 'gh', tool: 'delete_repo' }, ['gh', 7], [['gh', 'delete_repo']], true]) {
      assert.throws(() => policy.decide('mcp', input), { name: 'TypeError' }, JSON.stringify(input));
    }
    for (const input of ['gh:delete_repo', ['gh:delete_repo'], ['gh', 'delete_repo']]) {
      assert.equal(policy.decide('mcp', input).outcome, 'deny', JSON.stringify(input));
    }
    for (const input of [['gh:delete_repo', ''], 'gh:x:delete_repo', ['gh', 'x', 'delete_repo'], undefined]) {
      assert.equal(policy.decide('mcp', input).outcome, 'confirm', JSON.stringify(input));
    }
  } finally {
    policy.free();
  }
});
