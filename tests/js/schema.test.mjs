// The policy file's JSON Schema as users get it (`toolgate/policy.schema.json` from the packed
// package), checked with a standard validator (Ajv, JSON Schema draft 2020-12): every policy the
// documentation (README.md, docs/) and the tests write is valid, the engine builds each one (so the schema is not stricter
// than the engine), policies the engine itself writes are valid, and a bad policy is rejected
// with the JSON pointer of the bad place.
//
// Where the engine accepts more than the schema can say, or the schema accepts what the engine
// reports later, it is on purpose:
// - "exactly one matcher field per rule" is not in the schema: a rule with none or several is
//   accepted by both, then reported as an invalid rule that fails closed (`policy.invalidPatterns`);
// - the schema does not check that a `pattern` compiles or that examples are decided as they say:
//   `lint` does (`invalidPattern`, `exampleDidNotMatch`, …);
// - `examples.match` items are an untagged enum in Rust (one string or a list of strings): the
//   schema says it with `anyOf`, which is exact here because the two shapes cannot overlap;
// - optional fields the engine reads as absent when `null` are typed `["string", "null"]`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { installPackage } from './install-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = installPackage();
const schema = require('toolgate/policy.schema.json');
const { Policy } = require('toolgate/engine');
const tools = require('toolgate/tools');
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

/** The object literal that starts at `start` (`{`), up to its matching brace, outside strings. */
function literalAt(text, start) {
  let depth = 0;
  let quote = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error(`unbalanced literal at ${start}`);
}

/** `const spec = { … }` in JavaScript source: a plain literal, evaluated as one. */
function specLiterals(source) {
  return [...source.matchAll(/\bconst spec = \{/g)].map((m) => new Function(`return (${literalAt(source, m.index + m[0].length - 1)});`)());
}

/** The documentation: README.md and every page in docs/. */
const DOCUMENTS = ['README.md', ...readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).map((n) => join('docs', n))];

/** Policies in the documentation's code blocks: JSON blocks that are policies, and the JS blocks' `const spec`. */
function readmePolicies() {
  const readme = DOCUMENTS.map((file) => readFileSync(join(root, file), 'utf8')).join('\n');
  const found = [];
  for (const [, lang, body] of readme.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)) {
    if (lang === 'json') {
      const value = JSON.parse(body);
      if (value && typeof value === 'object' && ('layers' in value || 'presets' in value)) found.push(value);
    } else if (lang === 'js') found.push(...specLiterals(body));
  }
  return found;
}

/** The specs the shared contract fixtures build policies from (tests/fixtures/*.json). */
function fixturePolicies() {
  const found = [];
  const dir = join(root, 'tests', 'fixtures');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const cases = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    if (!Array.isArray(cases)) continue;
    for (const c of cases) {
      if (['Policy.decide', 'Policy.problems', 'Policy.permissionOptions'].includes(c.function)) found.push(c.args[0]);
      if (c.function === 'exportPolicy') found.push(c.args[1]);
    }
  }
  return found;
}

const errorsOf = (spec) => (validate(spec) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`));

function assertValidAndBuilt(spec, where) {
  assert.deepEqual(errorsOf(spec), [], `${where}: ${JSON.stringify(spec).slice(0, 200)}`);
  assert.doesNotThrow(() => new Policy(spec), `${where}: the engine refuses a policy the schema accepts`);
}

test('the package publishes the schema, naming toolgate\'s policy, for draft 2020-12 validators', () => {
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(schema.title, 'toolgate policy');
  assert.match(schema.$id, /policy\.schema\.json$/);
  assert.deepEqual(require('toolgate/package.json').exports['./policy.schema.json'], './policy.schema.json');
});

test('a policy file may name the schema with "$schema" for editors: valid, built, and kept', () => {
  const spec = { $schema: './node_modules/toolgate/policy.schema.json', layers: [{ name: 'user', tools: { terminal: { alwaysAllow: [{ pattern: '^ls\\b' }] } } }] };
  assertValidAndBuilt(spec, '$schema');
  const policy = new Policy(spec);
  assert.equal(policy.spec.$schema, spec.$schema);
  assert.equal(policy.outcome('terminal', 'ls -la'), 'allow');
  policy.free();
  assert.notDeepEqual(errorsOf({ $schema: 3 }), [], 'a $schema that is not a string is refused');
});

test('every policy in the documentation\'s code blocks is valid and the engine builds it', () => {
  const policies = readmePolicies();
  assert.ok(policies.length >= 3, `the documentation has ${policies.length} policy blocks; expected the README's, the rule engine's and the CLI's`);
  policies.forEach((spec, i) => assertValidAndBuilt(spec, `documentation policy ${i}`));
});

test('the tests\' policies (engine.test.mjs, the shared contract fixtures) are valid and the engine builds them', () => {
  const fromEngineTest = specLiterals(readFileSync(join(root, 'tests', 'js', 'engine.test.mjs'), 'utf8'));
  const fromFixtures = fixturePolicies();
  assert.ok(fromEngineTest.length >= 1 && fromFixtures.length >= 5, `${fromEngineTest.length} + ${fromFixtures.length} policies found`);
  [...fromEngineTest, ...fromFixtures].forEach((spec, i) => assertValidAndBuilt(spec, `test policy ${i}`));
});

test('policies the engine writes are valid: imports, presets, Zed settings, a policy with every kind of field', () => {
  const claude = tools.importPolicy('claudeCode', [{ scope: 'project', text: JSON.stringify({
    permissions: { allow: ['Bash(npm run *)', 'WebFetch(domain:*.example.com)', 'mcp__github'], deny: ['Read(./.env)'], defaultMode: 'acceptEdits' },
  }) }], { cwd: '/repo', home: '/home/me' });
  const codex = tools.importPolicy('codex', [{ scope: 'user', text: 'prefix_rule(pattern=["git", ["status", "log"]], decision="allow", match=["git status"], not_match=["git push"])\n' }]);
  assert.ok(claude.ok && codex.ok);
  const zed = Policy.fromZedSettings({ user: '{ "agent": { "tool_permissions": { "tools": { "terminal": { "always_allow": [{ "pattern": "^ls\\\\b" }] } } } } }' });
  assert.ok(zed.ok, JSON.stringify(zed.errors));
  const everything = {
    catalogue: 'cursor',
    defaultMode: 'deny',
    alwaysAllowToolActions: true,
    substitutions: 'deny',
    invalidPatterns: 'blockTool',
    unparsedCommands: 'deny',
    suggest: 'prefix',
    toolKinds: { my_shell: { kind: 'command', shell: 'nushell' }, browse: { kind: 'url' }, pair: { kind: 'pathPair' } },
    presets: ['readOnlyCommands', 'dangerousCommands'],
    gates: [
      { when: { kind: 'runs', program: 'sudo' }, outcome: 'confirm', reason: 'sudo', tools: ['terminal'], message: 'sudo asks' },
      { when: { kind: 'outsideRoots', roots: ['/repo'] }, outcome: 'confirm', reason: 'outsideWorkspace' },
      { when: { kind: 'invalidRule', list: 'alwaysDeny' }, outcome: 'deny', reason: 'invalidPattern' },
      { when: { kind: 'cannotVouch', unless_unrestricted: true }, outcome: 'deny', reason: 'parseFailed' },
      { when: { kind: 'allowRules' }, outcome: 'allow', reason: 'allowRule' },
    ],
    layers: [
      tools.presetLayer('dangerousCommands'),
      { name: 'project', kind: 'project', trusted: false, defaultMode: 'confirm', tools: {
        terminal: { defaultMode: 'confirm', alwaysAllow: [
          { glob: 'npm run *', examples: { match: ['npm run build'], notMatch: ['npm publish'] } },
          { tokens: 'git status|log' }, { prefix: 'cargo test' }, { pattern: '^LS\\b', caseSensitive: true },
        ] },
        edit_file: { alwaysDeny: [{ path: '**/.env', root: '/repo' }] },
        fetch: { alwaysAllow: [{ domain: '*.example.com' }] },
        mcp: { alwaysAllow: [{ mcp: 'github:*' }] },
        gasoline: { alwaysAllow: [{ toolAction: 'observe.*' }] },
        move_path: { alwaysAllow: [{ pattern: '^src/', examples: { match: [['src/a', 'src/b']] } }] },
      } },
    ],
  };
  const specs = [claude.policy, codex.policy, zed.policy.spec, new Policy({ presets: ['readOnlyCommands'] }).spec, everything];
  specs.forEach((spec, i) => assertValidAndBuilt(spec, `engine-written policy ${i}`));
});

test('a bad policy is rejected with the JSON pointer of the bad place', () => {
  const bad = {
    defaultMode: 'maybe',
    layers: [
      { name: 'user', tools: { terminal: { alwaysAllow: [{ patern: '^ls\\b' }] } } },
      { kind: 'project', tools: {} },
      { name: 'x', tools: { fetch: { alwaysAllow: [{ domain: 'example.com', examples: { match: [42] } }] } } },
    ],
    catalogue: 'vim',
    presets: ['readonly'],
  };
  assert.equal(validate(bad), false);
  const at = (pointer, keyword) => validate.errors.find((e) => e.instancePath === pointer && e.keyword === keyword);
  assert.equal(at('/layers/0/tools/terminal/alwaysAllow/0', 'additionalProperties')?.params.additionalProperty, 'patern');
  assert.ok(at('/defaultMode', 'oneOf'), 'an outcome "maybe" is named at /defaultMode');
  assert.equal(at('/layers/1', 'required')?.params.missingProperty, 'name');
  assert.ok(at('/layers/2/tools/fetch/alwaysAllow/0/examples/match/0', 'anyOf'), 'an example that is neither a string nor a list');
  assert.ok(at('/catalogue', 'oneOf') && at('/presets/0', 'oneOf'), 'unknown catalogue and preset names');
  // The engine refuses the same typo, naming the same place in its own path format.
  assert.throws(() => new Policy({ layers: [bad.layers[0]] }), { name: 'TypeError', message: /layers\[0\]\.tools\.terminal\.alwaysAllow\[0\]\.patern/ });
});

test('the schema is no stricter than the engine where the engine reports instead of refusing', () => {
  // A rule with two matchers passes both: the engine builds it and reports it invalid (fails closed).
  const twoMatchers = { layers: [{ name: 'user', tools: { terminal: { alwaysAllow: [{ pattern: '^ls', prefix: 'ls' }] } } }] };
  assertValidAndBuilt(twoMatchers, 'two matchers');
  assert.equal(new Policy(twoMatchers).invalidPatterns.length, 1);
  // An unknown key inside a rule is refused by both.
  const typo = { layers: [{ name: 'user', tools: { terminal: { alwaysDeny: [{ pattern: 'x', caseSensitiv: true }] } } }] };
  assert.equal(validate(typo), false);
  assert.throws(() => new Policy(typo), TypeError);
});
