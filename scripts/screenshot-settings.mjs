// Screenshots of the settings page for the docs (docs/settings-page.png, docs/settings-page-dark.png):
// the `npm start` stand-in in headless Chromium, light and dark, after a few edits that show the
// page's feedback (an invalid regex marked at its column, a decision with its permission buttons);
// and an embedder's pages: the minimal one (docs/settings-minimal.png, light, and -dark) and the
// agent's session (docs/settings-session.png, and -dark: grants, suggested rules, decisions); and
// text written to fool a reader, written out and flagged (docs/settings-hidden.png: the stand-in's
// `?sample=hidden&session=1`, its rules, a path tried, the grants and the decisions); and the page
// drawn before it is checked (docs/settings-checking.png: the stored settings as a host sends them
// unchecked, with the core's validator held back).
// Run after `npm run build`: node scripts/screenshot-settings.mjs [outdir]
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'docs');
mkdirSync(out, { recursive: true });

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [theme, file] of [['light', 'settings-page.png'], ['dark', 'settings-page-dark.png']]) {
    // Tall enough that nothing scrolls: the sticky header stays where it belongs.
    const context = await browser.newContext({ viewport: { width: 1040, height: 2600 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.setDefaultTimeout(15000);
    await page.goto(`http://127.0.0.1:${server.address().port}/settings.html?theme=${theme}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.selectOption('#tg-rules-tool', 'edit_file');
    await page.fill('#tg-rule-alwaysAllow-0', '^src/(main');
    await page.fill('#tg-try-input-0', 'git status && cargo build --release');
    await page.waitForFunction(() => document.querySelector('.tg-caret') && document.querySelector('#tg-try-items'));
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    if (process.env.FULL) await page.screenshot({ path: join(out, file.replace('.png', '-full.png')), fullPage: true });
    const top = await page.locator('#toolgate-settings').boundingBox();
    const end = await page.locator('#tg-try').boundingBox();
    await page.screenshot({ path: join(out, file), clip: { x: 0, y: top.y, width: 1040, height: end.y + end.height - top.y + 16 } });
    await context.close();
    console.log(`wrote ${join(out, file)}`);
  }
  for (const theme of ['light', 'dark']) {
    const suffix = theme === 'dark' ? '-dark' : '';
    const context = await browser.newContext({ viewport: { width: 1040, height: 2600 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.setDefaultTimeout(15000);
    const origin = `http://127.0.0.1:${server.address().port}`;
    await page.goto(`${origin}/settings.html?page=minimal&theme=${theme}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#tg-try-input-0', 'npm test && git push --force');
    await page.waitForFunction(() => /npm test/.test(document.querySelector('#tg-try-items')?.textContent ?? ''));
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    const top = await page.locator('#toolgate-settings').boundingBox();
    const end = await page.locator('#tg-try').boundingBox();
    await page.screenshot({ path: join(out, `settings-minimal${suffix}.png`), clip: { x: 0, y: top.y, width: 1040, height: end.y + end.height - top.y + 16 } });
    await page.goto(`${origin}/settings.html?session=1&theme=${theme}`);
    await page.waitForSelector('#tg-log-table');
    const grants = await page.locator('#tg-grants').boundingBox();
    const log = await page.locator('#tg-log').boundingBox();
    await page.screenshot({ path: join(out, `settings-session${suffix}.png`), fullPage: true, clip: { x: 0, y: grants.y - 8, width: 1040, height: log.y + log.height - grants.y + 24 } });
    await context.close();
    console.log(`wrote settings-minimal${suffix}.png and settings-session${suffix}.png in ${out}`);
  }
  {
    const context = await browser.newContext({ viewport: { width: 1040, height: 3000 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.setDefaultTimeout(15000);
    await page.goto(`http://127.0.0.1:${server.address().port}/settings.html?sample=hidden&session=1&sections=rules,try,grants,log&theme=light`);
    await page.waitForSelector('#tg-log-table');
    await page.selectOption('#tg-rules-layer', 'project');
    await page.selectOption('#tg-try-tool', 'edit_file');
    await page.fill('#tg-try-input-0', 'src/\u202Esr.niam');
    await page.waitForFunction(() => /sr\.niam/.test(document.querySelector('#tg-try-items')?.textContent ?? ''));
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    const top = await page.locator('#tg-rules').boundingBox();
    top.y -= 8;
    const end = await page.locator('#tg-log').boundingBox();
    await page.screenshot({ path: join(out, 'settings-hidden.png'), clip: { x: 0, y: top.y, width: 1040, height: end.y + end.height - top.y + 16 } });
    await context.close();
    console.log(`wrote settings-hidden.png in ${out}`);
  }
  {
    // The page as it draws before its validator is here: the settings drawn, "Checking the
    // settings…". The validator's .wasm is held until the screenshot is taken.
    const origin = `http://127.0.0.1:${server.address().port}`;
    const context = await browser.newContext({ viewport: { width: 1040, height: 2600 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.setDefaultTimeout(15000);
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    await page.route('**/settings-page/validator/toolgate_validator_bg.wasm', async (route) => { await released; await route.continue().catch(() => {}); });
    const stored = {
      mcp: { mode: 'yolo', mcpAllowedTools: ['github:*', 'docs:search', 'github:create_issue', 'jira create_ticket'], mcpToolsProtection: false, playwrightProtection: true },
      rules: {
        user: { tools: { terminal: { alwaysAllow: [{ pattern: '^git\\s+(status|log|diff)\\b' }, { pattern: '^ls\\b' }], alwaysConfirm: [{ pattern: '^git\\s+push' }], alwaysDeny: [{ pattern: '^curl\\b.*\\|\\s*sh' }] } } },
        project: { tools: { terminal: { alwaysAllow: [{ pattern: '^make\\b' }] } } },
      },
      roo: { modes: [{ slug: 'code', mcpRestrictions: { disallowedServers: ['admin-server'] } }] },
      gasoline: { yaml: '# Gasoline allowlist\nallowed_tools:\n  - "observe.*"\n  - "interact.navigate"\n' },
    };
    const catalogue = { servers: [{ name: 'github', tools: [{ name: 'create_issue' }, { name: 'list_issues' }] }, { name: 'docs', tools: [{ name: 'search' }] },
      { name: 'admin-server', defaultEnabled: false, tools: [{ name: 'drop_db' }] }] };
    // The host: answers `ready` with the settings as stored, unchecked.
    await page.exposeFunction('__toolgateToHost', (message) => {
      if (message.type === 'ready') {
        page.evaluate((m) => window.postMessage(m, '*'), { type: 'load', protocol: 1, settings: stored, context: { catalogue }, checked: false }).catch(() => {});
      }
    });
    await page.addInitScript(() => { globalThis.acquireVsCodeApi = () => ({ postMessage: (m) => globalThis.__toolgateToHost(JSON.parse(JSON.stringify(m))) }); });
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${origin} 'wasm-unsafe-eval'; style-src ${origin}; connect-src ${origin}">
<title>Tool permissions</title><link rel="stylesheet" href="${origin}/pkg/settings-page/settings-page.css">
<script type="module" src="${origin}/pkg/settings-page/settings-page.js"></script></head>
<body class="vscode-light"><div id="toolgate-settings"></div></body></html>`;
    await page.route(`${origin}/checking.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(`${origin}/checking.html`);
    await page.waitForSelector('body[data-visible="true"]');
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    const top = await page.locator('#toolgate-settings').boundingBox();
    const end = await page.locator('#tg-try').boundingBox();
    await page.screenshot({ path: join(out, 'settings-checking.png'), clip: { x: 0, y: top.y, width: 1040, height: end.y + end.height - top.y + 16 } });
    release();
    await context.close();
    console.log(`wrote settings-checking.png in ${out}`);
  }
} finally {
  await browser.close();
  server.close();
}
