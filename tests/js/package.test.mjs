// The built package as an extension author uses it: `require` of the Node build,
// the web build through `initSync` with the .wasm bytes, and both deciding identically.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { installPackage, packedFiles } from './install-package.mjs';

const require = installPackage();
const toolgate = require('toolgate');

test('the package ships both builds, their types and nothing else', () => {
  const files = packedFiles();
  for (const f of ['node/toolgate.js', 'node/toolgate.d.ts', 'web/toolgate.js',
    'web/toolgate.d.ts', 'web/toolgate_bg.wasm', 'package.json', 'README.md']) {
    assert.ok(files.includes(f), `${f} is missing from the package`);
  }
  // Each module's .wasm once: the Node builds read the web builds' files; the settings page's
  // validator is web only (its link to the host is inside the page's file).
  const wasm = files.filter((f) => f.endsWith('.wasm')).sort();
  assert.deepEqual(wasm, ['engine/web/toolgate_engine_bg.wasm',
    'settings-page/validator/toolgate_validator_bg.wasm', 'tools/web/toolgate_tools_bg.wasm', 'web/toolgate_bg.wasm']);
  assert.ok(!files.some((f) => f.endsWith('.gitignore') || f.includes('target/')), files.join(', '));
});

test('require() resolves the synchronous Node build', () => {
  assert.match(require.resolve('toolgate'), /node[\\/]toolgate\.js$/);
  assert.equal(typeof toolgate.decideMcp, 'function');
  assert.equal(typeof toolgate.McpPolicy, 'function');
  assert.equal(toolgate.default, undefined, 'the Node build needs no init()');
});

test('a compiled policy decides and explains', () => {
  const policy = new toolgate.McpPolicy({ mcpAllowedTools: ['github:*', 'docs:search'], mcpToolsProtection: false });
  const d = policy.decide('github', 'create_issue', 'yolo');
  assert.equal(d.needApproval, false);
  assert.equal(d.reason, 'allowlisted');
  assert.deepEqual(d.matched, { list: 'user', index: 0, entry: 'github:*' });
  const ask = policy.decide('docs', 'delete', 'yolo');
  assert.equal(ask.needApproval, true);
  assert.deepEqual(ask.candidatesForAllowlist, [{ server: 'docs', tool: 'delete' }]);
  assert.equal(policy.needsApproval('docs', 'delete', 'yolo'), true);
  assert.equal(policy.isAllowlisted('docs', 'search'), true);
  policy.free();
});

test('the "Add to allowlist" flow: add, skip duplicates and covered tools, refuse invalid names', () => {
  let list = [];
  let out = toolgate.addToAllowlist(list, 'github', 'create_issue');
  assert.equal(out.status, 'added');
  list = out.list;
  assert.deepEqual(list, ['github:create_issue']);
  assert.equal(toolgate.addToAllowlist(list, 'github', 'create_issue').status, 'alreadyPresent');
  list = toolgate.addToAllowlist(list, 'github', '*').list;
  out = toolgate.addToAllowlist(list, 'github', 'delete_repo');
  assert.equal(out.status, 'coveredByWildcard');
  assert.equal(out.coveredBy, 'github:*');
  out = toolgate.addToAllowlist(list, 'git:hub', 'x');
  assert.equal(out.status, 'invalid');
  assert.deepEqual(out.list, list, 'the list is unchanged');
  assert.match(out.message, /server name must not contain ':'/);
  assert.deepEqual(toolgate.normalizeAllowlist(list).list, ['github:*']);
});

test('bad input throws clear errors and the instance keeps working', () => {
  assert.throws(() => toolgate.decideMcp('s', 42, {}, 'yolo'), { name: 'TypeError', message: 'toolName must be a string, got number' });
  assert.throws(() => toolgate.decideMcp('s', 't', { mcpAllowedTools: 'github:*' }, 'yolo'), /settings\.mcpAllowedTools: invalid type: string "github:\*", expected a sequence/);
  assert.throws(() => toolgate.decideMcp('s', 't', {}, 'YOLO'), /mode must be one of ask_every_time, yolo, full_yolo/);
  assert.throws(() => new toolgate.McpPolicy({ mcpAllowedTools: [1n] }), /BigInt/);
  assert.throws(() => toolgate.validateName('\uD83D'), /lone surrogate/);
  assert.throws(() => toolgate.addToAllowlist(new Map(), 's', 't'), /list: invalid type: map, expected a sequence/);
  assert.deepEqual(toolgate.validateName('x'.repeat(100000)), { ok: false, errors: [{ code: 'nameTooLong', message: 'tool name is 100000 characters long; the limit is 256' }] },
    'a name that is too long is an answer, not a throw');
  assert.equal(toolgate.decideMcp('s', 't', {}, 'ask_every_time').needApproval, true);
});

test('names and entries: a user\'s mistake comes back as { ok: false, errors }, only a wrong type throws', () => {
  assert.deepEqual(toolgate.validateName('github', 'server'), { ok: true });
  assert.deepEqual(toolgate.validateName('', 'server'), { ok: false, errors: [{ code: 'nameEmpty', message: 'server name must not be empty' }] });
  assert.deepEqual(toolgate.validateName('a:b').errors.map((e) => e.code), ['nameReservedCharacter']);
  assert.deepEqual(toolgate.parseEntry('github:*'), { ok: true, serverId: 'github', toolName: '*' });
  assert.deepEqual(toolgate.parseEntry('a:b:c').errors.map((e) => e.code), ['tooManySeparators']);
  assert.deepEqual(toolgate.parseEntry('github').errors.map((e) => e.code), ['missingSeparator']);
  assert.deepEqual(toolgate.formatEntry('github', 'create_issue'), { ok: true, entry: 'github:create_issue' });
  const bad = toolgate.formatEntry('git:hub', 'x');
  assert.equal(bad.ok, false, 'an invalid name is refused as data');
  assert.equal(bad.errors[0].code, 'nameReservedCharacter');
  assert.match(bad.errors[0].message, /server name must not contain ':'/);
  assert.throws(() => toolgate.formatEntry('github', 3), { name: 'TypeError', message: 'toolName must be a string, got number' });
  assert.throws(() => toolgate.parseEntry(null), { name: 'TypeError', message: 'entry must be a string, got null' });
  assert.throws(() => toolgate.validateName('x', 'neither'), { name: 'TypeError', message: /kind: unknown variant `neither`/ });
});

test('a name is valid exactly when the seed\'s ihe() says so, whitespace as String.prototype.trim sees it', async () => {
  const toolgate = require('toolgate');
  const { ihe } = await import('../../bench/seed-baseline.mjs');
  // Every Unicode White_Space character, U+FEFF, U+180E and U+200B (whitespace once, or almost),
  // the reserved characters, letters.
  const spaces = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
  for (let c = 0x2000; c <= 0x200a; c++) spaces.push(c);
  const chars = [...spaces, 0xfeff, 0x180e, 0x200b, 0x3a, 0x2a, 0x61, 0x5f].map((c) => String.fromCharCode(c));
  const names = [...chars, ...chars.flatMap((a) => chars.map((b) => a + b)), '*', 'x'.repeat(256), 'x'.repeat(257)];
  for (const name of names) {
    assert.equal(toolgate.validateName(name).ok, ihe(name), JSON.stringify(name));
  }
});

test('the fast methods check their arguments exactly like decide()', () => {
  const policy = new toolgate.McpPolicy({ mcpAllowedTools: ['*:*'], mcpToolsProtection: false });
  assert.equal(policy.needsApproval('github', 'x', 'yolo'), false);
  assert.equal(policy.isAllowlisted('github', 'x'), true);
  // Non-ASCII and long names leave the one-crossing copy for the checked path, with the same answers.
  assert.equal(policy.isAllowlisted('gîthub', 'outil'), true);
  assert.equal(policy.isAllowlisted('g'.repeat(300), 'x'), false, 'too long is an invalid name, even under *:*');
  assert.equal(policy.needsApproval('g'.repeat(300), 'x', 'full_yolo'), true);
  for (const method of ['isAllowlisted', 'needsApproval']) {
    const call = (s, t) => policy[method](s, t, 'yolo');
    assert.throws(() => call(42, 'x'), { name: 'TypeError', message: 'serverId must be a string, got number' });
    assert.throws(() => call('github', {}), { name: 'TypeError', message: 'toolName must be a string, got object' });
    assert.throws(() => call(['github'], 'x'), { name: 'TypeError', message: 'serverId must be a string, got an array' });
    assert.throws(() => call('github', 'x\uD800'), { name: 'TypeError', message: 'toolName is not well-formed UTF-16 (it contains a lone surrogate)' });
  }
  assert.throws(() => policy.needsApproval('github', 'x', 'YOLO'), /mode must be one of ask_every_time, yolo, full_yolo/);
  assert.equal(policy.isAllowlisted('tool\uFFFD', 'x'), false, 'U+FFFD is refused like the surrogate it may stand for');
  assert.equal(policy.needsApproval('github', 'x', 'yolo'), false, 'the policy still works after the errors');
});

test('results read the same after wasm memory grows (the reader\'s views over the old buffer are dropped)', () => {
  const policy = new toolgate.McpPolicy({ mcpAllowedTools: ['github:*', 'bad entry'], mcpToolsProtection: false });
  const calls = [['github', 'x'], ['docs', 'search'], ['a:b', 'x']];
  const before = calls.map(([s, t]) => policy.decide(s, t, 'yolo'));
  const bytes = () => toolgate.__toolgate.memory().buffer.byteLength;
  const start = bytes();
  // A large policy makes the module grow its memory, which detaches the buffer every view was over.
  const big = new toolgate.McpPolicy({ mcpAllowedTools: Array.from({ length: 20000 }, (_, i) => `server${i}:tool${i}`), mcpToolsProtection: false });
  assert.ok(bytes() > start, `memory did not grow (${start} bytes)`);
  assert.deepEqual(calls.map(([s, t]) => policy.decide(s, t, 'yolo')), before);
  assert.equal(big.decide('server7', 'tool7', 'yolo').matched.entry, 'server7:tool7');
  big.free();
  policy.free();
});

test('the web build, initialised synchronously from bytes, decides exactly like the Node build', async () => {
  const webPath = require.resolve('toolgate/web');
  const web = await import(pathToFileURL(webPath).href);
  const wasm = readFileSync(require.resolve('toolgate/toolgate_bg.wasm'));
  web.initSync({ module: wasm });
  const settings = [
    { mcpAllowedTools: ['github:*', '*:search', 'bad'], mcpToolsProtection: false, playwrightProtection: false },
    { isAdminControlled: true, adminMcpAllowedTools: ['docs:*'], mcpAllowedTools: ['github:*'], mcpToolsProtection: false },
    { mcpAllowlistsEnabled: false, yoloMcpToolsDisabled: false },
    {},
  ];
  const calls = [['github', 'x'], ['docs', 'search'], ['cursor-ide-browser', 'navigate'], ['a:b', 'x'], ['other', 'y']];
  for (const s of settings) {
    for (const [server, tool] of calls) {
      for (const mode of ['ask_every_time', 'yolo', 'full_yolo']) {
        assert.deepEqual(web.decideMcp(server, tool, s, mode), toolgate.decideMcp(server, tool, s, mode));
      }
    }
  }
});

test('the main entry, built without the shell analysis, decides every MCP call as the full core does', async () => {
  // The tools' module (the settings page's) carries the whole core (shell analysis, every matcher)
  // and the same MCP API: random settings, names and modes must get identical answers from both builds.
  const full = await import(pathToFileURL(require.resolve('toolgate/tools/web')).href);
  full.initSync({ module: readFileSync(require.resolve('toolgate/tools/toolgate_tools_bg.wasm')) });
  let seed = 0x9e3779b9;
  const below = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; };
  const pick = (xs) => xs[below(xs.length)];
  const names = ['github', 'docs', 'cursor-ide-browser', 'cursor-browser-extension', 'search', 'create_issue', '*', '',
    ' ', 'a:b', 'x*', 'dócs', 'g'.repeat(257), 'rm -rf /', '$(id)', 'ls; echo'];
  const entry = () => below(8) === 0 ? pick(['bad', 'a::b', ':x', '*:*', '']) : `${pick(names)}:${pick(names)}`;
  const list = () => Array.from({ length: below(6) }, entry);
  const flag = () => [true, false, undefined][below(3)];
  const modes = ['ask_every_time', 'yolo', 'full_yolo'];
  const seen = new Set();
  for (let round = 0; round < 150; round++) {
    const settings = JSON.parse(JSON.stringify({
      mcpAllowedTools: list(), adminMcpAllowedTools: list(), mcpToolsProtection: flag(), playwrightProtection: flag(),
      isDisabledByAdmin: flag(), isAdminControlled: flag(), mcpAllowlistsEnabled: flag(), yoloMcpToolsDisabled: flag(),
    }));
    const lean = new toolgate.McpPolicy(settings);
    const whole = new full.McpPolicy(settings);
    assert.deepEqual(lean.invalidEntries, whole.invalidEntries);
    for (let k = 0; k < 8; k++) {
      const [server, tool, mode] = [pick(names), pick(names), pick(modes)];
      const decision = lean.decide(server, tool, mode);
      seen.add(decision.reason);
      const where = JSON.stringify({ settings, server, tool, mode });
      assert.deepEqual(decision, whole.decide(server, tool, mode), where);
      assert.equal(lean.needsApproval(server, tool, mode), whole.needsApproval(server, tool, mode), where);
      assert.equal(lean.isAllowlisted(server, tool), whole.isAllowlisted(server, tool), where);
      assert.deepEqual(toolgate.decideMcp(server, tool, settings, mode), full.decideMcp(server, tool, settings, mode), where);
    }
    lean.free();
    whole.free();
  }
  // The calls reached the seed's branches, not just one of them.
  for (const reason of ['invalidName', 'allowlisted', 'notAllowlisted', 'mcpProtection', 'browserProtection', 'runEverything', 'askEveryTime']) {
    assert.ok(seen.has(reason), `no call was decided by ${reason}: ${[...seen].join(', ')}`);
  }
});
