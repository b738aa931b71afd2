// Gasoline's allowlist inside a real MCP server: the example server (examples/mcp-server/) runs over
// stdio and is called with the official SDK's own Client, as an agent's host would call it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync,
} from 'node:fs';
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

test('rewriting the file in place never opens the server: a caller polling during the rewrites is never allowed', async () => {
  const s = await startServer(exampleAllowlist);
  const narrower = 'allowed_tools:\n  - "observe.*"\n  - "interact.navigate"\n';
  // Each rewrite leaves the file, for longer than the guard's 100 ms debounce, as a writer can:
  // empty, stopped after the key, a NUL before a good list, a symlink to /dev/null.
  const linger = 300;
  const rewrites = {
    'truncate, then write (as `>` does)': async (text) => {
      const fd = openSync(s.file, 'w');
      await sleep(linger);
      writeSync(fd, text);
      closeSync(fd);
    },
    'a file that stops after the key': async (text) => {
      const key = text.indexOf('allowed_tools:\n') + 'allowed_tools:\n'.length;
      const fd = openSync(s.file, 'w');
      writeSync(fd, text.slice(0, key));
      await sleep(linger);
      writeSync(fd, text.slice(key));
      closeSync(fd);
    },
    'a NUL before a good list': async (text) => {
      writeFileSync(s.file, `\0${text}`);
      await sleep(linger);
      writeFileSync(s.file, text);
    },
    'a symlink to /dev/null': async (text) => {
      rmSync(s.file);
      symlinkSync('/dev/null', s.file);
      await sleep(linger);
      rmSync(s.file);
      writeFileSync(s.file, text);
    },
  };
  let calls = 0;
  const allowedDuring = [];
  let current = 'start';
  let polling = true;
  const caller = (async () => {
    while (polling) {
      const result = await s.call('interact', { action: 'execute_js' });
      calls++;
      if (allowed(result)) allowedDuring.push(current);
      await sleep(5);
    }
  })();
  const reloads = () => s.lines().filter((l) => /^Allowlist reloaded, \d+ tools\/actions permitted$/.test(l)).length;
  let text = exampleAllowlist;
  for (let round = 0; round < 2; round++) {
    for (const [name, rewrite] of Object.entries(rewrites)) {
      current = name;
      text = text === exampleAllowlist ? narrower : exampleAllowlist;
      const before = reloads();
      await rewrite(text);
      await waitFor(`the rewritten list to be reloaded after ${name}`, () => reloads() > before);
    }
  }
  polling = false;
  await caller;
  assert.deepEqual(allowedDuring, [], `interact.execute_js was allowed in ${allowedDuring.length} of ${calls} calls during the rewrites`);
  assert.ok(calls >= 100, `only ${calls} calls`);
  const refused = s.lines().filter((l) => l.startsWith(`Allowlist reload failed, keeping the previous list: ${s.file}:1:`));
  assert.ok(refused.some((l) => /the text has no list/.test(l)), refused.join('\n'));
  assert.ok(refused.some((l) => /:1:1: invalid YAML: control character U\+0000 is not allowed/.test(l)), refused.join('\n'));
});

test('permitting everything takes a file that says `allowed_tools: []` and holds still', async () => {
  const { guardServer } = require('toolgate/mcp-server');
  const dir = tempDir();
  const file = join(dir, 'allowlist.yaml');
  writeFileSync(file, exampleAllowlist);
  const logged = [];
  let onLog = () => {};
  const guard = guardServer(new McpServer({ name: 't', version: '1' }), {
    allowlistFile: file, debounceMs: 50, log: (message, level) => { logged.push([level, message]); onLog(message); },
  });
  cleanups.push(() => guard.close());
  const logs = (pattern) => logged.filter(([, m]) => pattern.test(m));
  const opened = () => guard.check('interact', { action: 'execute_js' }) === null;

  // A reload by hand: no list is an error naming the file, line and column; the list stays.
  for (const [text, at] of [['', '1:1'], ['# cleared\nallowed_tools:\n', '2:1'], ['allowed_tools: ~\n', '1:1']]) {
    writeFileSync(file, text);
    assert.equal(guard.reload(), false, JSON.stringify(text));
    assert.match(logged.at(-1)[1], new RegExp(`^Allowlist reload failed, keeping the previous list: ${file}:${at}: the text has no list`));
    assert.equal(logged.at(-1)[0], 'error');
    assert.equal(opened(), false, JSON.stringify(text));
    assert.equal(guard.serverConfig().allowlist.count, 4);
  }

  // Watched: a file that says everything only on its way to something else never opens the server.
  // The rest of the file is written the moment the guard has read `[]` (as it logs).
  writeFileSync(file, exampleAllowlist);
  await sleep(200);
  let openedOnce = false;
  const watching = setInterval(() => { openedOnce ||= opened(); }, 2);
  onLog = (message) => {
    if (!/reads as permitting every tool\/action|all tools\/actions are permitted/.test(message)) return;
    onLog = () => {};
    openedOnce ||= opened();
    appendFileSync(file, 'allowed_tools: ["observe.*"]\n');
  };
  writeFileSync(file, 'allowed_tools: []\n');
  await waitFor('the duplicate key to be reported', () => logs(/:2:1: `allowed_tools` appears twice/).length > 0);
  await sleep(150);
  clearInterval(watching);
  assert.equal(openedOnce, false, 'interact.execute_js was allowed while the file said `[]` for a moment');
  assert.equal(guard.serverConfig().allowlist.count, 4);

  // Said so and left so, the empty list is in force, logged as a warning.
  writeFileSync(file, 'allowed_tools: []\n');
  await waitFor('the empty list to be in force', () => opened());
  const notBlocked = logged.filter(([, m]) => !m.startsWith('Allowlist blocked'));
  assert.deepEqual(notBlocked.slice(-2), [
    ['warn', `Allowlist: ${file} now reads as permitting every tool/action; it applies only if it reads the same in 50 ms`],
    ['warn', 'Allowlist reloaded, the list is empty: all tools/actions are permitted'],
  ]);
  assert.equal(guard.serverConfig().allowlist.enabled, false);
  // And back: from no list, any list applies at once.
  writeFileSync(file, exampleAllowlist);
  await waitFor('the list to be back', () => !opened());
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
