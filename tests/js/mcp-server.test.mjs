// Gasoline's allowlist inside a real MCP server: the example server (examples/mcp-server/) runs over
// stdio and is called with the official SDK's own Client, as an agent's host would call it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { installPackage, packedFiles } from './install-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const exampleServer = join(root, 'examples', 'mcp-server', 'server.mjs');
const exampleAllowlist = readFileSync(join(root, 'examples', 'mcp-server', 'allowlist.yaml'), 'utf8');
const require = installPackage();

/** Every wait in this file ends by this deadline. */
const WAIT_MS = 10_000;
const REQUEST = { timeout: WAIT_MS };

const cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-mcp-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Polls `probe` until it returns a truthy value, failing with `what` after WAIT_MS. */
async function waitFor(what, probe) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_MS} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts the example server on `yaml` (in a fresh directory) and connects the SDK's client. */
async function startServer(yaml) {
  const dir = tempDir();
  const file = join(dir, 'allowlist.yaml');
  writeFileSync(file, yaml);
  const transport = new StdioClientTransport({
    command: process.execPath, args: [exampleServer, '--allowlist-config=allowlist.yaml'], cwd: dir, stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (chunk) => { stderr += chunk; });
  const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
  cleanups.push(() => client.close());
  await client.connect(transport, REQUEST);
  await client.listTools(undefined, REQUEST); // the client then checks results against output schemas

  const lines = () => stderr.split('\n');
  return {
    dir, file, lines,
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, REQUEST),
    /** How often the handler behind `name` ("tool.action") ran, as the server logged it. */
    ran: (name) => lines().filter((l) => l === `ran ${name}`).length,
    waitForLog: (pattern) => waitFor(`a log line matching ${pattern}`, () => lines().find((l) => pattern.test(l))),
    /** An allowed call whose log line proves every earlier log line has arrived. */
    async flushLogs(name, args) {
      const before = this.ran(name);
      assert.equal((await this.call(name.split('.')[0], args)).isError, undefined, `${name} must be allowed`);
      await waitFor(`"ran ${name}"`, () => this.ran(name) > before);
    },
  };
}

const denialOf = (result) => {
  assert.equal(result.isError, true, `expected a denial, got ${JSON.stringify(result)}`);
  return JSON.parse(result.content[0].text);
};
const allowed = (result) => result.isError !== true;

const seedDenial = (tool, action) => ({
  error: 'tool_not_allowed',
  message: `${tool}.${action} is not permitted. Allowed: observe.*, generate.reproduction, interact.navigate, interact.refresh`,
  tool,
  action,
  allowed_tools: ['observe.*', 'generate.reproduction', 'interact.navigate', 'interact.refresh'],
});

test('the package ships the guard as toolgate/mcp-server, with its types', () => {
  const files = packedFiles();
  for (const f of ['mcp-server/index.js', 'mcp-server/index.d.ts']) assert.ok(files.includes(f), `${f} is missing`);
  const { guardServer, AllowlistGuard } = require('toolgate/mcp-server');
  assert.equal(typeof guardServer, 'function');
  assert.equal(typeof AllowlistGuard, 'function');
});

test('in process: the log option gets the messages; tools registered before the guard are refused', () => {
  const { guardServer } = require('toolgate/mcp-server');
  const dir = tempDir();
  const file = join(dir, 'allowlist.yaml');
  writeFileSync(file, exampleAllowlist);
  const logged = [];
  const server = new McpServer({ name: 't', version: '1' });
  const guard = guardServer(server, { allowlistFile: file, watch: false, log: (message, level) => logged.push([level, message]) });
  assert.deepEqual(logged, [['info', 'Allowlist enabled, 4 tools/actions permitted']]);
  assert.deepEqual(guard.check('interact', { action: 'execute_js' }), seedDenial('interact', 'execute_js'));
  assert.deepEqual(logged.at(-1), ['warn', 'Allowlist blocked interact.execute_js']);
  assert.throws(() => server.experimental.tasks.registerToolTask('slow', {}, {}), /task-based tool "slow" cannot be guarded/);

  const early = new McpServer({ name: 't', version: '1' });
  early.registerTool('unguarded', {}, () => ({ content: [] }));
  assert.throws(() => guardServer(early, { allowlistFile: file, watch: false, log: () => {} }), /before registering tools.*unguarded/);
  const missing = join(dir, 'missing.yaml');
  assert.throws(() => guardServer(new McpServer({ name: 't', version: '1' }), { allowlistFile: missing, log: () => {} }),
    (e) => e.message.startsWith(`Cannot load the allowlist: cannot read ${missing}: ENOENT`));
});

test('allowed calls run; denied calls return the exact error object, every retry, and never reach the handler', async () => {
  const s = await startServer(exampleAllowlist);
  const navigate = await s.call('interact', { action: 'navigate', url: 'https://example.com' });
  assert.deepEqual(navigate.content, [{ type: 'text', text: 'navigate done: https://example.com' }]);

  const first = await s.call('interact', { action: 'execute_js', script: 'alert(1)' });
  const retry = await s.call('interact', { action: 'execute_js', script: 'alert(1)' });
  assert.deepEqual(denialOf(first), seedDenial('interact', 'execute_js'));
  assert.deepEqual(first.structuredContent, seedDenial('interact', 'execute_js'));
  assert.deepEqual(retry, first, 'the same answer every retry');

  // A tool with an output schema: the denial is text only, which the SDK client accepts.
  assert.deepEqual((await s.call('generate', { format: 'reproduction' })).structuredContent, { format: 'reproduction', script: '// reproduction script' });
  const generateTest = await s.call('generate', { format: 'test' });
  assert.deepEqual(denialOf(generateTest), seedDenial('generate', 'test'));
  assert.equal(generateTest.structuredContent, undefined);

  // ping() has no action: only `*` or `ping.*` allow it.
  const ping = denialOf(await s.call('ping', {}));
  assert.equal(ping.tool, 'ping');
  assert.deepEqual(ping.allowed_tools, seedDenial('x', 'y').allowed_tools);

  await s.flushLogs('interact.navigate', { action: 'navigate' });
  assert.equal(s.ran('interact.execute_js'), 0, 'a denied call never reaches its handler');
  assert.equal(s.ran('generate.test'), 0);
  assert.equal(s.ran('ping'), 0);
  assert.equal(s.lines().filter((l) => l === 'Allowlist blocked interact.execute_js').length, 2, 'every blocked attempt is logged');
});

test('`*`, `tool.*`, exact patterns, matched case-insensitively', async () => {
  const s = await startServer('allowed_tools:\n  - "Observe.*"\n  - "INTERACT.Navigate"\n  - "ping.*"\n');
  assert.ok(allowed(await s.call('observe', { what: 'logs' })), 'tool.* allows any action');
  assert.ok(allowed(await s.call('observe', { what: 'anything' })));
  assert.ok(allowed(await s.call('interact', { action: 'navigate' })), 'case-insensitive exact match');
  assert.ok(allowed(await s.call('interact', { action: 'NAVIGATE' })));
  assert.ok(allowed(await s.call('ping', {})), 'tool.* allows a tool without action');
  assert.equal(denialOf(await s.call('interact', { action: 'refresh' })).action, 'refresh', 'an exact pattern allows only its action');
  assert.equal(denialOf(await s.call('interact', { action: 'navigate_x' })).action, 'navigate_x', 'no prefix matching');
  assert.equal(denialOf(await s.call('generate', { format: 'reproduction' })).tool, 'generate');

  const all = await startServer('allowed_tools: ["*"]\n');
  for (const [name, args] of [['interact', { action: 'execute_js' }], ['generate', { format: 'test' }], ['ping', {}], ['observe', { what: 'logs' }]]) {
    assert.ok(allowed(await all.call(name, args)), `* allows ${name}`);
  }
  await all.waitForLog(/^Allowlist enabled, 1 tools\/actions permitted$/);
});

test('an empty file or an empty list allows everything', async () => {
  for (const yaml of ['', '# nothing yet\nallowed_tools: []\n']) {
    const s = await startServer(yaml);
    assert.ok(allowed(await s.call('interact', { action: 'execute_js' })));
    assert.ok(allowed(await s.call('ping', {})));
    await s.waitForLog(/^Allowlist disabled: the list is empty, so all tools\/actions are permitted$/);
  }
});

test('server_config reports the list, its size and the file', async () => {
  const s = await startServer(exampleAllowlist);
  await s.waitForLog(/^Allowlist enabled, 4 tools\/actions permitted$/);
  const config = await s.call('observe', { what: 'server_config' });
  assert.deepEqual(config.structuredContent.allowlist, {
    enabled: true,
    allowed_tools: ['observe.*', 'generate.reproduction', 'interact.navigate', 'interact.refresh'],
    count: 4,
    message: 'Allowlist enabled, 4 tools/actions permitted',
    config_file: s.file,
  });
});

test('editing the file on disk changes the next answer: atomic replace (editor save) and in-place write', async () => {
  const s = await startServer(exampleAllowlist);
  assert.ok(!allowed(await s.call('interact', { action: 'execute_js' })));

  // Save as editors do: write a new file, rename it over the old one.
  writeFileSync(`${s.file}.tmp`, `${exampleAllowlist}  - "interact.execute_js"\n`);
  renameSync(`${s.file}.tmp`, s.file);
  await waitFor('interact.execute_js to be allowed', async () => allowed(await s.call('interact', { action: 'execute_js' })));
  await s.waitForLog(/^Allowlist reloaded, 5 tools\/actions permitted$/);

  // The watch survives the replace: an in-place write is seen too.
  writeFileSync(s.file, 'allowed_tools:\n  - "observe.*"\n');
  await waitFor('interact.navigate to be denied', async () => !allowed(await s.call('interact', { action: 'navigate' })));
  await s.waitForLog(/^Allowlist reloaded, 1 tools\/actions permitted$/);
});

test('a broken edit keeps the previous list in force and logs the error with file, line and column', async () => {
  const s = await startServer(exampleAllowlist);
  writeFileSync(s.file, 'allowed_tools:\n  - "observe.*"\n  - "interact.*.x"\n');
  await s.waitForLog(new RegExp(`^Allowlist reload failed, keeping the previous list: ${s.file}:3:5: invalid pattern "interact\\.\\*\\.x"`));
  assert.ok(allowed(await s.call('interact', { action: 'navigate' })), 'the previous list is still in force');
  assert.deepEqual(denialOf(await s.call('interact', { action: 'execute_js' })), seedDenial('interact', 'execute_js'));

  writeFileSync(s.file, 'allowed_tools: ["*"]\n');
  await waitFor('the fixed file to be loaded', async () => allowed(await s.call('interact', { action: 'execute_js' })));
});

test('a broken file at start stops the server with file, line and column', async () => {
  const dir = tempDir();
  for (const [yaml, expected] of [
    ['allowed_tools:\n  - "observe.*"\n  - "interact.*.x"\n', ':3:5: invalid pattern "interact.*.x"'],
    ['allowed_tools:\n  - "observe.*"\n  - [unclosed\n', ':3:5: invalid YAML: `[` is not closed'],
    ['allowed_tool:\n  - "observe.*"\n', ':1:1: unknown key `allowed_tool`'],
  ]) {
    writeFileSync(join(dir, 'allowlist.yaml'), yaml);
    const { code, stderr } = await new Promise((resolve) => {
      const child = execFile(process.execPath, [exampleServer, '--allowlist-config=allowlist.yaml'], { cwd: dir, timeout: WAIT_MS },
        (error, _stdout, stderr) => resolve({ code: error?.code ?? 0, stderr }));
      child.stdin.end();
    });
    assert.equal(code, 1, `the server must not start: ${stderr}`);
    assert.ok(stderr.startsWith(`Invalid allowlist: ${join(dir, 'allowlist.yaml')}${expected}`), stderr);
  }
});
