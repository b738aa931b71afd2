// Gasoline's YAML allowlist and Roo Code's per-mode MCP restrictions, through the packed package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installPackage } from './install-package.mjs';

const require = installPackage();
const { GasolineAllowlist, RooMode, validateModeRestrictions } = require('toolgate/engine');

const yaml = `# Comments supported
allowed_tools:
  - "observe.*"             # Wildcard: all observe modes
  - "generate.*"
  - "interact.navigate"     # Specific: only navigate
`;

/** Parses YAML that must load, and returns the allowlist. */
function load(text) {
  const answer = GasolineAllowlist.parse(text);
  assert.equal(answer.ok, true, `expected the allowlist to load: ${JSON.stringify(answer.errors)}`);
  return answer.allowlist;
}

test('Gasoline: allowed calls pass, others get the exact error object, case-insensitively', () => {
  const list = load(yaml);
  assert.equal(list.check('observe', 'server_config'), null);
  assert.equal(list.check('INTERACT', 'Navigate'), null);
  assert.deepEqual(list.check('interact', 'execute_js'), {
    error: 'tool_not_allowed',
    message: 'interact.execute_js is not permitted. Allowed: observe.*, generate.*, interact.navigate',
    tool: 'interact',
    action: 'execute_js',
    allowed_tools: ['observe.*', 'generate.*', 'interact.navigate'],
  });
  assert.deepEqual(list.summary, { enabled: true, allowed_tools: ['observe.*', 'generate.*', 'interact.navigate'], count: 3, message: 'Allowlist enabled, 3 tools/actions permitted' });
  assert.deepEqual(list.patterns, ['observe.*', 'generate.*', 'interact.navigate']);
  assert.equal(load('').check('interact', 'execute_js'), null, 'an empty file allows everything');
});

test('Gasoline: decide() explains the same answers as check(), naming the pattern', () => {
  const list = load(yaml);
  const allowed = list.decide('INTERACT', 'Navigate');
  assert.equal(allowed.outcome, 'allow');
  assert.equal(allowed.reason, 'allowRule');
  assert.deepEqual([allowed.rule.matcher, allowed.rule.index, allowed.rule.pattern], ['toolAction', 2, 'interact.navigate']);
  const denied = list.decide('interact', 'execute_js');
  assert.equal(denied.outcome, 'deny');
  assert.equal(denied.rule, undefined, 'no pattern allowed it');
  for (const [tool, action] of [['observe', 'server_config'], ['generate', 'x'], ['interact', 'navigate'], ['interact', 'execute_js'], ['configure', 'y']]) {
    assert.equal(list.decide(tool, action).outcome === 'allow', list.check(tool, action) === null, `${tool}.${action}`);
  }
  assert.equal(load('').decide('interact', 'execute_js').outcome, 'allow', 'an empty file allows everything');
});

test('Gasoline: bad YAML or a bad pattern is an error with line and column; reload keeps the old list', () => {
  const badPattern = GasolineAllowlist.parse('allowed_tools:\n  - observe.*\n  - "interact.*.x"\n');
  assert.equal(badPattern.ok, false);
  assert.equal(badPattern.allowlist, undefined);
  assert.deepEqual(badPattern.errors.map((e) => [e.code, e.line, e.column]), [['invalidPattern', 3, 5]]);
  assert.match(badPattern.errors[0].message, /invalid pattern "interact\.\*\.x"/);
  const badYaml = GasolineAllowlist.parse('allowed_tools: [unclosed');
  assert.equal(badYaml.ok, false);
  assert.equal(badYaml.errors[0].code, 'invalidYaml');
  assert.match(badYaml.errors[0].message, /invalid YAML/);
  assert.deepEqual([badYaml.errors[0].line, badYaml.errors[0].column], [1, 16], 'the bracket that is not closed');
  const list = load(yaml);
  const failed = list.reload('allowed_tools:\n  - [oops');
  assert.equal(failed.ok, false);
  assert.equal(failed.errors[0].code, 'invalidYaml');
  assert.match(failed.errors[0].message, /invalid YAML/);
  assert.equal(list.check('interact', 'navigate'), null, 'the previous allowlist stays in force');
  assert.deepEqual(list.patterns, ['observe.*', 'generate.*', 'interact.navigate']);
  assert.deepEqual(list.reload('allowed_tools: ["interact.refresh"]'), { ok: true });
  assert.notEqual(list.check('interact', 'navigate'), null);
  assert.deepEqual(list.patterns, ['interact.refresh']);
  assert.throws(() => GasolineAllowlist.parse(42), { name: 'TypeError', message: 'yaml must be a string, got number' });
  assert.throws(() => list.reload(42), { name: 'TypeError', message: 'yaml must be a string, got number' });
});

const servers = { 'weather-server': { defaultEnabled: true }, 'admin-server': { defaultEnabled: false }, 'docs-server': {} };

test('Roo: defaultEnabled false servers are hidden unless allowed; disallowedServers beats defaultEnabled true', () => {
  const code = new RooMode({ mode: { slug: 'code', roleDefinition: 'ignored' }, servers });
  assert.equal(code.checkTool('weather-server', 'get_forecast'), null);
  assert.equal(code.checkTool('admin-server', 'drop_db'), 'Tool "use_mcp_tool" is not allowed in code mode (server: admin-server, tool: drop_db).');
  const admin = new RooMode({ mode: { slug: 'admin', mcpRestrictions: { allowedServers: ['admin-server'] } }, servers });
  assert.equal(admin.checkTool('admin-server', 'drop_db'), null);
  const locked = new RooMode({ mode: { slug: 'locked', mcpRestrictions: { disallowedServers: ['weather-server'] } }, servers });
  assert.match(locked.checkTool('weather-server', 'get_forecast'), /not allowed in locked mode/);
  assert.match(locked.checkResource('weather-server'), /access_mcp_resource/);
});

test('Roo: the catalogue the prompt describes is filtered, and restrictions are validated', () => {
  const mode = { slug: 'secure-mode', mcpRestrictions: {
    allowedServers: ['weather-server', 'docs-server'],
    allowedTools: [{ serverName: 'weather-server', toolName: 'get_forecast' }, { serverName: 'docs-server', toolName: 'search_docs' }],
    disallowedTools: [{ serverName: 'weather-server', toolName: 'admin_function' }],
  } };
  const catalogue = [
    { name: 'weather-server', tools: [{ name: 'get_forecast' }, { name: 'admin_function' }] },
    { name: 'admin-server', tools: [{ name: 'drop_db' }] },
    { name: 'docs-server', tools: [{ name: 'search_docs' }, { name: 'edit_docs' }] },
  ];
  assert.deepEqual(new RooMode({ mode, servers }).filterCatalogue(catalogue), [
    { name: 'weather-server', tools: [{ name: 'get_forecast' }] },
    { name: 'docs-server', tools: [{ name: 'search_docs' }] },
  ]);
  const conflicted = { slug: 'm', mcpRestrictions: { allowedServers: ['docs-server', 'ghost'], disallowedServers: ['docs-server'] } };
  const result = validateModeRestrictions(conflicted, catalogue);
  assert.equal(result.ok, false, 'a conflict is an error');
  assert.deepEqual(result.errors.map((e) => [e.code, e.path]), [['conflict', 'mcpRestrictions.allowedServers[0]']]);
  assert.deepEqual(result.warnings.map((w) => [w.code, w.path]), [['unknownServer', 'mcpRestrictions.allowedServers[1]']]);
  assert.ok(result.errors.concat(result.warnings).every((p) => typeof p.message === 'string' && p.message.length > 0));
  const warned = validateModeRestrictions({ slug: 'm', mcpRestrictions: { allowedServers: ['docs-server'],
    allowedTools: [{ serverName: 'docs-server', toolName: 'nope' }, { serverName: 'admin-server', toolName: 'drop_db' }] } }, catalogue);
  assert.equal(warned.ok, true, 'warnings alone do not fail validation');
  assert.deepEqual(warned.errors, []);
  assert.deepEqual(warned.warnings.map((w) => [w.code, w.path]), [['unknownTool', 'mcpRestrictions.allowedTools[0]'], ['unreachableTool', 'mcpRestrictions.allowedTools[1]']]);
  assert.deepEqual(validateModeRestrictions(mode, catalogue), { ok: true, errors: [], warnings: [] });
  assert.throws(() => new RooMode({ mode: { slug: 'm', mcpRestrictions: { allowedServer: [] } } }), /unknown field `allowedServer`/);
});
