// The settings page as an extension author ships it, in headless Chromium under the webview's
// strict CSP (the `npm start` stand-in host): only the sections they choose, in their words, with
// their tools; the agent's session (grants to revoke, the decision log, suggested rules); and an
// accessibility audit (axe-core) of the minimal and the full page in light, dark and high contrast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { serveWithChromium } from './standin.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WAIT = { timeout: 10000 };
const running = serveWithChromium();

/** The stand-in page with `query`, once it shows the loaded settings; errors and CSP violations recorded. */
async function open(query, { bypassCSP = false } = {}) {
  const context = await running.browser.newContext({ bypassCSP, viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => (globalThis.__cspViolations ??= []).push(e.violatedDirective));
  });
  page.setDefaultTimeout(WAIT.timeout);
  await page.goto(`${running.origin}/settings.html${query}`);
  await page.waitForSelector('body[data-ready="true"]', WAIT);
  return { page, problems, context };
}

const PRODUCTS = /\b(Cursor|Zed|Gasoline|Roo Code|Claude|Codex|Gemini)\b/;

test("a minimal embedding shows only the author's sections, in their words, with their tools", async () => {
  const { page, problems, context } = await open('?page=minimal');
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-sections'), 'rules try');
  assert.deepEqual(await page.locator('main > section').evaluateAll((s) => s.map((e) => e.id)), ['tg-rules', 'tg-try']);
  assert.deepEqual(await page.locator('nav a').allTextContents(), ['Command and file rules', 'Try a call']);
  assert.equal(await page.textContent('h1'), 'Acme Agent permissions');
  assert.match(await page.textContent('.tg-header .tg-hint'), /^What Acme Agent may run without asking/);
  assert.match(await page.textContent('#tg-try .tg-hint'), /a call by Acme Agent/);
  assert.deepEqual(await page.locator('#tg-try-tool option').allTextContents(), ['Run a command', 'Edit a file', 'Fetch a URL']);
  assert.deepEqual(await page.locator('#tg-rules-tool option').evaluateAll((o) => o.map((e) => e.value)), ['terminal', 'edit_file', 'fetch']);
  // The page's own words name no other product (the import panel names the formats it reads).
  const words = await page.locator('h1, h2, h3, nav, .tg-header .tg-hint, section > .tg-hint').allTextContents();
  assert.ok(!words.some((w) => PRODUCTS.test(w)), words.find((w) => PRODUCTS.test(w)));
  // It still decides: the terminal is the first tool, and `git status` is allowed by the user's rule.
  await page.fill('#tg-try-input-0', 'git status');
  await page.waitForFunction(() => document.querySelector('#tg-try-verdict')?.textContent === 'Runs without asking', null, WAIT);
  assert.deepEqual(await page.evaluate(() => globalThis.__cspViolations ?? []), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the default page names no other product in its headings and help', async () => {
  const { page, context } = await open('');
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-sections'), 'mcp rules try roo gasoline');
  const words = await page.locator('h1, h2, nav, .tg-header .tg-hint, section > .tg-hint').allTextContents();
  assert.ok(!words.some((w) => PRODUCTS.test(w)), words.find((w) => PRODUCTS.test(w)));
  await context.close();
});

test("the agent's session: grants with how long they last, revoked in the page; the log filtered; a suggested rule added", async () => {
  const { page, problems, context } = await open('?session=1');
  await page.waitForSelector('#tg-grants-table', WAIT);
  assert.equal(await page.getAttribute('#toolgate-settings', 'data-sections'), 'mcp rules try roo gasoline grants proposals log');
  const grants = () => page.locator('#tg-grants-table tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].slice(0, 3).map((c) => c.textContent)));
  const before = await grants();
  assert.equal(before.length, 2, JSON.stringify(before));
  assert.deepEqual(before[0].slice(0, 3), ['cargo build', 'terminal', 'for this session']);
  assert.match(before[1][2], /^until \d\d:\d\d/);
  await page.getByRole('button', { name: 'Revoke cargo build for terminal' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#tg-grants-table tbody tr').length === 1, null, WAIT);
  assert.equal(await page.evaluate(async () => (await globalThis.toolgateStandin.grants(Date.UTC(2026, 0, 1, 9, 30))).length), 1, 'revoked in the host\'s session');

  // The log, newest first; filtered by outcome, then by tool.
  const rows = () => page.locator('#tg-log-table tbody tr').evaluateAll((r) => r.map((e) => [...e.cells].map((c) => c.textContent)));
  const all = await rows();
  assert.deepEqual(all[0], ['edit_file', 'src/main.rs', 'Runs without asking'], 'the user allows edits under src/');
  assert.ok(all.some((r) => r[1] === 'git push --force' && r[2] === 'Asked; you refused it'), JSON.stringify(all));
  assert.ok(all.some((r) => r[1] === 'docker compose up' && r[2] === 'Asked; you allowed it (for a limited time)'), JSON.stringify(all));
  await page.selectOption('#tg-log-outcome', 'deny');
  assert.deepEqual((await rows()).map((r) => r[1]), ['sudo apt install jq'], 'the managed layer refuses sudo');
  await page.selectOption('#tg-log-outcome', '');
  await page.selectOption('#tg-log-tool', 'edit_file');
  assert.deepEqual((await rows()).map((r) => r[1]), ['src/main.rs']);

  // `npm test`, approved three times: suggested; adding it puts it in the draft's user rules.
  const proposal = page.getByRole('button', { name: 'Add to your rules: npm test' });
  assert.match(await page.textContent('#tg-proposals-list'), /You approved npm test \(terminal\) 3 times: a rule would have saved 3 prompts/);
  await proposal.click();
  await page.waitForSelector('#toolgate-settings[data-dirty="true"]', WAIT);
  assert.ok(await page.getByRole('button', { name: 'In your rules: npm test' }).isDisabled());
  await page.fill('#tg-mcp-entry-3', 'jira:create_ticket'); // the sample's invalid entry, which would refuse the save
  await page.click('#tg-save');
  await page.waitForFunction(() => /Saved/.test(document.querySelector('#tg-status')?.textContent ?? ''), null, WAIT);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('toolgate.standin.saved')));
  assert.ok(saved.rules.user.tools.terminal.alwaysAllow.some((r) => r.pattern === '^npm\\s+test(\\s|$)'), JSON.stringify(saved.rules.user.tools.terminal));
  // Against the saved rules, the suggestion is gone.
  await page.waitForFunction(() => !document.querySelector('#tg-proposals-list'), null, WAIT);
  assert.deepEqual(problems, []);
  await context.close();
});

test('accessibility: axe-core finds no violation in the minimal and the full page, and with text that hides characters flagged, in light, dark and high contrast', async () => {
  for (const query of ['?page=minimal', '?session=1', '?sample=hidden&session=1']) {
    for (const theme of ['light', 'dark', 'high-contrast', 'high-contrast-light']) {
      // axe is injected as a script, which the strict CSP would refuse: only this audit bypasses it.
      const { page, context } = await open(`${query}&theme=${theme}`, { bypassCSP: true });
      if (query.includes('session=1')) await page.waitForSelector('#tg-log-table', WAIT);
      await page.evaluate(axeSource);
      const result = await page.evaluate(() => globalThis.axe.run(document.getElementById('toolgate-settings'), {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      }));
      const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} node(s), e.g. ${v.nodes[0]?.target.join(' ')}: ${v.nodes[0]?.failureSummary}`);
      assert.deepEqual(found, [], `${query} ${theme}`);
      assert.ok(result.passes.length > 10, 'axe ran its rules');
      await context.close();
    }
  }
});

test("keyboard only: Tab reaches the session's Revoke and Add buttons, and Enter works them", async () => {
  const { page, context } = await open('?session=1');
  await page.waitForSelector('#tg-grants-table', WAIT);
  /** Presses Tab until the focused element's accessible label matches, at most `limit` times. */
  const tabTo = async (pattern, limit = 400) => {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
      if (pattern.test(label)) return label;
    }
    throw new Error(`Tab never reached ${pattern}`);
  };
  assert.equal(await tabTo(/^Revoke docker compose/), 'Revoke docker compose for terminal');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => ![...document.querySelectorAll('#tg-grants-table tbody tr')].some((r) => r.cells[0].textContent === 'docker compose'), null, WAIT);
  assert.equal(await tabTo(/^Add to your rules/), 'Add to your rules: npm test');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#toolgate-settings[data-dirty="true"]', WAIT);
  await context.close();
});
