// The shared contract fixtures (tests/fixtures/contract.json) through the packed package's wasm
// bindings (Node build). tests/contract.rs runs the same file through the JSON twin
// (`toolgate::api::call_json`). Each fixture's `expect` is the whole answer and both sides must
// give exactly it, so the two answers are equal: a field that differs, is missing or is extra on
// either side fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from './install-package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = JSON.parse(readFileSync(join(here, '..', 'fixtures', 'contract.json'), 'utf8'));

const require = installPackage();
const mcp = require('toolgate');
const engine = require('toolgate/engine');
// Lint, import/export and the settings validator are in `toolgate/tools` (the engine plus its tools).
const tools = require('toolgate/tools');

/** Runs `f` on a compiled policy and frees it, whatever happens. */
function withPolicy(spec, f) {
  const policy = new engine.Policy(spec);
  try {
    return f(policy);
  } finally {
    policy.free();
  }
}

/**
 * Each fixture `function` as JavaScript calls it, with positional args (a missing trailing arg
 * is passed as `undefined`). Answers carrying a compiled object are reduced to the data the
 * JSON twin returns in its place: a policy to `{ spec }`, an allowlist to its `summary`.
 */
const calls = {
  'Policy.decide': (a) => withPolicy(a(0), (p) => p.decide(a(1), a(2), a(3))),
  'Policy.problems': (a) => withPolicy(a(0), (p) => p.problems),
  'Policy.permissionOptions': (a) => withPolicy(a(0), (p) => p.permissionOptions(a(1), a(2), a(3))),
  'Policy.fromZedSettings': (a) => {
    const answer = engine.Policy.fromZedSettings(a(0));
    if (!answer.ok) return answer;
    const { policy, ...rest } = answer;
    try {
      return { ...rest, spec: policy.spec };
    } finally {
      policy.free();
    }
  },
  'GasolineAllowlist.parse': (a) => {
    const answer = engine.GasolineAllowlist.parse(a(0));
    if (!answer.ok) return answer;
    const { allowlist, ...rest } = answer;
    try {
      return { ...rest, summary: allowlist.summary };
    } finally {
      allowlist.free();
    }
  },
  // A session driven by steps (see `session_script` in src/api.rs): each step's result, or the
  // message it threw.
  Session: (a) => {
    const sessions = [new engine.Session(a(0), a(1))];
    try {
      return a(2).map((step) => {
        const { on = 0, ...call } = step;
        const [[method, args]] = Object.entries(call);
        const session = sessions[on];
        try {
          if (method === 'child') {
            sessions.push(session.child(...args));
            return null;
          }
          const result = session[method](...args);
          return result === undefined ? null : result;
        } catch (error) {
          return { error: error.message };
        }
      });
    } finally {
      for (const s of sessions.reverse()) s.free();
    }
  },
  validateModeRestrictions: (a) => engine.validateModeRestrictions(a(0), a(1)),
  applyZedSettingsChange: (a) => engine.applyZedSettingsChange(a(0), a(1)),
  analyzeCommand: (a) => engine.analyzeCommand(a(0), a(1)),
  decideTerminalCommand: (a) => engine.decideTerminalCommand(a(0), a(1), a(2)),
  decideFileOperation: (a) => engine.decideFileOperation(a(0), a(1), a(2), a(3), a(4)),
  // The settings page's document (the host half and the page call these).
  validateSettings: (a) => tools.validateSettings(a(0), a(1)),
  applySettingsChange: (a) => tools.applySettingsChange(a(0), a(1)),
  // Other agents' rules (src/import).
  importPolicy: (a) => tools.importPolicy(a(0), a(1), a(2)),
  exportPolicy: (a) => tools.exportPolicy(a(0), a(1), a(2)),
  // The MCP functions come from the package's main entry.
  decideMcp: (a) => mcp.decideMcp(a(0), a(1), a(2), a(3)),
  validateName: (a) => mcp.validateName(a(0), a(1)),
  parseEntry: (a) => mcp.parseEntry(a(0)),
  formatEntry: (a) => mcp.formatEntry(a(0), a(1)),
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Where `actual` and `expected` first differ (objects with the same keys, arrays with the same
 * length, everything else equal), or null where they are equal.
 */
function difference(actual, expected, path = '') {
  const at = path || 'the answer';
  if (isObject(expected)) {
    if (!isObject(actual)) return `${at}: expected an object`;
    for (const key of Object.keys(actual)) if (!Object.hasOwn(expected, key)) return `${path}.${key}: not expected`;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${path}.${key}: missing`;
      const inner = difference(actual[key], value, `${path}.${key}`);
      if (inner) return inner;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array`;
    if (actual.length !== expected.length) return `${at}: ${actual.length} elements, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const inner = difference(actual[i], expected[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return null;
  }
  return Object.is(actual, expected) ? null : `${at}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

test('the fixture file is the shared corpus, and every function in it is bound here', () => {
  assert.ok(fixtures.length >= 15, `only ${fixtures.length} fixtures`);
  const unknown = fixtures.filter((f) => !Object.hasOwn(calls, f.function)).map((f) => `${f.name}: ${f.function}`);
  assert.deepEqual(unknown, [], 'fixtures whose function this test does not know how to call');
  assert.equal(new Set(fixtures.map((f) => f.name)).size, fixtures.length, 'fixture names are unique');
});

for (const fixture of fixtures) {
  test(`contract: ${fixture.name}`, () => {
    const call = calls[fixture.function];
    assert.ok(call, `unknown function ${fixture.function}`);
    // The answer as JSON, as the JSON twin's is: what a caller can serialise or send on.
    const answer = JSON.parse(JSON.stringify(call((i) => fixture.args[i])));
    const where = difference(answer, fixture.expect);
    assert.equal(where, null,
      `${fixture.function}: ${where}\n got: ${JSON.stringify(answer, null, 2)}\n expected: ${JSON.stringify(fixture.expect, null, 2)}`);
  });
}

test('the equality rule itself: an extra or a missing key, a different array length or value all differ', () => {
  assert.equal(difference({ a: 1, b: [{ c: 2 }] }, { a: 1, b: [{ c: 2 }] }), null);
  assert.match(difference({ a: 1, b: [{ c: 2, d: 3 }] }, { a: 1, b: [{ c: 2 }] }), /\.b\[0\]\.d: not expected/);
  assert.match(difference({ a: [1, 2] }, { a: [1] }), /\.a: 2 elements, expected 1/);
  assert.match(difference({ a: { b: 'x' } }, { a: { b: 'y' } }), /\.a\.b: "x", expected "y"/);
  assert.match(difference({}, { ok: false }), /\.ok: missing/);
});

test('a caller\'s mistake is thrown, not answered (as in the JSON twin)', () => {
  assert.throws(() => mcp.decideMcp(42, 'x', {}, 'yolo'), { name: 'TypeError', message: /^serverId/ });
  assert.throws(() => mcp.validateName(7), { name: 'TypeError', message: /^name must be a string/ });
  assert.throws(() => engine.GasolineAllowlist.parse(undefined), { name: 'TypeError', message: /^yaml must be a string/ });
  assert.throws(() => engine.Policy.fromZedSettings({ user: 1 }), { name: 'TypeError', message: /^sources\.user: / });
});
