// The VS Code tier's harness: code-server with the example extension in a fresh temporary profile
// (scripts/code-server.mjs), Debian Chromium driven by playwright-core, and the two ways in:
//   - the extension host, through the example's test hook (examples/vscode-extension/src/
//     test-hook.js, on only with TOOLGATE_EXAMPLE_TEST_DIR): request files, answered with the
//     host's own decisions;
//   - the webview, through Playwright in the frame where the settings page runs.
// Every wait is bounded; close() ends the browser and the server and removes the folders.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startCodeServer } from '../../scripts/code-server.mjs';
import { buildExtension } from '../../examples/vscode-extension/build.mjs';

export const ACTIVATION_MS = 90000; // ~6 s when idle, ~16 s on a loaded 2-core machine
export const HOOK_MS = 30000; // a request answered by the extension host
export const UI_MS = 20000; // one step in the workbench or the page
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const OUTCOMES = { 'Runs without asking': 'allow', 'Asks first': 'confirm', Refused: 'deny' };

/** Compares the host's decision with the page's for one call; a description of any difference, or null. */
export function difference(call, host, shown) {
  const problems = [];
  if (OUTCOMES[shown.verdict] !== host.outcome) problems.push(`outcome: host ${host.outcome}, page "${shown.verdict}"`);
  if (shown.message !== host.message) problems.push(`message: host "${host.message}", page "${shown.message}"`);
  if (host.rule) {
    if (!shown.rule?.includes(host.rule.pattern) || !shown.rule.includes(`in the ${host.rule.layer} layer`)) {
      problems.push(`rule: host ${JSON.stringify(host.rule)}, page "${shown.rule}"`);
    }
  } else if (host.entry) {
    if (!shown.rule?.includes(host.entry)) problems.push(`entry: host ${host.entry}, page "${shown.rule}"`);
  } else if (shown.rule) {
    problems.push(`rule: host none, page "${shown.rule}"`);
  }
  // The permission buttons: the engine's options for a tool call, "Add … to the allowlist" for MCP.
  const options = call.mcp ? host.candidates.map((c) => `Add ${c.server}:${c.tool} to the allowlist`) : host.options;
  if (JSON.stringify(shown.options) !== JSON.stringify(options)) {
    problems.push(`options: host ${JSON.stringify(options)}, page ${JSON.stringify(shown.options)}`);
  }
  return problems.length ? `${JSON.stringify(call)}: ${problems.join('; ')}` : null;
}

/**
 * Starts code-server (options as startCodeServer's: userSettings, workspaceSettings, trust…) and a
 * browser on the workbench. Returns the session; always `await session.close()`.
 */
export async function openVsCode(options = {}) {
  await buildExtension({ quiet: true });
  const hookDir = mkdtempSync(join(tmpdir(), 'toolgate-vscode-hook-'));
  mkdirSync(join(hookDir, 'requests'));
  const s = { hookDir, consoleErrors: [], pageErrors: [], frame: undefined };
  let requestId = 0;
  const removeHookDir = () => rmSync(hookDir, { recursive: true, force: true });
  process.on('exit', removeHookDir); // the server's own folder is removed the same way

  s.close = async () => {
    try {
      await s.browser?.close();
    } finally {
      if (s.server && process.env.TOOLGATE_VSCODE_LOG) {
        console.log(s.server.log());
        console.log(s.consoleErrors.map((e) => `console error: ${e.text.slice(0, 300)} (${e.url})`).join('\n'));
        console.log(s.pageErrors.map((e) => `page error: ${e.slice(0, 300)}`).join('\n'));
      }
      await s.server?.stop();
      removeHookDir();
      process.off('exit', removeHookDir);
    }
  };

  try {
    s.server = await startCodeServer({ ...options, env: { ...options.env, TOOLGATE_EXAMPLE_TEST_DIR: hookDir } });
    s.browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-sync',
        '--disable-background-networking', '--disable-component-update'],
      timeout: 60000,
    });
    s.page = await s.browser.newPage({ viewport: { width: 1280, height: 900 } });
    s.page.setDefaultTimeout(UI_MS);
    s.page.on('console', (m) => { if (m.type() === 'error') s.consoleErrors.push({ text: m.text(), url: m.location().url }); });
    s.page.on('pageerror', (e) => s.pageErrors.push(`${e.message}\n${e.stack ?? ''}`));
    await s.page.goto(s.server.url, { timeout: 60000 });
  } catch (e) {
    await s.close();
    throw e;
  }

  s.userSettingsFile = join(s.server.userData, 'User', 'settings.json');
  s.workspaceSettingsFile = join(s.server.workspace, '.vscode', 'settings.json');

  /** Waits, bounded, for the extension to activate; returns what it wrote (activated.json). */
  s.activated = async () => {
    const file = join(hookDir, 'activated.json');
    const deadline = Date.now() + ACTIVATION_MS;
    while (!existsSync(file)) {
      if (Date.now() > deadline) assert.fail(`no activation within ${ACTIVATION_MS} ms; server log:\n${s.server.log().slice(-3000)}`);
      await sleep(250);
    }
    return readJson(file);
  };

  /** Sends a request to the extension host (through the test hook); returns its id. */
  s.send = (request) => {
    const id = String(++requestId).padStart(4, '0');
    const tmp = join(hookDir, `request-${id}.tmp`);
    writeFileSync(tmp, JSON.stringify({ id, ...request }));
    renameSync(tmp, join(hookDir, 'requests', `${id}.json`)); // whole, never half-written
    return id;
  };

  /** Waits, bounded, for the extension host's answer to request `id`. */
  s.answer = async (id, timeout = HOOK_MS) => {
    const file = join(hookDir, 'responses', `${id}.json`);
    const deadline = Date.now() + timeout;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`the extension host did not answer request ${id} within ${timeout} ms`);
      await sleep(100);
    }
    const response = readJson(file);
    assert.ok(response.ok, `the extension host failed: ${response.error}`);
    return response;
  };

  s.ask = (request) => s.answer(s.send(request));
  /** The extension host's decisions for these calls, with the settings in force there. */
  s.hostDecisions = async (calls) => (await s.ask({ action: 'decide', calls })).decisions;

  /** Opens the settings page (the command toolgate.openSettings) and finds its webview frame. */
  s.openSettings = async (timeout = UI_MS * 2, { minimal = false } = {}) => {
    await s.ask({ action: 'openSettings', minimal });
    const deadline = Date.now() + timeout;
    for (;;) {
      for (const f of s.page.frames()) {
        try {
          // The minimal page shows only the rules and "Try a call"; the full one every section.
          if (await f.evaluate((m) => document.body?.dataset.ready === 'true'
            && (document.getElementById('toolgate-settings')?.dataset.sections === 'rules try') === m, minimal)) {
            s.frame = f;
            // CSP violations while the page loaded reach the console (ourErrors); from now on a
            // listener in the page's window records them too. (An init script's listener would not
            // survive VS Code writing the page into its frame with document.open().)
            await f.evaluate(() => {
              window.addEventListener('securitypolicyviolation', (e) => {
                (globalThis.__cspViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
                console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
              }, true);
            });
            return f;
          }
        } catch { /* a frame navigating or detached */ }
      }
      if (Date.now() > deadline) throw new Error(`the settings page did not load in a webview within ${timeout} ms`);
      await sleep(250);
    }
  };

  /** CSP violations recorded in any frame since the settings page opened. */
  s.cspViolations = async () => {
    const all = [];
    for (const f of s.page.frames()) {
      try { all.push(...await f.evaluate(() => globalThis.__cspViolations ?? [])); } catch { /* detached */ }
    }
    return all;
  };

  s.waitFor = (fn, arg) => s.frame.waitForFunction(fn, arg, { timeout: UI_MS });
  /** Polls `check` (async, in the test) until it answers true. */
  s.waitUntil = async (check, timeout = UI_MS) => {
    const end = Date.now() + timeout;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out waiting for a condition');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  s.waitForText = (selector, pattern) => s.waitFor(([sel, p]) => new RegExp(p).test(document.querySelector(sel)?.textContent ?? ''), [selector, pattern.source]);

  /**
   * The decision the page's "Try a call" section shows for a call: pick the tool, type the input
   * (in one go, so the debounced render sees all of it), wait for a new rendering.
   */
  s.pageDecision = async (call) => {
    await s.frame.evaluate((c) => {
      const select = document.getElementById('tg-try-tool');
      const tool = c.mcp ? '__cursor_mcp__' : c.tool;
      if (![...select.options].some((o) => o.value === tool)) throw new Error(`the page offers no tool ${tool}`);
      select.value = tool;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      const values = c.mcp ? [c.mcp.server, c.mcp.tool] : Array.isArray(c.input) ? c.input : [c.input];
      values.forEach((v, i) => {
        const input = document.getElementById(`tg-try-input-${i}`);
        input.value = v;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    }, call);
    // The debounced render decides this call (the result says which call it shows).
    const shown = JSON.stringify([call.mcp ? '__cursor_mcp__' : call.tool, call.mcp ? [call.mcp.server, call.mcp.tool] : Array.isArray(call.input) ? call.input : [call.input]]);
    await s.waitFor((expected) => document.getElementById('tg-try-result')?.dataset.call === expected && document.getElementById('tg-try-verdict'), shown);
    return s.frame.evaluate(() => ({
      verdict: document.getElementById('tg-try-verdict').textContent,
      message: document.getElementById('tg-try-message')?.textContent ?? null,
      rule: document.getElementById('tg-try-rule')?.textContent ?? null,
      options: [...document.querySelectorAll('#tg-try-options button')].map((b) => b.textContent),
    }));
  };

  /** Host and page side by side for each call: the differences (none, if they agree). */
  s.compare = async (calls) => {
    const host = await s.hostDecisions(calls);
    assert.equal(host.length, calls.length);
    const mismatches = [];
    for (const [i, call] of calls.entries()) {
      const diff = difference(call, host[i], await s.pageDecision(call));
      if (diff) mismatches.push(diff);
    }
    return { host, mismatches };
  };

  /**
   * Console and page errors of the settings page and every CSP violation (Chromium logs each as
   * "… violates the following Content Security Policy directive …"); the workbench's documented
   * offline noise (vsda 404s, the marketplace, unbuilt native add-ons) is not ours.
   */
  s.ourErrors = () => {
    const ours = /webview\/browser\/pre|vscode-resource|vscode-cdn|settings-page|toolgate/;
    return [
      ...s.consoleErrors.filter((e) => ours.test(e.url) || /CSP violation|Content Security Policy|toolgate/.test(e.text)).map((e) => `${e.text} (${e.url})`),
      ...s.pageErrors.filter((e) => ours.test(e)),
    ];
  };

  /** Waits for VS Code's modal dialog whose text matches, clicks `label`; returns the dialog's buttons. */
  s.answerDialog = async (message, label) => {
    const dialog = s.page.locator('.monaco-dialog-box').filter({ hasText: message });
    await dialog.waitFor({ state: 'visible', timeout: UI_MS });
    const buttons = await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts();
    await dialog.getByRole('button', { name: label, exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: UI_MS });
    return buttons.map((b) => b.trim());
  };

  /** Picks the item with this label in VS Code's quick pick. */
  s.pickQuick = async (label) => {
    const row = s.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: label });
    await row.first().waitFor({ state: 'visible', timeout: UI_MS });
    await row.first().click();
    await s.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: UI_MS });
  };

  /** Runs a command from the command palette (Ctrl+Shift+P), as a person would. */
  s.runCommand = async (title) => {
    await s.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: UI_MS });
    await s.page.keyboard.press('Control+Shift+P');
    const input = s.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: UI_MS });
    await input.fill(`>${title}`);
    await s.pickQuick(title);
  };

  return s;
}
