// No poisoned instance: a build that traps on demand (`--features trap-test`), wrapped
// by the same code the package uses (js/resilient), shows a trap answered fail-closed, the module
// re-instantiated, and objects made before the trap deciding correctly afterwards — in Node and in
// headless Chromium. Then the package itself: every export has a fail-closed answer on record,
// and unfreed policies do not grow wasm memory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { chromium } from 'playwright-core';
import { makeResilientEntry, writeResilientLib } from '../../js/resilient/prepare.mjs';
import { CSP } from '../../scripts/serve.mjs';
import { snippetsToCommonJs } from '../../scripts/snippets.mjs';
import { installPackage } from './install-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const trapTarget = join(root, 'target', 'trap-test');
const trapPkg = join(trapTarget, 'pkg');

/**
 * Both APIs and the trap export in one debug build (fast to compile), bound for Node and the web
 * and prepared exactly as scripts/build.mjs prepares the package.
 */
function buildTrapVariant() {
  try {
    execFileSync('cargo', ['build', '--quiet', '--lib', '--target', 'wasm32-unknown-unknown', '--features', 'engine,trap-test'], {
      cwd: root, env: { ...process.env, CARGO_TARGET_DIR: trapTarget }, stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    throw new Error(`the trap-test build failed:\n${e.stderr}`);
  }
  const wasm = join(trapTarget, 'wasm32-unknown-unknown', 'debug', 'toolgate.wasm');
  rmSync(trapPkg, { recursive: true, force: true });
  for (const [target, dir, type] of [['nodejs', 'node', 'commonjs'], ['web', 'web', 'module']]) {
    const out = join(trapPkg, dir);
    execFileSync('wasm-bindgen', ['--target', target, '--out-dir', out, '--out-name', 'toolgate', wasm]);
    if (type === 'commonjs') snippetsToCommonJs(join(out, 'snippets'));
    writeFileSync(join(out, 'package.json'), JSON.stringify({ type }));
    makeResilientEntry({ dir: out, name: 'toolgate', type, libDir: join(trapPkg, 'resilient') });
  }
  writeResilientLib(join(trapPkg, 'resilient'));
}

let t; // the trap build's Node entry
const warnings = [];
before(() => {
  buildTrapVariant();
  t = createRequire(import.meta.url)(join(trapPkg, 'node', 'toolgate.js'));
});

// The wrapper reports each trap with console.warn; collect them instead of printing.
const realWarn = console.warn;
before(() => { console.warn = (message) => warnings.push(String(message)); });
after(() => { console.warn = realWarn; });

const spec = {
  layers: [
    { name: 'managed', kind: 'managed', tools: { terminal: { alwaysDeny: [{ pattern: '^curl\\b' }] } } },
    { name: 'user', kind: 'user', tools: {
      terminal: { alwaysAllow: [{ pattern: '^git\\s+(status|log|diff)\\b' }, { pattern: '^ls\\b' }], alwaysConfirm: [{ pattern: '^git\\s+push' }] },
      edit_file: { alwaysAllow: [{ pattern: '^src/' }] },
    } },
  ],
  defaultMode: 'confirm',
};
const mcpSettings = { mcpAllowedTools: ['github:*', 'dócs:search'], mcpToolsProtection: false };
const gasolineYaml = 'allowed_tools:\n  - "observe.*"\n  - "interact.navigate"\n';
const rooMode = { slug: 'review', mcpRestrictions: { allowedServers: ['docs'] } };
const rooOptions = { mode: rooMode, servers: { docs: {}, github: {} } };
const autoRun = { mode: 'yolo', commandAllowlist: ['git'] };

/** Arms the allocator: the next allocation in the module traps, inside whichever call makes it. */
const trapOnNextAllocation = () => t.__toolgateTrapForTest('allocation');
const traps = () => t.__toolgate.status().traps;

/** Calls `call` with a trap armed; checks that it really trapped, and returns its answer. */
function duringTrap(call) {
  const before = traps();
  trapOnNextAllocation();
  try {
    return call();
  } finally {
    const trapped = traps() === before + 1;
    t.__toolgateDisarmForTest(); // takes no argument: allocates nothing, so it cannot trap itself
    assert.ok(trapped, 'the call trapped');
  }
}

test('a trap in the middle of a call sequence: that call asks, the next call on the same policy decides', () => {
  const policy = new t.Policy(spec);
  assert.equal(policy.outcome('terminal', 'ls -la && git status'), 'allow');
  assert.equal(policy.decide('terminal', 'ls; curl https://x | sh').outcome, 'deny');

  const failed = duringTrap(() => policy.decide('terminal', 'ls -la'));
  assert.deepEqual(failed, {
    outcome: 'confirm', reason: 'internalError', items: [],
    message: 'toolgate hit an internal error (RuntimeError: unreachable) and asks instead',
  });
  assert.match(warnings.at(-1), /trapped in Policy\.decide .*failed closed, and the module was restarted/);

  // The policy was made before the trap: it rebuilds in the new instance and decides as before.
  assert.equal(policy.decide('terminal', 'ls -la').outcome, 'allow');
  assert.equal(policy.decide('terminal', 'ls; curl https://x | sh').outcome, 'deny');
  const push = policy.decide('terminal', 'git status && git push origin main');
  assert.deepEqual([push.outcome, push.reason, push.matchedInput], ['confirm', 'confirmRule', 'git push origin main']);
  // New policies work too.
  assert.equal(new t.Policy(spec).outcome('edit_file', 'src/main.rs'), 'allow');
  assert.equal(t.__toolgate.status().poisoned, false);
});

test('every deciding export fails closed when its call traps, and answers normally on the next call', () => {
  const policy = new t.Policy(spec);
  const mcp = new t.McpPolicy(mcpSettings);
  const gasoline = t.GasolineAllowlist.parse(gasolineYaml).allowlist;
  const roo = new t.RooMode(rooOptions);
  const catalogue = [{ name: 'docs', tools: [{ name: 'search' }] }, { name: 'github', tools: [{ name: 'x' }] }];
  const { change } = policy.permissionOptions('terminal', 'npm test')[0];
  const asksMessage = /^toolgate hit an internal error \(RuntimeError: unreachable\) and asks instead$/;
  const refusesMessage = /^toolgate hit an internal error \(RuntimeError: unreachable\) and refuses the call instead$/;
  const problem = (answer) => {
    assert.equal(answer.ok, false);
    assert.equal(answer.errors.length, 1);
    assert.equal(answer.errors[0].code, 'internalError');
    assert.match(answer.errors[0].message, /^toolgate hit an internal error \(RuntimeError: unreachable\)/);
  };
  const cases = [
    // [what, call, check of the fail-closed answer, check of the normal answer]
    ['Policy.decide', () => policy.decide('terminal', 'git status'),
      (d) => assert.deepEqual([d.outcome, d.reason], ['confirm', 'internalError']), (d) => assert.equal(d.outcome, 'allow')],
    ['Policy.decide with a rejecting hook', () => policy.decide('terminal', 'git status', 'reject'),
      (d) => { assert.deepEqual([d.outcome, d.reason], ['deny', 'internalError']); assert.match(d.message, refusesMessage); },
      (d) => assert.equal(d.outcome, 'deny')],
    ['Policy.outcome', () => policy.outcome('terminal', 'git status'), (o) => assert.equal(o, 'confirm'), (o) => assert.equal(o, 'allow')],
    ['Policy.fromZedSettings', () => t.Policy.fromZedSettings({ user: '{}' }), problem, (z) => assert.ok(z.ok && z.policy instanceof t.Policy)],
    ['McpPolicy.decide', () => mcp.decide('github', 'create_issue', 'yolo'),
      (d) => { assert.deepEqual([d.needApproval, d.reason, d.candidatesForAllowlist], [true, 'internalError', []]); assert.match(d.message, asksMessage); },
      (d) => assert.equal(d.needApproval, false)],
    // Non-ASCII names take the checked path, which allocates (the ASCII fast path does not).
    ['McpPolicy.needsApproval', () => mcp.needsApproval('dócs', 'search', 'yolo'), (b) => assert.equal(b, true), (b) => assert.equal(b, false)],
    ['McpPolicy.isAllowlisted', () => mcp.isAllowlisted('dócs', 'search'), (b) => assert.equal(b, false), (b) => assert.equal(b, true)],
    ['decideMcp', () => t.decideMcp('github', 'x', mcpSettings, 'yolo'),
      (d) => assert.deepEqual([d.needApproval, d.reason], [true, 'internalError']), (d) => assert.equal(d.needApproval, false)],
    ['entryMatches', () => t.entryMatches('dócs', 'search', 'dócs:*'), (b) => assert.equal(b, false), (b) => assert.equal(b, true)],
    ['validateName', () => t.validateName('a:b'), problem, (v) => assert.equal(v.errors[0].code, 'nameReservedCharacter')],
    ['formatEntry', () => t.formatEntry('github', 'x'), problem, (v) => assert.deepEqual(v, { ok: true, entry: 'github:x' })],
    ['parseEntry', () => t.parseEntry('github:x'), problem, (v) => assert.equal(v.ok, true)],
    ['GasolineAllowlist.parse', () => t.GasolineAllowlist.parse(gasolineYaml), problem, (v) => assert.equal(v.ok, true)],
    ['GasolineAllowlist.check', () => gasoline.check('observe', 'logs'),
      (e) => { assert.deepEqual([e.error, e.tool, e.action, e.allowed_tools], ['internal_error', 'observe', 'logs', []]); assert.match(e.message, refusesMessage); },
      (e) => assert.equal(e, null)],
    ['GasolineAllowlist.decide', () => gasoline.decide('observe', 'logs'),
      (d) => assert.deepEqual([d.outcome, d.reason], ['deny', 'internalError']), (d) => assert.equal(d.outcome, 'allow')],
    ['RooMode.checkTool', () => roo.checkTool('docs', 'search'), (s) => assert.match(s, refusesMessage), (s) => assert.equal(s, null)],
    ['RooMode.checkResource', () => roo.checkResource('docs'), (s) => assert.match(s, refusesMessage), (s) => assert.equal(s, null)],
    ['RooMode.filterCatalogue', () => roo.filterCatalogue(catalogue), (c) => assert.deepEqual(c, []), (c) => assert.deepEqual(c.map((s) => s.name), ['docs'])],
    ['validateModeRestrictions', () => t.validateModeRestrictions(rooMode, catalogue),
      (v) => { problem(v); assert.deepEqual(v.warnings, []); }, (v) => assert.equal(v.ok, true)],
    ['decideTerminalCommand', () => t.decideTerminalCommand('git status', autoRun),
      (d) => { assert.deepEqual([d.needApproval, d.reason, d.approvalType], [true, 'internalError', 'user']); assert.match(d.message, asksMessage); },
      (d) => assert.equal(d.needApproval, false)],
    ['decideFileOperation', () => t.decideFileOperation('write', 'src/x.rs', ['/p'], autoRun),
      (d) => assert.deepEqual([d.needApproval, d.reason, d.normalizedPath], [true, 'internalError', 'src/x.rs']), (d) => assert.equal(d.needApproval, false)],
    ['applyZedSettingsChange', () => t.applyZedSettingsChange({}, change), problem,
      (v) => assert.equal(v.ok, true)],
  ];
  // Wrappers inside answers (`{ ok, allowlist }`) compare by class: their insides differ by instance.
  const plain = (value) => JSON.parse(JSON.stringify(value, (key, v) =>
    (v !== null && typeof v === 'object' && [t.Policy, t.GasolineAllowlist].includes(v.constructor) ? `[${v.constructor.name}]` : v)));
  for (const [what, call, failClosed, normal] of cases) {
    const expected = call();
    normal(expected);
    const answer = duringTrap(call);
    assert.doesNotThrow(() => failClosed(answer), `${what}: ${JSON.stringify(answer)}`);
    assert.deepEqual(plain(call()), plain(expected), `${what} answers as before the trap`);
  }
});

test('exports without a fail-closed answer throw a clear Error, and the module is restarted', () => {
  const policy = new t.Policy(spec);
  for (const [what, call] of [
    ['analyzeCommand', () => t.analyzeCommand('ls | wc -l')],
    ['Policy.permissionOptions', () => policy.permissionOptions('terminal', 'npm test')],
    ['Policy.suggestions', () => policy.suggestions('terminal', 'npm test')],
    ['new Policy', () => new t.Policy(spec)],
    ['addToAllowlist', () => t.addToAllowlist(['a:b'], 'c', 'd')],
  ]) {
    const expected = call();
    const error = (() => {
      try {
        duringTrap(call);
      } catch (e) {
        return e;
      }
      return null;
    })();
    assert.ok(error instanceof Error, `${what} throws`);
    assert.equal(error.code, 'TOOLGATE_INTERNAL_ERROR', `${what}: ${error.message}`);
    assert.equal(error.message, `toolgate hit an internal error in ${what} (RuntimeError: unreachable); ` +
      'this call did not complete, and the module was restarted so later calls work');
    assert.ok(error.cause instanceof WebAssembly.RuntimeError);
    if (what === 'new Policy') assert.equal(call().outcome('terminal', 'ls'), 'allow');
    else assert.deepEqual(call(), expected, `${what} works after the restart`);
  }
  // A caller's mistake is not a trap: it throws the usual TypeError and restarts nothing.
  const before = t.__toolgate.status();
  assert.throws(() => policy.decide(42), { name: 'TypeError' });
  assert.deepEqual(t.__toolgate.status(), before);
});

test('a panic, an out-of-memory and an unreachable all trap; each is survived', () => {
  const policy = new t.Policy(spec);
  const mcp = new t.McpPolicy(mcpSettings);
  for (const kind of ['panic', 'outOfMemory', 'unreachable']) {
    const before = t.__toolgate.status();
    assert.throws(() => t.__toolgateTrapForTest(kind), (e) => e.code === 'TOOLGATE_INTERNAL_ERROR' && e.cause instanceof WebAssembly.RuntimeError);
    const after = t.__toolgate.status();
    assert.deepEqual([after.traps, after.restarts, after.poisoned], [before.traps + 1, before.restarts + 1, false], kind);
    assert.equal(policy.outcome('terminal', 'git log'), 'allow', kind);
    // The ASCII fast path copies names through a snippet's view of memory: it must see the new instance's.
    assert.equal(mcp.isAllowlisted('github', 'create_issue'), true, kind);
    assert.equal(mcp.isAllowlisted('gitlab', 'create_issue'), false, kind);
    assert.equal(mcp.decide('github', 'create_issue', 'yolo').message, 'github:create_issue is allowed by your allowlist entry 0 "github:*"');
  }
});

test('objects made before a trap rebuild from what made them, not from what the caller changed since', () => {
  const mine = structuredClone(spec);
  const policy = new t.Policy(mine);
  mine.layers[1].tools.terminal.alwaysAllow = []; // the caller reuses its object afterwards
  const zed = t.Policy.fromZedSettings({ user: '{ "agent": { "tool_permissions": { "tools": { "terminal": { "always_allow": [{ "pattern": "^ls\\\\b" }] } } } } }' });
  assert.equal(zed.ok, true);
  assert.ok(zed.policy instanceof t.Policy, 'a policy inside a result is the wrapper class');
  const zedBefore = zed.policy.decide('terminal', 'ls -la');
  const gasoline = t.GasolineAllowlist.parse(gasolineYaml).allowlist;
  assert.deepEqual(gasoline.reload('allowed_tools: ["interact.refresh"]'), { ok: true });
  assert.equal(gasoline.reload('allowed_tools: [oops').ok, false, 'a failed reload changes nothing');
  const roo = new t.RooMode(rooOptions);

  assert.throws(() => t.__toolgateTrapForTest('unreachable'));

  assert.equal(policy.outcome('terminal', 'git status'), 'allow', 'built from the spec as it was');
  assert.deepEqual(zed.policy.decide('terminal', 'ls -la'), zedBefore, 'a Zed policy rebuilds from its settings files');
  assert.deepEqual(gasoline.patterns, ['interact.refresh'], 'the last successful reload is replayed');
  assert.equal(gasoline.check('interact', 'refresh'), null);
  assert.notEqual(gasoline.check('observe', 'logs'), null);
  assert.equal(roo.checkTool('github', 'x') !== null, true);
  assert.equal(roo.checkTool('docs', 'x'), null);
});

test('freed objects stay freed; objects of a dead instance are never freed into the new one', async () => {
  const gc = exposeGc();
  const freed = new t.Policy(spec);
  freed.free();
  assert.throws(() => freed.outcome('terminal', 'ls'), /null pointer|freed|destroyed/i);
  // Many unfreed objects of the instance that is about to die…
  let doomed = Array.from({ length: 300 }, () => new t.McpPolicy(mcpSettings));
  assert.throws(() => t.__toolgateTrapForTest('unreachable'));
  assert.throws(() => freed.outcome('terminal', 'ls'), /null pointer|freed|destroyed/i, 'a freed object is not rebuilt');
  // …and objects of the new one, which the old ones' finalizers must not touch.
  const live = Array.from({ length: 300 }, (_, i) => new t.McpPolicy({ ...mcpSettings, mcpAllowedTools: [`s${i}:*`] }));
  doomed[0].free(); // made in the dead instance: only forgotten, never freed into this one
  doomed = null;
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  live.forEach((p, i) => assert.equal(p.decide(`s${i}`, 'x', 'yolo').matched.entry, `s${i}:*`));
  assert.equal(t.__toolgate.status().poisoned, false);
});

test('while the module cannot be restarted, every call fails closed; a restart is retried before each call', async () => {
  const { resilient } = createRequire(import.meta.url)(join(root, 'pkg', 'resilient', 'resilient.cjs'));
  let restart = 'fails';
  let calls = 0;
  let settle;
  const glue = {
    __toolgate: {
      reinstantiate() {
        if (restart === 'fails') throw new RangeError('WebAssembly.Instance(): Out of memory');
        if (restart === 'async') return new Promise((resolve) => { settle = resolve; });
      },
      memory: () => undefined,
    },
    decideMcp(server) {
      calls += 1;
      if (server === 'trap') throw new WebAssembly.RuntimeError('unreachable');
      return { needApproval: false, reason: 'allowlisted' };
    },
  };
  const api = resilient(glue, { warn: () => {} });
  assert.equal(api.decideMcp('trap').reason, 'internalError');
  assert.equal(api.__toolgate.status().poisoned, true, 'the restart failed');
  assert.equal(api.decideMcp('github').reason, 'internalError', 'still no module: fails closed without calling it');
  assert.equal(calls, 1);
  restart = 'async'; // e.g. a browser that refuses synchronous instantiation
  assert.equal(api.decideMcp('github').reason, 'internalError', 'fails closed until the instance is ready');
  settle();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(api.decideMcp('github'), { needApproval: false, reason: 'allowlisted' });
  assert.deepEqual(api.__toolgate.status(), { generation: 1, traps: 1, restarts: 1, poisoned: false });
});

test('every export of the package has a fail-closed answer on record, and every mutating method a replay', async () => {
  const { ON_TRAP, MUTATORS } = createRequire(import.meta.url)(join(root, 'pkg', 'resilient', 'resilient.cjs'));
  const missing = [];
  for (const entry of ['node/toolgate_raw.js', 'engine/node/toolgate_engine_raw.js']) {
    const raw = createRequire(import.meta.url)(join(root, 'pkg', entry));
    for (const [name, value] of Object.entries(raw)) {
      if (name.startsWith('__')) continue;
      if (typeof value.prototype?.free !== 'function') {
        if (!(name in ON_TRAP)) missing.push(name);
        continue;
      }
      const keys = [`new ${name}`,
        ...Object.getOwnPropertyNames(value.prototype).filter((k) => !['constructor', 'free'].includes(k) && !k.startsWith('__')).map((k) => `${name}.${k}`),
        ...Object.getOwnPropertyNames(value).filter((k) => !['length', 'name', 'prototype'].includes(k) && !k.startsWith('__')).map((k) => `${name}.${k}`)];
      missing.push(...keys.filter((k) => !(k in ON_TRAP)));
    }
  }
  assert.deepEqual(missing, [], 'add these to ON_TRAP in js/resilient/resilient.js');

  // A `&mut self` method (or a setter) changes its object: it must be replayed after a restart.
  const mutating = [];
  for (const file of readdirSync(join(root, 'src', 'bindings')).filter((f) => f.endsWith('.rs'))) {
    const source = readFileSync(join(root, 'src', 'bindings', file), 'utf8');
    for (const block of source.matchAll(/#\[wasm_bindgen\(js_class = (\w+)\)\]\s*impl \w+ \{([\s\S]*?)\n\}/g)) {
      for (const method of block[2].matchAll(/((?:#\[[^\]]*\]\s*)*)pub fn (\w+)\(\s*&mut self/g)) {
        const jsName = method[1].match(/js_name = (\w+)/)?.[1] ?? method[2];
        mutating.push(`${block[1]}.${jsName}`);
      }
    }
  }
  assert.ok(mutating.includes('GasolineAllowlist.reload'), mutating.join(', '));
  assert.deepEqual(mutating.filter((m) => !(m in MUTATORS)), [], 'add these to MUTATORS in js/resilient/resilient.js');
});

test('the package entries are the wrapper, with the same exports as the glue and the reason it adds', () => {
  const require = installPackage();
  for (const [entry, raw, types] of [['toolgate', 'node/toolgate_raw.js', 'node/toolgate.d.ts'],
    ['toolgate/engine', 'engine/node/toolgate_engine_raw.js', 'engine/node/toolgate_engine.d.ts']]) {
    const api = require(entry);
    const glue = createRequire(import.meta.url)(join(root, 'pkg', raw));
    assert.deepEqual(Object.keys(api).sort(), Object.keys(glue).sort(), entry);
    assert.equal(api.__toolgate.status().traps, 0);
    assert.match(readFileSync(join(root, 'pkg', types), 'utf8'), /^export type Reason = .*\| "internalError";$/m);
  }
  const web = readFileSync(join(root, 'pkg', 'web', 'toolgate.js'), 'utf8');
  assert.match(web, /^export default api\.default;$/m);
  assert.match(web, /^export const initSync = api\.initSync;$/m);
});

/** `gc()` without --expose-gc on the command line (node --test runs each file in its own process). */
function exposeGc() {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

test('fresh policies that are never freed do not grow wasm memory (50,000 decisions)', async () => {
  const gc = exposeGc();
  const require = installPackage();
  const engine = require('toolgate/engine');
  const mcp = require('toolgate');
  const memory = () => engine.__toolgate.memory().buffer.byteLength + mcp.__toolgate.memory().buffer.byteLength;
  const round = async (n) => {
    for (let i = 0; i < n; i++) {
      const policy = new engine.Policy(spec); // never freed
      assert.equal(policy.outcome('terminal', i % 2 ? 'git status' : 'curl x'), i % 2 ? 'allow' : 'deny');
      assert.equal(new mcp.McpPolicy(mcpSettings).needsApproval('github', `t${i}`, 'yolo'), false);
      if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve)); // finalizers run between tasks
    }
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  };
  await round(5000); // warm up: the allocators reach their working size
  const warm = memory();
  await round(20000);
  const middle = memory();
  await round(25000);
  const end = memory();
  // Without release, 45,000 more pairs of ~20 KB policies would need ~1.8 GB.
  const figures = `${warm} → ${middle} → ${end} bytes`;
  assert.ok(end - middle <= 4 * 65536, `wasm memory stopped growing: ${figures}`);
  assert.ok(end - warm <= 64 * 65536, `wasm memory is flat after warm-up: ${figures}`);
});

test('past the residency limit, policies still in use are released and rebuilt transparently', () => {
  const require = installPackage();
  const { McpPolicy } = require('toolgate');
  const { Policy } = require('toolgate/engine');
  const { MAX_RESIDENT } = createRequire(import.meta.url)(join(root, 'pkg', 'resilient', 'resilient.cjs'));
  const n = Math.round(MAX_RESIDENT * 1.5);
  const policies = Array.from({ length: n }, (_, i) => new McpPolicy({ mcpAllowedTools: [`s${i}:*`], mcpToolsProtection: false }));
  const engine = new Policy(spec);
  for (let round = 0; round < 2; round++) {
    policies.forEach((p, i) => {
      assert.equal(p.isAllowlisted(`s${i}`, 'x'), true);
      assert.equal(p.isAllowlisted(`s${i + 1}`, 'x'), false);
    });
    assert.equal(engine.outcome('terminal', 'git status'), 'allow');
  }
  assert.equal(policies[0].decide('s0', 'x', 'yolo').matched.entry, 's0:*');
});

// --- the web build in headless Chromium ----------------------------------------------------------

const page = `
import init, { Policy, McpPolicy, __toolgateTrapForTest, __toolgate } from '/web/toolgate.js';
const spec = ${JSON.stringify(spec)};
const results = {};
try {
  await init();
  const policy = new Policy(spec);
  const mcp = new McpPolicy(${JSON.stringify(mcpSettings)});
  results.before = [policy.outcome('terminal', 'ls -la'), mcp.isAllowlisted('github', 'x')];
  __toolgateTrapForTest('allocation');
  results.trapped = policy.decide('terminal', 'ls -la');
  results.status = __toolgate.status();
  results.after = [policy.outcome('terminal', 'ls -la'), policy.outcome('terminal', 'curl x'), mcp.isAllowlisted('github', 'x'),
    mcp.isAllowlisted('gitlab', 'x'), mcp.decide('github', 'x', 'yolo').reason, new Policy(spec).outcome('terminal', 'git log')];
  try { __toolgateTrapForTest('panic'); } catch (e) { results.panic = [e.code, e.cause.constructor.name]; }
  results.afterPanic = [policy.outcome('terminal', 'ls'), mcp.needsApproval('github', 'x', 'yolo'), __toolgate.status()];
} catch (e) {
  results.error = String(e && e.stack || e);
}
document.body.dataset.result = JSON.stringify(results);
`;

test('in headless Chromium, the web build survives a trap the same way', async () => {
  writeFileSync(join(trapPkg, 'trap-page.js'), page);
  writeFileSync(join(trapPkg, 'index.html'), '<!doctype html><meta charset="utf-8"><body><script type="module" src="/trap-page.js"></script></body>');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const file = normalize(join(trapPkg, req.url === '/' ? 'index.html' : decodeURIComponent(req.url.split('?')[0])));
    if (!file.startsWith(trapPkg + sep) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'content-security-policy': CSP });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction(() => document.body.dataset.result, null, { timeout: 60000 });
    const r = JSON.parse(await tab.evaluate(() => document.body.dataset.result));
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(errors, []);
    assert.deepEqual(r.before, ['allow', true]);
    assert.deepEqual([r.trapped.outcome, r.trapped.reason], ['confirm', 'internalError']);
    assert.deepEqual(r.status, { generation: 1, traps: 1, restarts: 1, poisoned: false }, 'restarted synchronously');
    assert.deepEqual(r.after, ['allow', 'deny', true, false, 'allowlisted', 'allow']);
    assert.deepEqual(r.panic, ['TOOLGATE_INTERNAL_ERROR', 'RuntimeError']);
    assert.deepEqual(r.afterPanic, ['allow', false, { generation: 2, traps: 2, restarts: 2, poisoned: false }]);
  } finally {
    await browser.close();
    server.close();
  }
});
