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

test('Gasoline: allowed calls pass, others get the exact error object, case-insensitively', () => {
  const list = new GasolineAllowlist(yaml);
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
  assert.equal(new GasolineAllowlist('').check('interact', 'execute_js'), null, 'an empty file allows everything');
});

test('Gasoline: bad YAML or a bad pattern is an error with line and column; reload keeps the old list', () => {
  assert.throws(() => new GasolineAllowlist('allowed_tools:\n  - observe.*\n  - "interact.*.x"\n'), (e) => e.line === 3 && e.column === 5 && /invalid pattern "interact\.\*\.x"/.test(e.message));
  assert.throws(() => new GasolineAllowlist('allowed_tools: [unclosed'), (e) => /invalid YAML/.test(e.message) && e.line >= 1);
  const list = new GasolineAllowlist(yaml);
  assert.throws(() => list.reload('allowed_tools:\n  - [oops'), /invalid YAML/);
  assert.equal(list.check('interact', 'navigate'), null, 'the previous allowlist stays in force');
  list.reload('allowed_tools: ["interact.refresh"]');
  assert.notEqual(list.check('interact', 'navigate'), null);
  assert.throws(() => new GasolineAllowlist(42), /yaml must be a string, got number/);
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
  const issues = validateModeRestrictions(conflicted, catalogue);
  assert.deepEqual(issues.map((i) => [i.severity, i.path]), [['error', 'mcpRestrictions.allowedServers[0]'], ['warning', 'mcpRestrictions.allowedServers[1]']]);
  assert.throws(() => new RooMode({ mode: { slug: 'm', mcpRestrictions: { allowedServer: [] } } }), /unknown field `allowedServer`/);
});
