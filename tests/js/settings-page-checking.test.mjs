// The settings page draws first and checks when it can, in headless Chromium under the webview's
// strict CSP: with the core's validator held back (its .wasm response held), the stored settings
// are drawn, the page says it is checking them, and they can be edited; once it is released, the
// problems attach without moving what was drawn. A test host plays the extension: it answers
// `ready` with the stored settings unchecked, then checked.
//
// The page's file names where each of its four parts comes from (its core.js, bundled), and the
// decider and the tools come from one module. To hold the validator back while the link to the
// host loads, and to tell the decider's load from the tools', the test serves the page's file with
// each part's last URL marked by its name (the validator's .wasm `?validator`, the decider's and
// the tools' module `?decider`, `?tools`), and those modules fetching their .wasm at that query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveWithChromium } from './standin.mjs';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'pkg');
const { validateSettings } = require(join(pkg, 'tools', 'node', 'toolgate_tools.js'));
const { settingsPageHtml } = require(join(pkg, 'settings-page', 'host.cjs'));
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const WAIT = { timeout: 20000 };
const running = serveWithChromium();

/** The settings as a store holds them: sections left out, and a YAML error at the end of the page. */
const stored = {
  mcp: { mcpAllowedTools: ['github:*', 'docs:search'] },
  rules: { user: { tools: { terminal: { alwaysAllow: [{ pattern: '^git\\s+status\\b' }, { pattern: '^ls\\b' }], alwaysDeny: [{ pattern: '^sudo\\b' }] } } } },
  roo: { modes: [{ slug: 'code', mcpRestrictions: { allowedServers: ['github'] } }] },
  gasoline: { yaml: 'allowed_tools:\n  - "observe.*"\n  - [' },
};
const context = { catalogue: { servers: [{ name: 'github', tools: [{ name: 'create_issue' }] }, { name: 'docs', tools: [{ name: 'search' }] }] } };

/**
 * A page at `/checking.html` as an extension serves it (settingsPageHtml's policy, VS Code's API
 * injected), whose core parts load from modules of their own; the validator's .wasm is held until
 * `release()`. `host(message)` gets what the page posts; `post(message)` sends to the page.
 */
async function openHeld({ bypassCSP = false, inHtml, syncCompile = true } = {}) {
  const browserContext = await running.browser.newContext({ bypassCSP, viewport: { width: 1100, height: 900 } });
  const page = await browserContext.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  const requested = [];
  page.on('request', (r) => requested.push(r.url()));

  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await page.route('**/settings-page/settings-page.js', async (route) => {
    const source = await (await route.fetch()).text();
    let parts = 0;
    const rewritten = source.replace(/^ {2}(validator|decider|tools): \[(.*)"([^"?]+\.(?:js|wasm))"\](,?)$/gm, (line, part, before, url, comma) => {
      parts += 1;
      return `  ${part}: [${before}"${url}?${part}"]${comma}`;
    });
    assert.equal(parts, 3, 'the page names where each part comes from');
    await route.fulfill({ contentType: 'text/javascript', body: rewritten });
  });
  await page.route(/\.js\?(validator|decider|tools)$/, async (route) => {
    const part = new URL(route.request().url()).search.slice(1);
    const glue = await (await route.fetch()).text();
    const wasm = glue.match(/new URL\('([\w.-]+\.wasm)', import\.meta\.url\)/)?.[1];
    assert.ok(wasm, 'the glue fetches its .wasm from beside itself');
    await route.fulfill({ contentType: 'text/javascript', body: glue.replace(`'${wasm}'`, `'${wasm}?${part}'`) });
  });
  await page.route(/\.wasm\?validator$/, async (route) => {
    await released;
    await route.continue();
  });

  const fromPage = [];
  let onMessage = () => {};
  await page.exposeFunction('__toolgateToHost', (message) => { fromPage.push(message); onMessage(message); });
  if (!syncCompile) {
    // A browser that compiles no module synchronously on its main thread (as Chrome once did past 4 KB).
    await page.addInitScript(() => {
      WebAssembly.Module = function Module() { throw new RangeError('WebAssembly.Module(): buffer size is larger than the limit; use WebAssembly.compile'); };
    });
  }
  await page.addInitScript(() => {
    globalThis.acquireVsCodeApi = () => ({
      postMessage: (m) => globalThis.__toolgateToHost(JSON.parse(JSON.stringify(m))),
      getState: () => JSON.parse(sessionStorage.getItem('vscode-state') ?? 'null') ?? undefined,
      setState: (s) => { sessionStorage.setItem('vscode-state', JSON.stringify(s ?? null)); return s; },
    });
  });
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${running.origin} 'wasm-unsafe-eval'; style-src ${running.origin}; connect-src ${running.origin}">
<title>Tool permissions</title>
<link rel="stylesheet" href="${running.origin}/pkg/settings-page/settings-page.css">
<script type="module" src="${running.origin}/pkg/settings-page/settings-page.js"></script>
</head><body class="vscode-light"><div id="toolgate-settings"></div>${inHtml ? storedBlock(inHtml) : ''}</body></html>`;
  await page.route(`${running.origin}/checking.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  const post = (message) => page.evaluate((m) => window.postMessage(m, '*'), message);
  const ready = new Promise((resolve) => { onMessage = (m) => { if (m.type === 'ready') resolve(); }; });
  await page.goto(`${running.origin}/checking.html`);
  await ready;
  return { page, problems, requested, fromPage, post, release, close: async () => {
    // Routes still answering (a part the page is loading) end quietly with the page.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await browserContext.close();
  } };
}

/** The stored settings' block as the host half writes it into the page's HTML. */
function storedBlock(data) {
  const html = settingsPageHtml({ cspSource: running.origin, scriptUri: `${running.origin}/x.js`, styleUri: `${running.origin}/x.css`, ...data });
  const block = html.match(/<script type="application\/json"[^>]*>.*?<\/script>/s)?.[0];
  assert.ok(block, 'settingsPageHtml writes the block');
  return block;
}

/** Resolves once `check()` holds (polled), or fails after the usual wait. */
async function until(check) {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - start > WAIT.timeout) assert.fail(`not before ${WAIT.timeout} ms: ${check}`);
  }
}

const boxes = (page, selectors) => Promise.all(selectors.map((s) => page.locator(s).boundingBox()));

test('with the validator held back, the stored settings are drawn at once, the page says it is checking, and edits are kept; released, the problems attach where they belong without moving what was drawn', async () => {
  const { page, problems, requested, fromPage, post, release, close } = await openHeld();
  // The host's first answer: the settings as stored, not checked.
  await post({ type: 'load', protocol: 1, settings: stored, context, checked: false });
  await page.waitForSelector('body[data-visible="true"]', WAIT);
  assert.equal(await page.getAttribute('body', 'data-ready'), null, 'not ready: nothing is checked yet');
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-checking'), 'true');
  // Drawn: the allowlist, the rules, the modes, the YAML; the sections left out with what the core fills in.
  assert.deepEqual(await page.locator('#tg-mcp-entries input').evaluateAll((els) => els.map((e) => e.value)), ['github:*', 'docs:search']);
  assert.equal(await page.inputValue('#tg-rule-alwaysAllow-1'), '^ls\\b');
  assert.equal(await page.inputValue('#tg-rules-tool'), 'terminal');
  assert.equal(await page.inputValue('#tg-roo-slug'), 'code');
  assert.match(await page.inputValue('#tg-gasoline-yaml'), /observe/);
  assert.equal(await page.isChecked('input[type="radio"][value="yolo"]'), true, 'the mode the core fills in');
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-dirty'), 'false', 'drawing changes nothing');
  // Checking, said where a screen reader hears it, and the regions it fills busy.
  assert.equal(await page.getAttribute('#tg-status', 'role'), 'status');
  assert.equal(await page.textContent('#tg-status'), 'Checking the settings…');
  for (const region of ['#tg-try-result', '#tg-roo-preview', '#tg-gasoline-summary']) {
    assert.equal(await page.getAttribute(region, 'aria-busy'), 'true', region);
  }
  assert.equal(await page.locator('.tg-problem').count(), 0, 'no problem shown before the check');
  assert.ok(!requested.some((u) => /\?(decider|tools)$/.test(u)), 'the decider and the tools wait: nothing to decide or import yet');

  // Editing works before the check: kept in the draft, focus and caret where the user is.
  await page.fill('#tg-rule-alwaysAllow-1', '^ls -la\\b');
  await page.waitForFunction(() => document.getElementById('toolgate-settings').dataset.dirty === 'true', null, WAIT);
  const watched = ['[data-path="mcp.mcpAllowedTools[0]"]', '[data-path="mcp.mcpAllowedTools[1]"]',
    '[data-path="rules.user.tools.terminal.alwaysAllow[0]"]', '[data-path="rules.user.tools.terminal.alwaysAllow[1]"]',
    '[data-path="rules.user.tools.terminal.alwaysDeny[0]"]', '#tg-rules-tool', '#tg-try-tool', '#tg-try-input-0'];
  const before = await boxes(page, watched);

  // The host's second answer: the settings as it checked them, with their problems. The edit and focus stay.
  const checked = validateSettings(stored, context);
  assert.equal(checked.ok, false);
  await post({ type: 'load', protocol: 1, settings: checked.settings, context, problems: checked.errors });
  await page.waitForFunction(() => document.getElementById('tg-status').textContent === 'Checking the settings…', null, WAIT);
  assert.equal(await page.inputValue('#tg-rule-alwaysAllow-1'), '^ls -la\\b', 'the edit is kept');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tg-rule-alwaysAllow-1', 'focus stays');
  assert.equal(await page.getAttribute('body', 'data-ready'), null);

  // Released: the check runs, the problems attach, and nothing drawn moved.
  release();
  await page.waitForSelector('body[data-ready="true"]', WAIT);
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-checking'), null);
  await page.waitForSelector('#tg-gasoline .tg-problem.tg-error', WAIT);
  assert.match(await page.textContent('#tg-status'), /The stored settings have problems/);
  assert.equal(await page.inputValue('#tg-rule-alwaysAllow-1'), '^ls -la\\b', 'the edit survived the check');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tg-rule-alwaysAllow-1', 'focus stayed through the check');
  assert.ok(await page.locator('#tg-rules-tool option[value="edit_file"]').count(), 'the tool list gained the catalogue\'s tools');
  const after = await boxes(page, watched);
  for (const [i, selector] of watched.entries()) {
    for (const key of ['x', 'y', 'width', 'height']) {
      assert.ok(Math.abs(after[i][key] - before[i][key]) <= 1, `${selector} ${key}: ${before[i][key]} before the check, ${after[i][key]} after`);
    }
  }
  for (const region of ['#tg-roo-preview', '#tg-gasoline-summary']) assert.equal(await page.getAttribute(region, 'aria-busy'), null, region);
  // The decider comes when "Try a call" is first used; then the decision.
  assert.ok(!requested.some((u) => u.endsWith('?decider')), 'the decider is not loaded until "Try a call" is used');
  assert.match(await page.textContent('#tg-try-result'), /when you try a call/);
  await page.focus('#tg-try-input-0');
  await page.waitForSelector('#tg-try-verdict', WAIT);
  assert.equal(await page.getAttribute('#tg-try-result', 'aria-busy'), null);
  assert.ok(requested.some((u) => u.endsWith('?decider')));
  // A rule was edited: lint's findings come from the tools' module, loaded for them.
  assert.ok(requested.some((u) => u.endsWith('?tools')), 'lint is loaded once a rule is edited');
  const marks = await page.evaluate(() => ['toolgate-settings-visible', 'toolgate-settings-ready'].map((n) => performance.getEntriesByName(n).length));
  assert.deepEqual(marks, [1, 1]);
  const [visibleAt, readyAt] = await page.evaluate(() => ['toolgate-settings-visible', 'toolgate-settings-ready'].map((n) => performance.getEntriesByName(n)[0].startTime));
  assert.ok(visibleAt < readyAt, `visible at ${visibleAt} ms, ready at ${readyAt} ms`);

  // The import loads the core's tools when used, and reads with them.
  await page.fill('#tg-import-text', JSON.stringify({ permissions: { allow: ['Bash(git diff *)'] } }));
  await page.click('#tg-import-read');
  await page.waitForSelector('#tg-import-report li', WAIT);
  assert.ok(requested.some((u) => u.endsWith('?tools')));
  // Saving sends the edited draft.
  await page.click('#tg-save');
  await until(() => fromPage.some((m) => m.type === 'save'));
  assert.equal(fromPage.find((m) => m.type === 'save').settings.rules.user.tools.terminal.alwaysAllow[1].pattern, '^ls -la\\b');
  assert.deepEqual(problems, []);
  await close();
});

test('before the check, an entry added waits for the validator and is added when it arrives; Save posts the draft unchecked; the checking page passes axe', async () => {
  const { page, problems, fromPage, post, release, close } = await openHeld({ bypassCSP: true });
  await post({ type: 'load', protocol: 1, settings: stored, context, checked: false });
  await page.waitForSelector('body[data-visible="true"]', WAIT);
  // axe on the page while it checks (axe is injected as a script: this context bypasses the CSP for it).
  await page.evaluate(axeSource);
  const { violations } = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);

  await page.fill('#tg-mcp-new', 'jira:create_ticket');
  await page.press('#tg-mcp-new', 'Enter');
  await page.click('#tg-save');
  await until(() => fromPage.some((m) => m.type === 'save'));
  const saved = fromPage.filter((m) => m.type === 'save');
  assert.equal(saved.length, 1, 'Save posts before the check: the host checks every save');
  assert.deepEqual(saved[0].settings.mcp.mcpAllowedTools, ['github:*', 'docs:search']);
  await post({ type: 'saved', id: saved[0].id, settings: validateSettings(saved[0].settings, context).settings, warnings: [] });
  await page.waitForFunction(() => /^Saved\./.test(document.getElementById('tg-status').textContent), null, WAIT);

  release();
  await page.waitForSelector('body[data-ready="true"]', WAIT);
  assert.match(await page.textContent('#tg-status'), /^(Saved\.|Added jira:create_ticket)/, 'the save\'s answer is not replaced by the check');
  await page.waitForSelector('#tg-mcp-entry-2', WAIT);
  assert.equal(await page.inputValue('#tg-mcp-entry-2'), 'jira:create_ticket');
  assert.match(await page.textContent('#tg-mcp-new-problems'), /Added jira:create_ticket/);
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-dirty'), 'true');
  assert.deepEqual(problems, []);
  await close();
});

test('the host\'s checked load after its unchecked one takes its problems without drawing again or moving focus; before the check they show where they belong', async () => {
  const { page, problems, post, release, close } = await openHeld();
  const checked = validateSettings(stored, context);
  await post({ type: 'load', protocol: 1, settings: stored, context, checked: false });
  await page.waitForSelector('body[data-visible="true"]', WAIT);
  await page.focus('#tg-rule-alwaysAllow-0');
  await page.evaluate(() => { document.getElementById('tg-rule-alwaysAllow-0').setSelectionRange(2, 4); document.getElementById('tg-mcp-entries').dataset.drawn = 'first'; });
  await post({ type: 'load', protocol: 1, settings: checked.settings, context, problems: checked.errors });
  await page.waitForSelector('#tg-gasoline .tg-problem.tg-error', WAIT);
  assert.equal(await page.getAttribute('#tg-mcp-entries', 'data-drawn'), 'first', 'the settings the core filled in are the ones drawn: nothing is drawn again');
  assert.deepEqual(await page.evaluate(() => [document.activeElement?.id, document.activeElement?.selectionStart, document.activeElement?.selectionEnd]), ['tg-rule-alwaysAllow-0', 2, 4]);
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-dirty'), 'false');
  assert.equal(await page.getAttribute('body', 'data-ready'), null, 'shown, not checked by the page yet');
  release();
  await page.waitForSelector('body[data-ready="true"]', WAIT);
  assert.equal(await page.locator('#tg-gasoline .tg-problem.tg-error').count(), 1, 'the page\'s check finds the same problem, shown once');
  assert.deepEqual(await page.evaluate(() => [document.activeElement?.id, document.activeElement?.selectionStart, document.activeElement?.selectionEnd]), ['tg-rule-alwaysAllow-0', 2, 4]);
  assert.deepEqual(problems, []);
  await close();
});

test('the stored settings in the page\'s HTML are drawn before any message; the host\'s load of the same settings draws nothing again', async () => {
  const page_ = { sections: ['rules', 'mcp', 'gasoline'], title: 'Acme permissions' };
  const { page, problems, fromPage, post, release, close } = await openHeld({ inHtml: { settings: stored, context, page: page_ } });
  // Nothing answered `ready`: what is drawn came from the HTML.
  await page.waitForSelector('body[data-visible="true"]', WAIT);
  assert.deepEqual(fromPage.map((m) => m.type), ['ready']);
  assert.equal(await page.textContent('h1'), 'Acme permissions');
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-sections'), 'rules mcp gasoline');
  assert.equal(await page.inputValue('#tg-rule-alwaysAllow-1'), '^ls\\b');
  assert.equal(await page.textContent('#tg-status'), 'Checking the settings…');
  await page.evaluate(() => { document.getElementById('tg-mcp-entries').dataset.drawn = 'first'; });
  // The host's answers: the same settings unchecked, then checked with their problems.
  await post({ type: 'load', protocol: 1, settings: stored, context, page: page_, checked: false });
  const checked = validateSettings(stored, context);
  await post({ type: 'load', protocol: 1, settings: checked.settings, context, page: page_, problems: checked.errors });
  await page.waitForSelector('#tg-gasoline .tg-problem.tg-error', WAIT);
  assert.equal(await page.getAttribute('#tg-mcp-entries', 'data-drawn'), 'first', 'nothing is drawn again');
  release();
  await page.waitForSelector('body[data-ready="true"]', WAIT);
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-dirty'), 'false');
  assert.deepEqual(problems, []);
  await close();
});

test('where the browser will not compile the link synchronously, the page compiles it asynchronously and draws the same', async () => {
  const { page, problems, release, close } = await openHeld({ syncCompile: false, inHtml: { settings: stored, context } });
  await page.waitForSelector('body[data-visible="true"]', WAIT);
  assert.equal(await page.inputValue('#tg-rule-alwaysAllow-1'), '^ls\\b');
  release();
  await page.waitForSelector('body[data-ready="true"]', WAIT);
  await page.waitForSelector('#tg-gasoline .tg-problem.tg-error', WAIT);
  assert.deepEqual(problems, []);
  await close();
});
