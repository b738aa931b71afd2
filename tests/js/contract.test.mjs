// The shared contract fixtures (tests/fixtures/contract.json) through the packed package's wasm
// bindings (Node build). tests/contract.rs runs the same file through the JSON twin
// (`toolgate::api::call_json`), so a call must give the same answer natively and in JavaScript.
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
 * Where `actual` fails to contain what `expected` says (the rule of tests/contract.rs: objects
 * by key, arrays element-wise with equal length, everything else equal), or null if it does.
 */
function mismatch(actual, expected, path = '') {
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path || 'the answer'}: expected an object`;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${path}.${key}: missing`;
      const inner = mismatch(actual[key], value, `${path}.${key}`);
      if (inner) return inner;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || 'the answer'}: expected an array`;
    if (actual.length !== expected.length) return `${path || 'the answer'}: ${actual.length} elements, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const inner = mismatch(actual[i], expected[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return null;
  }
  return Object.is(actual, expected) ? null : `${path || 'the answer'}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
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
    const answer = call((i) => fixture.args[i]);
    const where = mismatch(answer, fixture.expect);
    assert.equal(where, null,
      `${fixture.function}: ${where}\n got: ${JSON.stringify(answer, null, 2)}\n expected: ${JSON.stringify(fixture.expect, null, 2)}`);
  });
}

test('the contains rule itself: extra keys are fine, a different array length or value is not', () => {
  assert.equal(mismatch({ a: 1, b: [{ c: 2, d: 3 }] }, { b: [{ c: 2 }] }), null);
  assert.match(mismatch({ a: [1, 2] }, { a: [1] }), /\.a: 2 elements, expected 1/);
  assert.match(mismatch({ a: { b: 'x' } }, { a: { b: 'y' } }), /\.a\.b: "x", expected "y"/);
  assert.match(mismatch({}, { ok: false }), /\.ok: missing/);
});

test('a caller\'s mistake is thrown, not answered (as in the JSON twin)', () => {
  assert.throws(() => mcp.decideMcp(42, 'x', {}, 'yolo'), { name: 'TypeError', message: /^serverId/ });
  assert.throws(() => mcp.validateName(7), { name: 'TypeError', message: /^name must be a string/ });
  assert.throws(() => engine.GasolineAllowlist.parse(undefined), { name: 'TypeError', message: /^yaml must be a string/ });
  assert.throws(() => engine.Policy.fromZedSettings({ user: 1 }), { name: 'TypeError', message: /^sources\.user: / });
});
