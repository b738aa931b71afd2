// The settings page's host half alone, in Node, over a fake webview: it answers `ready` with
// `load`, validates every save with the tools' Node build before persisting, refuses a draft
// with errors without calling persist, and keeps the last good settings in force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { installPackage, packedFiles, app, scratch } from './install-package.mjs';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'pkg');
const { createSettingsHost, settingsPageHtml, PROTOCOL_VERSION } = require(join(pkg, 'settings-page', 'host.cjs'));
const engine = require(join(pkg, 'tools', 'node', 'toolgate_tools.js'));
const mcp = require(join(pkg, 'node', 'toolgate.js'));

/** A webview as the host half sees it; `send` plays the page. */
function fakeWebview() {
  const listeners = [];
  const received = [];
  return {
    received,
    postMessage: (message) => { received.push(JSON.parse(JSON.stringify(message))); return Promise.resolve(true); },
    onDidReceiveMessage: (listener) => { listeners.push(listener); return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) }; },
    send: (message) => { for (const l of [...listeners]) l(JSON.parse(JSON.stringify(message))); },
    get listeners() { return listeners.length; },
  };
}

const stored = {
  mcp: { mode: 'yolo', mcpAllowedTools: ['github:*'], mcpToolsProtection: false },
  rules: { user: { tools: { terminal: { alwaysAllow: [{ pattern: '^git\\s+status\\b' }] } } } },
};
const context = {
  catalogue: { servers: [{ name: 'github', tools: [{ name: 'create_issue' }] }] },
  admin: { mcp: { isAdminControlled: false } },
};

function setUp(overrides = {}) {
  const webview = fakeWebview();
  const persisted = [];
  const host = createSettingsHost({
    webview,
    load: () => stored,
    persist: (settings) => { persisted.push(settings); },
    context,
    ...overrides,
  });
  return { webview, persisted, host };
}

test('ready is answered with load: the stored settings validated, defaults filled in, and the context', async () => {
  const { webview, host } = setUp();
  webview.send({ type: 'ready', protocol: PROTOCOL_VERSION });
  await host.idle();
  assert.equal(webview.received.length, 1);
  const [load] = webview.received;
  assert.equal(load.type, 'load');
  assert.equal(load.protocol, 1);
  assert.deepEqual(load.settings.mcp.mcpAllowedTools, ['github:*']);
  assert.equal(load.settings.mcp.playwrightProtection, true, 'protections default to on');
  assert.deepEqual(load.context, context);
  assert.equal(load.problems, undefined);
  assert.deepEqual(host.settings.mcp.mcpAllowedTools, ['github:*']);
});

test('a draft with an invalid entry is rejected at that entry, persist is not called, and the last good settings stay', async () => {
  const { webview, persisted, host } = setUp();
  webview.send({ type: 'ready', protocol: 1 });
  await host.idle();
  const before = host.settings;
  const draft = { ...stored, mcp: { ...stored.mcp, mcpAllowedTools: ['github:*', 'jira create_ticket'] } };
  webview.send({ type: 'save', id: 7, settings: draft });
  await host.idle();
  const answer = webview.received.at(-1);
  assert.equal(answer.type, 'rejected');
  assert.equal(answer.id, 7);
  assert.deepEqual(answer.errors.map((e) => [e.code, e.path]), [['missingSeparator', 'mcp.mcpAllowedTools[1]']]);
  assert.equal(persisted.length, 0, 'persist is never called for a rejected draft');
  assert.equal(host.settings, before, 'the last good settings stay in force');
});

test('every section\'s errors are rejected by the host exactly as the page shows them', async () => {
  const { webview, persisted, host } = setUp();
  const draft = {
    rules: { user: { tools: { terminal: { alwaysDeny: [{ pattern: '^rm (-rf' }] } } } },
    roo: { modes: [{ slug: 'code', mcpRestrictions: { allowedServers: ['github'], disallowedServers: ['github'] } }] },
    gasoline: { yaml: 'allowed_tools:\n  - observe.*\n  - "bad pattern"\n' },
  };
  webview.send({ type: 'save', id: 1, settings: draft });
  await host.idle();
  const answer = webview.received.at(-1);
  assert.equal(answer.type, 'rejected');
  const byPath = Object.fromEntries(answer.errors.map((e) => [e.path, e]));
  assert.equal(byPath['rules.user.tools.terminal.alwaysDeny[0]'].column, 5);
  assert.equal(byPath['roo.modes[0].mcpRestrictions.allowedServers[0]'].code, 'conflict');
  assert.deepEqual([byPath['gasoline.yaml'].line, byPath['gasoline.yaml'].column], [3, 5]);
  // The host's answer is the core's: the same call the page makes gives the same errors.
  assert.deepEqual(answer.errors, engine.validateSettings(draft, context).errors);
  assert.equal(persisted.length, 0);
});

test('a valid save is persisted with defaults filled in, answered with saved, and becomes the settings in force', async () => {
  const saved = [];
  const { webview, persisted, host } = setUp({ onDidSave: (s) => saved.push(s) });
  const draft = { mcp: { mode: 'yolo', mcpAllowedTools: ['github:*', 'github:create_issue', 'jira:create_ticket'] } };
  webview.send({ type: 'save', id: 2, settings: draft });
  await host.idle();
  const answer = webview.received.at(-1);
  assert.equal(answer.type, 'saved');
  assert.equal(answer.id, 2);
  assert.deepEqual(answer.warnings.map((w) => [w.code, w.path]), [['coveredByWildcard', 'mcp.mcpAllowedTools[1]']]);
  assert.equal(persisted.length, 1);
  assert.deepEqual(persisted[0].mcp.mcpAllowedTools, draft.mcp.mcpAllowedTools);
  assert.equal(persisted[0].mcp.mcpToolsProtection, true);
  assert.deepEqual(host.settings, persisted[0]);
  assert.deepEqual(saved, persisted);
  // The extension decides with the saved settings as the page previewed them.
  const policy = new mcp.McpPolicy(engine.settingsMcp(host.settings, context));
  assert.equal(policy.decide('jira', 'create_ticket', host.settings.mcp.mode).needApproval, true, 'MCP protection is on');
});

test('a persist that fails rejects the save and changes nothing', async () => {
  const { webview, host } = setUp({ persist: async () => { throw new Error('disk full'); } });
  webview.send({ type: 'ready', protocol: 1 });
  webview.send({ type: 'save', id: 3, settings: { mcp: { mcpAllowedTools: ['docs:search'] } } });
  await host.idle();
  const answer = webview.received.at(-1);
  assert.equal(answer.type, 'rejected');
  assert.deepEqual(answer.errors, [{ code: 'persistFailed', message: 'The settings could not be saved: disk full' }]);
  assert.deepEqual(host.settings.mcp.mcpAllowedTools, ['github:*']);
});

test('drafts that are not settings at all are errors in the answer, never a crash', async () => {
  const { webview, persisted, host } = setUp();
  for (const settings of [undefined, 42, 'x', { mcp: { mcpAllowedTool: [] } }, { mcp: { mcpAllowedTools: [1] } }]) {
    webview.send({ type: 'save', id: 9, settings });
  }
  webview.send({ type: 'nonsense' });
  webview.send(null);
  await host.idle();
  const answers = webview.received.filter((m) => m.type === 'rejected');
  assert.equal(answers.length, 5);
  assert.ok(answers.every((a) => a.errors[0].code === 'invalidSettings'), JSON.stringify(answers.map((a) => a.errors)));
  assert.equal(answers[4].errors[0].path, 'mcp.mcpAllowedTools[0]');
  assert.equal(persisted.length, 0);
});

test('stored settings with errors are sent with their problems and never become the settings in force', async () => {
  const { webview, host } = setUp({ load: () => ({ mcp: { mcpAllowedTools: ['ok:tool', 'broken'] } }) });
  webview.send({ type: 'ready', protocol: 1 });
  await host.idle();
  const [load] = webview.received;
  assert.deepEqual(load.settings.mcp.mcpAllowedTools, ['ok:tool', 'broken'], 'shown so the user can fix them');
  assert.deepEqual(load.problems.map((p) => p.path), ['mcp.mcpAllowedTools[1]']);
  assert.equal(host.settings, undefined);
  const unreadable = setUp({ load: () => ({ mcp: 'nope' }) });
  unreadable.webview.send({ type: 'ready', protocol: 1 });
  await unreadable.host.idle();
  assert.deepEqual(unreadable.webview.received[0].settings.mcp.mcpAllowedTools, [], 'the page starts from the defaults');
  assert.equal(unreadable.webview.received[0].problems[0].code, 'invalidSettings');
});

test('refresh sends load again with the new context; dispose stops listening', async () => {
  let admin = false;
  const { webview, host } = setUp({ context: () => ({ admin: { mcp: { isAdminControlled: admin, adminMcpAllowedTools: ['docs:*'] } } }) });
  webview.send({ type: 'ready', protocol: 1 });
  await host.idle();
  admin = true;
  await host.refresh();
  const load = webview.received.at(-1);
  assert.equal(load.context.admin.mcp.isAdminControlled, true);
  host.dispose();
  assert.equal(webview.listeners, 0);
  webview.send({ type: 'ready', protocol: 1 });
  await host.idle();
  assert.equal(webview.received.length, 2);
});

test('saves are handled one at a time, in order', async () => {
  const order = [];
  const { webview, host } = setUp({
    persist: async (s) => { await new Promise((r) => setTimeout(r, s.mcp.mcpAllowedTools.length === 1 ? 30 : 0)); order.push(s.mcp.mcpAllowedTools.length); },
  });
  webview.send({ type: 'save', id: 1, settings: { mcp: { mcpAllowedTools: ['a:b'] } } });
  webview.send({ type: 'save', id: 2, settings: { mcp: { mcpAllowedTools: ['a:b', 'c:d'] } } });
  await host.idle();
  assert.deepEqual(order, [1, 2]);
  assert.deepEqual(webview.received.map((m) => [m.type, m.id]), [['saved', 1], ['saved', 2]]);
  assert.deepEqual(host.settings.mcp.mcpAllowedTools, ['a:b', 'c:d']);
});

test('the options are checked, and a malformed context is the extension\'s error', async () => {
  assert.throws(() => createSettingsHost({ load: () => ({}), persist: () => {} }), /webview must have postMessage/);
  assert.throws(() => createSettingsHost({ webview: fakeWebview(), persist: () => {} }), /load must be a function/);
  const logged = [];
  const { webview, host } = setUp({ context: { admin: { typo: true } }, log: (m, level) => logged.push(level) });
  webview.send({ type: 'ready', protocol: 1 });
  await host.idle();
  assert.equal(webview.received.length, 0);
  assert.ok(logged.includes('error'));
  webview.send({ type: 'save', id: 4, settings: {} });
  await host.idle();
  assert.deepEqual(webview.received.map((m) => [m.type, m.errors?.[0]?.code]), [['rejected', 'hostError']], 'a save is refused, never left unanswered');
});

test('the page HTML carries exactly the strict CSP, no inline script or style, and escapes its inputs', () => {
  const html = settingsPageHtml({ cspSource: 'https://x.vscode-cdn.net', scriptUri: 'https://x/a.js?"', styleUri: { toString: () => 'https://x/a.css' } });
  assert.match(html, /content="default-src 'none'; script-src https:\/\/x\.vscode-cdn\.net 'wasm-unsafe-eval'; style-src https:\/\/x\.vscode-cdn\.net; connect-src https:\/\/x\.vscode-cdn\.net"/);
  assert.match(html, /<script type="module" src="https:\/\/x\/a\.js\?&quot;"><\/script>/);
  assert.ok(!/<script>|<style|style=|onload=/.test(html));
  assert.throws(() => settingsPageHtml({ cspSource: 'x', scriptUri: 'y' }), /styleUri is required/);
  // Framed by a web page: that page's origin, the only one the settings page speaks with; never `*`.
  const uris = { cspSource: 'https://x', scriptUri: 'https://x/a.js', styleUri: 'https://x/a.css' };
  assert.match(settingsPageHtml({ ...uris, hostOrigin: 'https://host.example' }),
    /<div id="toolgate-settings" data-host-origin="https:\/\/host\.example">/);
  assert.ok(!/data-host-origin/.test(html), 'no host origin unless given');
  for (const hostOrigin of ['*', ' * ', 'host.example', '', 42]) {
    assert.throws(() => settingsPageHtml({ ...uris, hostOrigin }), /hostOrigin must be an origin/, String(hostOrigin));
  }
});

test('the page HTML carries the stored settings as data the page reads, which no text in them can end or run', () => {
  const uris = { cspSource: 'https://x', scriptUri: 'https://x/pkg/settings-page/settings-page.js', styleUri: 'https://x/s.css' };
  const settings = { rules: { user: { tools: { terminal: { alwaysDeny: [{ pattern: '^a</script><script>alert(1)</script><!--' }] } } } }, gasoline: { yaml: '# \u2028 <b>' } };
  const page = { sections: ['rules', 'try'], agentName: 'Acme' };
  const context = { projectTrusted: false };
  const html = settingsPageHtml({ ...uris, settings, page, context });
  const blocks = [...html.matchAll(/<script type="application\/json" id="toolgate-settings-stored">([\s\S]*?)<\/script>/g)];
  assert.equal(blocks.length, 1);
  assert.deepEqual(JSON.parse(blocks[0][1]), { settings, page, context }, 'read back as written');
  assert.ok(!/</.test(blocks[0][1]), 'no < inside the block: nothing in the settings can close it or open a comment');
  // The block is data, never run: the page's policy allows no inline script, and needs none.
  assert.equal([...html.matchAll(/<script\b(?![^>]*\bsrc=)(?![^>]*type="application\/json")/g)].length, 0);
  // No settings, or settings that are not an object: no block (the host's `load` says what is wrong).
  for (const none of [undefined, null, [], 'text', 42]) assert.ok(!/toolgate-settings-stored/.test(settingsPageHtml({ ...uris, settings: none })), String(none));
  // The page options and the context are the embedder's: checked, the mistake named.
  assert.throws(() => settingsPageHtml({ ...uris, settings, page: { sections: ['nope'] } }), /settingsPageHtml: page\.sections\[0\] "nope" is not a section/);
  assert.throws(() => settingsPageHtml({ ...uris, settings, context: [] }), /settingsPageHtml: context must be an object/);
});

test('the page is one file, its link to the host inside it: its HTML preloads nothing; the validator\'s .wasm waits for the drawn settings, the tools\' module for its use', () => {
  const html = settingsPageHtml({ cspSource: 'https://x', scriptUri: 'https://x/pkg/settings-page/settings-page.js', styleUri: 'https://x/s.css' });
  assert.deepEqual([...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]), ['<link rel="stylesheet" href="https://x/s.css">']);
  assert.deepEqual([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]), ['<script type="module" src="https://x/pkg/settings-page/settings-page.js">']);
  // One file: no static import to wait for, one request instead of waves of them.
  const page = readFileSync(join(pkg, 'settings-page', 'settings-page.js'), 'utf8');
  assert.deepEqual([...page.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]), []);
  // What it fetches later, by path from itself: each one the package ships.
  const fetched = [...page.matchAll(/"(\.{1,2}\/[\w/.-]+\.(?:wasm|js))"(?!\s*:)/g)].map((m) => m[1]); // not the wasm imports' names
  assert.deepEqual([...new Set(fetched)].sort(), ['../tools/web/toolgate_tools_raw.js', './validator/toolgate_validator_bg.wasm']);
  for (const file of fetched) assert.ok(existsSync(join(pkg, 'settings-page', file)), file);
});

test('an extension bundled with esbuild uses the host half by name, with the tools .wasm beside the bundle', async () => {
  const installed = installPackage();
  assert.match(installed.resolve('toolgate/settings-page/host'), /settings-page[\\/]host\.cjs$/);
  const files = packedFiles();
  for (const f of ['settings-page/settings-page.js', 'settings-page/settings-page.css', 'settings-page/visible.js', 'tools/web/toolgate_tools_raw.js',
    'tools/web/toolgate_tools_bg.wasm', 'settings-page/host.cjs',
    'settings-page/host.mjs', 'settings-page/host.d.ts', 'settings-page/protocol.d.ts', 'settings-page/PROTOCOL.md']) {
    assert.ok(files.includes(f), `${f} is missing from the package`);
  }
  const entry = join(app, 'src', 'settings-extension.js');
  mkdirSync(dirname(entry), { recursive: true });
  writeFileSync(entry, `
    const { createSettingsHost } = require('toolgate/settings-page/host');
    exports.run = async () => {
      const answers = [], persisted = [], listeners = [];
      const webview = { postMessage: (m) => answers.push(m), onDidReceiveMessage: (l) => { listeners.push(l); return { dispose() {} }; } };
      const host = createSettingsHost({ webview, load: () => ({}), persist: (s) => persisted.push(s) });
      for (const l of listeners) l({ type: 'save', id: 1, settings: { mcp: { mcpAllowedTools: ['no separator'] } } });
      for (const l of listeners) l({ type: 'save', id: 2, settings: { mcp: { mcpAllowedTools: ['github:*'] } } });
      await host.idle();
      return { answers: answers.map((a) => a.type), persisted: persisted.length, settings: host.settings.mcp.mcpAllowedTools };
    };
  `);
  const dist = join(scratch, 'settings-extension', 'dist');
  rmSync(dist, { recursive: true, force: true });
  await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', external: ['vscode'],
    outfile: join(dist, 'extension.js'), logLevel: 'silent' });
  copyFileSync(installed.resolve('toolgate/tools/toolgate_tools_bg.wasm'), join(dist, 'toolgate_tools_bg.wasm'));
  const out = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(join(dist, 'extension.js'))}).run().then((r) => console.log(JSON.stringify(r)))`],
    { cwd: '/', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.deepEqual(JSON.parse(out), { answers: ['rejected', 'saved'], persisted: 1, settings: ['github:*'] });
});

test("the embedder's page options travel in load; a section or option it does not have is a TypeError naming it", async () => {
  const page = { sections: ['rules', 'try'], title: 'Acme', agentName: 'Acme Agent', words: { rules: { help: 'Rules for {agent}.' } }, tools: [{ name: 'terminal', label: 'Run' }] };
  const { webview, host } = setUp({ page });
  webview.send({ type: 'ready', protocol: PROTOCOL_VERSION });
  await host.idle();
  assert.deepEqual(webview.received[0].page, page);
  assert.deepEqual(require(join(pkg, 'settings-page', 'host.cjs')).SECTIONS, ['rules', 'try', 'mcp', 'roo', 'gasoline', 'grants', 'log', 'proposals']);
  const wrong = (p) => () => createSettingsHost({ webview: fakeWebview(), load: () => ({}), persist: () => {}, page: p });
  assert.throws(wrong({ sections: ['rules', 'history'] }), /page\.sections\[1\] "history" is not a section/);
  assert.throws(wrong({ sections: [] }), /page\.sections must list at least one section/);
  assert.throws(wrong({ heading: 'x' }), /page\.heading is not an option/);
  assert.throws(wrong({ words: { try: { title: 'x' } } }), /page\.words\.try\.title must be heading or help/);
  assert.throws(wrong({ tools: [{ label: 'Run' }] }), /page\.tools\[0\] must be \{ name: string, label\?: string \}/);
  assert.throws(() => createSettingsHost({ webview: fakeWebview(), load: () => ({}), persist: () => {}, activity: {} }), /activity\.session must be a Session/);
});

test("the agent's session: grants, log and proposals after load; a revoke in the page revokes in the session, a lasting one goes to onRevoke", async () => {
  let now = 1000;
  const settings = engine.validateSettings(stored, context).settings;
  const session = new engine.Session(engine.settingsPolicy(settings, context), { name: 'agent' });
  for (const [input, scope] of [['npm test', 'once'], ['npm test -- --watch', 'once'], ['cargo build', 'session'], ['make', 'user']]) {
    const d = session.decide('terminal', input, { now: ++now });
    session.answer({ callId: d.callId, allow: true, scope }, now);
  }
  const revoked = [];
  const { webview, host } = setUp({ activity: { session: () => session, now: () => now, onRevoke: (persist) => revoked.push(persist) } });
  webview.send({ type: 'ready', protocol: PROTOCOL_VERSION });
  await host.idle();
  assert.deepEqual(webview.received.map((m) => m.type), ['load', 'activity']);
  const activity = webview.received[1];
  assert.deepEqual(activity.grants.map((g) => [g.display, g.scope]), [['`cargo build`', 'session'], ['`make`', 'user']]);
  assert.deepEqual(activity.log.filter((r) => r.event === 'decision').map((r) => r.inputs[0]), ['npm test', 'npm test -- --watch', 'cargo build', 'make']);
  assert.deepEqual(activity.proposals.map((p) => [p.display, p.saves]), [['npm test', 2]]);

  const [sessionGrant, userGrant] = activity.grants;
  webview.send({ type: 'revoke', id: sessionGrant.id });
  await host.idle();
  assert.deepEqual(webview.received.at(-1).grants.map((g) => g.id), [userGrant.id]);
  assert.deepEqual(revoked, [], 'a session grant has nothing to take out of the settings');
  webview.send({ type: 'revoke', id: userGrant.id });
  await host.idle();
  assert.equal(revoked.length, 1);
  assert.equal(revoked[0].layer, 'user');
  webview.send({ type: 'revoke', id: 'g99' });
  await host.idle();
  assert.equal(webview.received.at(-1).problems[0].code, 'revokeFailed');
  // After the agent's next calls, the extension sends the activity again.
  session.decide('terminal', 'ls', { now: ++now });
  await host.refreshActivity();
  assert.equal(webview.received.at(-1).log.at(-1).inputs[0], 'ls');
});

test("docs/settings-page.md's embedding example runs as written, and each value its comments claim is what it returns", async () => {
  const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'settings-page.md'), 'utf8');
  const block = [...doc.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]).find((b) => b.includes('page: {'));
  assert.ok(block, 'the example block');
  let claims = 0;
  const body = block.replace(/^(.+?);\s*\/\/\s*(\[.*?\])$/gm, (line, expr, literal) => { claims++; return `__claim(${expr}, ${literal}, ${JSON.stringify(line)});`; });
  const requireFromPkg = (name) => require(name.replace(/^toolgate\/settings-page\/host$/, join(pkg, 'settings-page', 'host.cjs')).replace(/^toolgate\/tools$/, join(pkg, 'tools', 'node', 'toolgate_tools.js')));
  let checked = 0;
  const AsyncFunction = (async () => {}).constructor;
  await new AsyncFunction('require', '__claim', body)(requireFromPkg, (actual, expected, line) => {
    assert.deepEqual(actual, expected, line);
    checked++;
  });
  assert.equal(checked, claims);
  assert.equal(checked, 3);
});

test('the page draws unchecked stored settings filled in exactly as the core fills them', async () => {
  // The page's own filling (stored.js) runs before its validator is here; the core's is the
  // reference. Absent sections, absent fields, partly written sections and a full sample.
  const { drawable } = await import(pathToFileURL(join(root, 'js', 'settings-page', 'stored.js')).href);
  const samples = [
    {},
    { mcp: { mcpAllowedTools: ['github:*'] } },
    { mcp: { mode: 'ask_every_time', mcpToolsProtection: false } },
    { rules: { user: { tools: { terminal: { alwaysAllow: [{ pattern: '^ls\\b' }] } } } } },
    { rules: { project: {} }, roo: {}, gasoline: {} },
    { roo: { modes: [{ slug: 'code', mcpRestrictions: { allowedServers: ['docs'] } }] }, gasoline: { yaml: 'allowed_tools:\n  - "observe.*"\n' } },
  ];
  for (const stored of samples) {
    const checked = engine.validateSettings(stored, {});
    assert.ok(checked.settings, JSON.stringify(stored));
    assert.deepEqual(drawable(stored), checked.settings, JSON.stringify(stored));
  }
  // What the page cannot draw waits for the host's check.
  for (const bad of [{ mcp: [] }, { mcp: { mcpAllowedTools: 'github:*' } }, { rules: { user: { tools: [] } } }]) {
    assert.equal(drawable(bad), undefined, JSON.stringify(bad));
  }
});
