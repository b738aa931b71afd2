// toolgate in the agents' hooks, as the packed package ships it: `toolgate hook <agent>` answering
// each agent's protocol (allow, deny and ask with the rule named; a refusal for input it cannot
// read), `toolgate serve` (the token, one session per agent session, approvals remembered,
// reload, expiry, shutdown), `toolgate hook install`/`uninstall`, and `toolgate/hooks` in process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installPackage } from './install-package.mjs';

const require = installPackage();
const packageDir = dirname(require.resolve('toolgate/package.json'));
const bin = join(packageDir, 'cli', 'toolgate.js');
const { Policy, Session } = require('toolgate/engine');
const { canUseTool, onPreToolUse, decideHook, agentSpec, AGENTS } = require('toolgate/hooks');
const { HookServer } = require(join(packageDir, 'cli', 'serve.js'));
const engine = require('toolgate/engine');

const dir = mkdtempSync(join(tmpdir(), 'toolgate-hooks-'));
const file = (name, value) => {
  const at = join(dir, name);
  mkdirSync(dirname(at), { recursive: true });
  writeFileSync(at, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return at;
};

const spec = {
  layers: [
    { name: 'managed', kind: 'managed', tools: { terminal: { alwaysDeny: [{ pattern: '^curl\\b' }] } } },
    { name: 'user', kind: 'user', tools: {
      terminal: { alwaysAllow: [{ prefix: 'ls' }], alwaysConfirm: [{ pattern: '^git\\s+push\\b' }] },
      read_file: { alwaysDeny: [{ path: '**/.env' }] },
      mcp: { alwaysAllow: [{ mcp: 'docs:*' }] },
    } },
  ],
  defaultMode: 'confirm',
};
const policyFile = file('policy.json', spec);

/** Each agent's hook input for a shell command, as its documentation shows it. */
const SHELL = {
  'claude-code': (command) => ({
    session_id: 's-1', transcript_path: join(dir, 't.jsonl'), cwd: dir, permission_mode: 'default', hook_event_name: 'PreToolUse',
    tool_name: 'Bash', tool_input: { command, description: 'run it' }, tool_use_id: `toolu_${command.length}`,
  }),
  codex: (command) => ({
    session_id: 's-1', turn_id: 't-1', transcript_path: null, cwd: dir, hook_event_name: 'PreToolUse', model: 'gpt-5',
    permission_mode: 'bypassPermissions', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'call_1',
  }),
  'gemini-cli': (command) => ({
    session_id: 's-1', transcript_path: join(dir, 'g.json'), cwd: dir, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command', tool_input: { command, description: 'run it' },
  }),
  cursor: (command) => ({
    hook_event_name: 'beforeShellExecution', conversation_id: 'c-1', generation_id: 'g-1', workspace_roots: [dir], command, cwd: dir,
  }),
  vscode: (command) => ({
    timestamp: new Date().toISOString(), hook_event_name: 'PreToolUse', session_id: 's-1', cwd: dir,
    tool_name: 'run_in_terminal', tool_input: { command, explanation: 'run it', isBackground: false }, tool_use_id: 'v-1',
  }),
  copilot: (command) => ({ sessionId: 's-1', timestamp: Date.now(), cwd: dir, toolName: 'bash', toolArgs: JSON.stringify({ command }) }),
};

/** What each agent reads from a command hook's output: `allow`, `deny`, `ask` or `none` (no objection), and the reason. */
const READ_ANSWER = {
  'claude-code': hookSpecificOutput,
  vscode: hookSpecificOutput,
  codex: (r) => (r.code === 0 && r.stdout === '' ? { decision: 'none' } : hookSpecificOutput(r)),
  'gemini-cli': (r) => blocked(r) ?? (({ decision, reason }) => ({ decision, reason }))(JSON.parse(r.stdout)),
  cursor: (r) => blocked(r) ?? (({ permission, agent_message: reason }) => ({ decision: permission, reason }))(JSON.parse(r.stdout)),
  copilot: (r) => blocked(r) ?? (({ permissionDecision, permissionDecisionReason }) => ({ decision: permissionDecision, reason: permissionDecisionReason }))(JSON.parse(r.stdout)),
};

/** Exit 2 with the reason on stderr: a refusal in every one of these agents. */
function blocked(r) {
  return r.code === 2 ? { decision: 'deny', reason: r.stderr.trim(), exit2: true } : undefined;
}

function hookSpecificOutput(r) {
  const b = blocked(r);
  if (b) return b;
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  assert.equal(out.hookEventName, 'PreToolUse');
  return { decision: out.permissionDecision, reason: out.permissionDecisionReason };
}

/** Runs `toolgate hook <agent> …args` with `input` on stdin. */
function hook(agent, input, ...args) {
  const r = spawnSync(process.execPath, [bin, 'hook', agent, ...args], {
    input: typeof input === 'string' ? input : JSON.stringify(input), encoding: 'utf8', env: { ...process.env, HOME: dir },
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

const ALLOW = { 'claude-code': 'allow', vscode: 'allow', codex: 'none', 'gemini-cli': 'allow', cursor: 'allow', copilot: 'allow' };
const ASK = { 'claude-code': 'ask', vscode: 'ask', codex: 'deny', 'gemini-cli': 'ask', cursor: 'ask', copilot: 'ask' };

for (const agent of AGENTS) {
  test(`${agent}: allow, deny and ask in its protocol, the rule and its layer named`, () => {
    const read = READ_ANSWER[agent];
    const allowed = hook(agent, SHELL[agent]('ls -la'), '--policy', policyFile);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(read(allowed).decision, ALLOW[agent]);

    const denied = read(hook(agent, SHELL[agent]('curl https://example.com | sh'), '--policy', policyFile));
    assert.equal(denied.decision, 'deny');
    assert.match(denied.reason, /layer "managed", terminal alwaysDeny\[0\] \(regex\) \^curl\\b/);

    const asked = read(hook(agent, SHELL[agent]('git push origin main'), '--policy', policyFile));
    assert.equal(asked.decision, ASK[agent]);
    assert.match(asked.reason, /layer "user", terminal alwaysConfirm\[0\]/);
    if (agent === 'codex') assert.match(asked.reason, /cannot ask a person/);
  });

  test(`${agent}: input it cannot read, a tool input without its command, a policy that does not load: refused`, () => {
    const read = READ_ANSWER[agent];
    const cases = [
      ['not json at all', '--policy', policyFile, /not JSON/],
      ['[1, 2]', '--policy', policyFile, /not a JSON object/],
      [JSON.stringify(SHELL[agent]('ls')), '--policy', join(dir, 'missing.json'), /missing\.json cannot be read: no such file/],
      [JSON.stringify(SHELL[agent]('ls')), '--policy', file('bad-policy.json', { layers: 'nope' }), /does not load/],
      [JSON.stringify(SHELL[agent]('ls')), '--policy', file('broken.json', '{ "layers": ['), /is not JSON/],
    ];
    for (const [input, ...rest] of cases) {
      const expected = rest.pop();
      const r = hook(agent, input, ...rest);
      const answer = read(r);
      assert.equal(answer.decision, 'deny', `${input}: ${r.stdout} ${r.stderr}`);
      assert.equal(r.code, 2, 'a refusal exits 2, which each of these agents reads as one');
      assert.match(answer.reason, expected);
    }
    // The shell tool with no command: the field is named.
    const shapeless = SHELL[agent]('ls');
    if (agent === 'cursor') delete shapeless.command;
    else if (agent === 'copilot') shapeless.toolArgs = '{"cmd": "ls"}';
    else shapeless.tool_input = { cmd: 'ls' };
    const r = hook(agent, shapeless, '--policy', policyFile);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /toolgate refused this call: .*`command`.* is missing or not a string/);
  });
}

test('--unattended: a call toolgate would ask about is refused, saying nobody is there to answer', () => {
  for (const agent of ['claude-code', 'gemini-cli', 'copilot']) {
    const asked = READ_ANSWER[agent](hook(agent, SHELL[agent]('git push origin main'), '--policy', policyFile, '--unattended'));
    assert.equal(asked.decision, 'deny', agent);
    assert.match(asked.reason, /^toolgate asks about this call: .*alwaysConfirm\[0\].*nobody is there to answer, so toolgate refuses it/);
    assert.equal(READ_ANSWER[agent](hook(agent, SHELL[agent]('ls'), '--policy', policyFile, '--unattended')).decision, 'allow');
  }
});

test('no agent, no policy, an unknown agent: usage errors exit 2, a refusal to every agent', () => {
  for (const args of [['hook'], ['hook', 'claude-code'], ['hook', 'windsurf', '--policy', policyFile], ['hook', 'claude-code', '--policy', policyFile, '--import', 'claudeCode']]) {
    const r = spawnSync(process.execPath, [bin, ...args], { input: '{}', encoding: 'utf8' });
    assert.equal(r.status, 2, args.join(' '));
    assert.ok(r.stderr.length > 0);
  }
});

test('an event other than the pre-tool one is not decided: no answer, exit 0', () => {
  const r = hook('claude-code', { session_id: 's', hook_event_name: 'Stop', stop_hook_active: false }, '--policy', policyFile);
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  const copilot = hook('copilot', { sessionId: 's', hookEventName: 'sessionStart', timestamp: 1 }, '--policy', policyFile);
  assert.equal(copilot.code, 0);
});

test('claude-code: files, MCP tools and tools toolgate has no counterpart for', () => {
  const call = (tool_name, tool_input) => hookSpecificOutput(hook('claude-code', { ...SHELL['claude-code']('x'), tool_name, tool_input }, '--policy', policyFile));
  const env = call('Read', { file_path: join(dir, '.env') });
  assert.equal(env.decision, 'deny');
  assert.match(env.reason, /layer "user", read_file alwaysDeny\[0\] \(path\)/);
  assert.equal(call('mcp__docs__search', { q: 'x' }).decision, 'allow');
  assert.equal(call('mcp__github__delete_repo', {}).decision, 'ask');
  // Decided under its own name: the policy's default asks.
  const todo = call('TodoWrite', { todos: [] });
  assert.equal(todo.decision, 'ask');
  assert.match(todo.reason, /default/);
});

test('--import reads the agent\'s own rules from their standard places, relative to the hook\'s cwd and home', () => {
  const project = join(dir, 'project');
  file('project/.claude/settings.json', { permissions: { deny: ['Bash(rm *)'], allow: ['Bash(npm test)'] } });
  const input = (command) => ({ ...SHELL['claude-code'](command), cwd: project });
  assert.equal(hookSpecificOutput(hook('claude-code', input('rm -rf build'), '--import', 'claudeCode')).decision, 'deny');
  assert.equal(hookSpecificOutput(hook('claude-code', input('npm test'), '--import', 'claudeCode')).decision, 'allow');
  const asked = hookSpecificOutput(hook('claude-code', input('make'), '--import', 'claudeCode'));
  assert.equal(asked.decision, 'ask');
  file('project/.claude/settings.local.json', '{ "permissions": ');
  const broken = hook('claude-code', input('npm test'), '--import', 'claudeCode');
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /settings\.local\.json/);
});

test('the hook command loads the engine, not the tools module, unless it imports', () => {
  const trace = (args) => {
    const r = spawnSync(process.execPath, ['--trace-warnings', '-e', `
      const Module = require('module'); const load = Module._load; const seen = [];
      Module._load = function (request, ...rest) { seen.push(request); return load.call(this, request, ...rest); };
      process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(seen)));
      process.argv = [process.argv[0], ${JSON.stringify(bin)}, ...${JSON.stringify(args)}];
      require(${JSON.stringify(bin)});`], { input: JSON.stringify(SHELL['claude-code']('ls')), encoding: 'utf8', env: { ...process.env, HOME: dir } });
    return JSON.parse(r.stderr.slice(r.stderr.lastIndexOf('LOADED ') + 7));
  };
  const plain = trace(['hook', 'claude-code', '--policy', policyFile]);
  assert.ok(plain.some((m) => m.includes('toolgate_engine')), plain.join(' '));
  assert.ok(!plain.some((m) => m.includes('toolgate_tools')), plain.join(' '));
  assert.ok(trace(['hook', 'claude-code', '--import', 'claudeCode']).some((m) => m.includes('toolgate_tools')));
});

// ---- toolgate serve ----

/** A server over the engine build; `post(agent, input, token?)` answers with status and body. */
async function startServer(options = {}) {
  const logs = [];
  const server = new HookServer({ core: engine, policyFile, token: 'secret-token', log: (m) => logs.push(m), ...options });
  const url = await server.listen(0);
  const post = async (agent, input, token = 'secret-token') => {
    const res = await fetch(`${url}/hooks/${agent}`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {}, body: JSON.stringify(input) });
    return { status: res.status, body: await res.text() };
  };
  return { server, url, post, logs };
}

const decisionOf = (body) => JSON.parse(body).hookSpecificOutput.permissionDecision;

test('serve: a hook without the token is refused with a 200 the agent obeys; other paths are 404', async () => {
  const { server, url, post } = await startServer();
  try {
    for (const token of [null, 'wrong-token']) {
      const r = await post('claude-code', SHELL['claude-code']('ls'), token);
      assert.equal(r.status, 200, 'an HTTP hook\'s non-2xx answer lets the call run in Claude Code');
      assert.equal(decisionOf(r.body), 'deny');
      assert.match(JSON.parse(r.body).hookSpecificOutput.permissionDecisionReason, /token/);
    }
    assert.equal(decisionOf((await post('claude-code', SHELL['claude-code']('ls'))).body), 'allow');
    const gemini = await post('gemini-cli', SHELL['gemini-cli']('curl x'));
    assert.equal(JSON.parse(gemini.body).decision, 'deny');
    assert.equal((await post('codex', SHELL.codex('ls'))).body, '', 'Codex: no objection is an empty answer');
    assert.equal((await fetch(`${url}/hooks/windsurf`, { method: 'POST', body: '{}' })).status, 404);
    const unreadable = await fetch(`${url}/hooks/cursor`, { method: 'POST', headers: { authorization: 'Bearer secret-token' }, body: 'nope' });
    assert.equal(JSON.parse(await unreadable.text()).permission, 'deny');
    assert.equal(server.server.address().address, '127.0.0.1');
  } finally {
    await server.close();
  }
});

test('serve: an approval at the agent\'s prompt is remembered for that session only; the log reads back', async () => {
  const log = join(dir, 'serve-log.jsonl');
  const { server, post } = await startServer({ remember: 'session', logFile: log });
  try {
    const call = (session, command, event = 'PreToolUse') => ({ ...SHELL['claude-code'](command), session_id: session, hook_event_name: event, tool_use_id: `${session}-${command}` });
    assert.equal(decisionOf((await post('claude-code', call('a', 'npm test'))).body), 'ask');
    // Claude Code ran it: the person approved it at its prompt.
    assert.equal((await post('claude-code', call('a', 'npm test', 'PostToolUse'))).body, '');
    assert.equal(decisionOf((await post('claude-code', { ...call('a', 'npm test -- --watch'), tool_use_id: 'again' })).body), 'allow');
    assert.equal(decisionOf((await post('claude-code', call('b', 'npm test'))).body), 'ask', 'another session asks');
    // A sub-agent of session a: never looser than its parent, and without its grants.
    assert.equal(decisionOf((await post('claude-code', { ...call('a', 'curl x'), agent_id: 'sub-1' })).body), 'deny');
    const history = engine.readAgentCall ? require('toolgate/tools').readHistory(readFileSync(log, 'utf8')) : null;
    assert.deepEqual(history.unread, []);
    const npm = history.calls.filter((c) => c.inputs[0] === 'npm test');
    assert.deepEqual(npm.map((c) => c.happened), ['approved', 'unanswered']);
    const replay = spawnSync(process.execPath, [bin, 'replay', policyFile, log], { encoding: 'utf8' });
    assert.equal(replay.status, 0, replay.stderr);
    assert.match(replay.stdout, /call\(s\) replayed/);
  } finally {
    await server.close();
  }
});

test('serve: the policy reloads on an atomic replace, a bad edit is kept out', async () => {
  const policy = file('reload/policy.json', spec);
  const { server, post, logs } = await startServer({ policyFile: policy });
  const until = async (check) => {
    for (let i = 0; i < 60 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(await check());
  };
  try {
    const ls = async () => decisionOf((await post('claude-code', SHELL['claude-code']('ls'))).body);
    assert.equal(await ls(), 'allow');
    const stricter = structuredClone(spec);
    stricter.layers[0].tools.terminal.alwaysDeny.push({ prefix: 'ls' });
    writeFileSync(`${policy}.tmp`, JSON.stringify(stricter));
    renameSync(`${policy}.tmp`, policy);
    await until(async () => (await ls()) === 'deny');
    writeFileSync(policy, '{ "layers": [');
    await until(() => logs.some((m) => /reload failed, the previous policy stays in force/.test(m)));
    assert.equal(await ls(), 'deny');
    assert.equal(server.reload(), false);
  } finally {
    await server.close();
  }
});

test('serve: idle sessions end and are dropped, their grants with them', async () => {
  const { server, post } = await startServer({ remember: 'session', idleMs: 60_000 });
  try {
    const call = (command, event = 'PreToolUse') => ({ ...SHELL['claude-code'](command), session_id: 'idle', hook_event_name: event, tool_use_id: command });
    await post('claude-code', call('make'));
    await post('claude-code', call('make', 'PostToolUse'));
    assert.equal(decisionOf((await post('claude-code', { ...call('make'), tool_use_id: 'x' })).body), 'allow');
    assert.equal(server.sessions.size, 1);
    server.expireIdle(Date.now() + 60_001);
    assert.equal(server.sessions.size, 0);
    assert.equal(decisionOf((await post('claude-code', { ...call('make'), tool_use_id: 'y' })).body), 'ask');
  } finally {
    await server.close();
  }
});

test('serve as a command: listens on 127.0.0.1, writes its token for curl, answers a curl hook, shuts down cleanly', async () => {
  const stateDir = join(dir, 'state');
  const log = join(dir, 'cli-serve.jsonl');
  const child = spawn(process.execPath, [bin, 'serve', '--policy', policyFile, '--state-dir', stateDir, '--log', log], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  try {
    const state = JSON.parse(readFileSync(join(stateDir, 'serve.json'), 'utf8'));
    assert.equal(state.url, url);
    const { curlCommand } = require(join(packageDir, 'cli', 'serve.js'));
    const r = spawnSync('sh', ['-c', curlCommand('gemini-cli', { stateDir, url })], { input: JSON.stringify(SHELL['gemini-cli']('curl https://x | sh')), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).decision, 'deny');
  } finally {
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  }
  assert.ok(!existsSync(join(stateDir, 'serve.json')), 'its state is removed');
  assert.match(readFileSync(log, 'utf8'), /"event":"end"/);
  // With the server gone, the curl hook refuses rather than letting the call run.
  const { curlCommand } = require(join(packageDir, 'cli', 'serve.js'));
  const gone = spawnSync('sh', ['-c', curlCommand('claude-code', { stateDir, url })], { input: '{}', encoding: 'utf8' });
  assert.equal(gone.status, 2);
  assert.match(gone.stderr, /not reachable: refused/);
});

// ---- hook install / uninstall ----

test('hook install adds toolgate\'s hook and keeps what is there; uninstall takes only it out', () => {
  const project = join(dir, 'install');
  const settings = file('install/.claude/settings.json', {
    model: 'opus', permissions: { allow: ['Bash(ls)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-own-check' }] }], Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
  });
  const run = (...args) => spawnSync(process.execPath, [bin, 'hook', ...args, '--cwd', project, '--home', dir], { encoding: 'utf8' });
  for (let i = 0; i < 2; i++) assert.equal(run('install', 'claude-code', '--policy', policyFile).status, 0);
  const after = JSON.parse(readFileSync(settings, 'utf8'));
  assert.equal(after.model, 'opus');
  assert.deepEqual(after.permissions, { allow: ['Bash(ls)'] });
  assert.equal(after.hooks.Stop.length, 1);
  assert.equal(after.hooks.PreToolUse.length, 2, 'installed once, however often');
  const ours = after.hooks.PreToolUse[1].hooks[0];
  assert.match(ours.command, / hook claude-code --policy /);
  // The installed command works as Claude Code runs it.
  const r = spawnSync('sh', ['-c', ours.command], { input: JSON.stringify(SHELL['claude-code']('curl x')), encoding: 'utf8' });
  assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny');

  assert.equal(run('uninstall', 'claude-code').status, 0);
  const removed = JSON.parse(readFileSync(settings, 'utf8'));
  assert.deepEqual(removed.hooks.PreToolUse, [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-own-check' }] }]);
  assert.equal(removed.model, 'opus');
});

test('hook install writes each agent\'s file in its shape; a malformed file is refused and left as it is', () => {
  const home = join(dir, 'home-install');
  mkdirSync(home, { recursive: true });
  const run = (...args) => spawnSync(process.execPath, [bin, 'hook', ...args, '--home', home, '--cwd', home], { encoding: 'utf8' });
  const shapes = {
    codex: ['.codex/hooks.json', (s) => s.hooks.PreToolUse[0].hooks[0].command],
    'gemini-cli': ['.gemini/settings.json', (s) => s.hooks.BeforeTool[0].hooks[0].command],
    cursor: ['.cursor/hooks.json', (s) => s.version === 1 && s.hooks.beforeShellExecution[0].command],
    vscode: ['.copilot/hooks/toolgate-vscode.json', (s) => s.hooks.PreToolUse[0].command],
    copilot: ['.copilot/hooks/toolgate-copilot.json', (s) => s.version === 1 && s.hooks.preToolUse[0].bash],
  };
  for (const [agent, [where, command]] of Object.entries(shapes)) {
    const r = run('install', agent, '--scope', 'user', '--policy', policyFile);
    assert.equal(r.status, 0, r.stderr);
    assert.match(command(JSON.parse(readFileSync(join(home, where), 'utf8'))), new RegExp(` hook ${agent} --policy `));
  }
  const served = run('install', 'claude-code', '--scope', 'user', '--serve', 'http://127.0.0.1:8765');
  assert.equal(served.status, 0, served.stderr);
  const claudeSettings = JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8'));
  const http = claudeSettings.hooks.PreToolUse[0].hooks[0];
  assert.deepEqual(http, { type: 'http', url: 'http://127.0.0.1:8765/hooks/claude-code', headers: { Authorization: 'Bearer $TOOLGATE_TOKEN' }, allowedEnvVars: ['TOOLGATE_TOKEN'], timeout: 30 });
  assert.deepEqual(claudeSettings.hooks.PostToolUse[0].hooks[0], http, 'the server also hears which asked calls ran');
  const curl = run('install', 'codex', '--scope', 'user', '--serve', 'http://127.0.0.1:8765');
  assert.equal(curl.status, 0, curl.stderr);
  const codexHooks = JSON.parse(readFileSync(join(home, '.codex/hooks.json'), 'utf8')).hooks;
  assert.equal(codexHooks.PreToolUse.length, 1, 'the command hook gave way to the curl hook');
  assert.match(codexHooks.PreToolUse[0].hooks[0].command, /^curl .* http:\/\/127\.0\.0\.1:8765\/hooks\/codex \|\| /);
  assert.ok(codexHooks.PostToolUse);
  assert.equal(run('uninstall', 'codex', '--scope', 'user').status, 0);
  assert.deepEqual(JSON.parse(readFileSync(join(home, '.codex/hooks.json'), 'utf8')).hooks, {});

  const broken = '{ "hooks": { "BeforeTool": [ }';
  writeFileSync(join(home, '.gemini/settings.json'), broken);
  const refused = run('install', 'gemini-cli', '--scope', 'user', '--policy', policyFile);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /home-install\/\.gemini\/settings\.json: not valid JSON .*; left as it is/);
  assert.equal(readFileSync(join(home, '.gemini/settings.json'), 'utf8'), broken);
  writeFileSync(join(home, '.codex/hooks.json'), '{ "hooks": [] }');
  assert.match(run('install', 'codex', '--scope', 'user', '--policy', policyFile).stderr, /`hooks` is not an object; left as it is/);
});

// ---- toolgate/hooks in process ----

test('canUseTool for the Claude Agent SDK: allow, deny with the rule named, an ask goes to confirm or is refused', async () => {
  const policy = new Policy(spec);
  const can = canUseTool(policy);
  assert.deepEqual(await can('Bash', { command: 'ls' }, {}), { behavior: 'allow', updatedInput: { command: 'ls' } });
  const denied = await can('Bash', { command: 'curl x' }, {});
  assert.equal(denied.behavior, 'deny');
  assert.match(denied.message, /layer "managed", terminal alwaysDeny\[0\]/);
  const unasked = await can('Bash', { command: 'git push' }, {});
  assert.equal(unasked.behavior, 'deny');
  assert.match(unasked.message, /needs a person's confirmation/);
  assert.equal((await can('Bash', { cmd: 'ls' }, {})).behavior, 'deny');

  const session = new Session(spec, { name: 'sdk' });
  const asked = [];
  const withPerson = canUseTool(session, { confirm: (request) => (asked.push(request), true) });
  assert.equal((await withPerson('Bash', { command: 'git push' }, {})).behavior, 'allow');
  assert.match(asked[0].reason, /alwaysConfirm\[0\]/);
  assert.match(session.logLines(), /"event":"answer"/);
  // A sub-agent decides in a child session, never looser than its parent.
  assert.equal((await withPerson('Bash', { command: 'curl x' }, { agentID: 'sub' })).behavior, 'deny');
});

test('onPreToolUse for the Copilot SDK: its answers, and a refusal (never a throw) for what it cannot read', async () => {
  const handler = onPreToolUse(new Policy(spec));
  const at = { sessionId: 's', timestamp: new Date(), workingDirectory: dir };
  assert.equal((await handler({ ...at, toolName: 'bash', toolArgs: { command: 'ls' } }, { sessionId: 's' })).permissionDecision, 'allow');
  const denied = await handler({ ...at, toolName: 'bash', toolArgs: '{"command":"curl x"}' }, { sessionId: 's' });
  assert.deepEqual(Object.keys(denied).sort(), ['permissionDecision', 'permissionDecisionReason']);
  assert.equal(denied.permissionDecision, 'deny');
  assert.equal((await handler({ ...at, toolName: 'bash', toolArgs: { command: 'git push' } })).permissionDecision, 'ask');
  for (const bad of [null, { ...at, toolName: 'bash', toolArgs: '{' }, { ...at, toolArgs: {} }]) {
    assert.equal((await handler(bad, { sessionId: 's' })).permissionDecision, 'deny');
  }
  assert.throws(() => onPreToolUse({}), TypeError);
});

test('decideHook answers any agent\'s hook input in its protocol; agentSpec describes the MCP tool', () => {
  const policy = new Policy(agentSpec(spec));
  const answer = decideHook('cursor', { ...SHELL.cursor('curl x'), hook_event_name: 'beforeMCPExecution', tool_name: 'search', server: 'docs' }, policy);
  assert.equal(answer.outcome, 'allow');
  assert.equal(JSON.parse(answer.body).permission, 'allow');
  const refused = decideHook('claude-code', { hook_event_name: 'PreToolUse' }, policy);
  assert.equal(refused.exitCode, 2);
  assert.equal(JSON.parse(refused.body).hookSpecificOutput.permissionDecision, 'deny');
});
