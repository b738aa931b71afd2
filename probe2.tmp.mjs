import { chromium } from 'playwright-core';
import { startServer } from './scripts/serve.mjs';
const server = await startServer(0);
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (let k = 0; k < 4; k++) {
  const context = await browser.newContext(); const page = await context.newPage();
  await page.addInitScript(() => {
    window.__t = [];
    addEventListener('message', (e) => window.__t.push(['msg ' + e.data?.type + (e.data?.checked === false ? ' unchecked' : ''), performance.now()]));
    const W = window.Worker; window.Worker = function (...a) { window.__t.push(['worker created', performance.now()]); const w = new W(...a); return w; };
    document.addEventListener('DOMContentLoaded', () => window.__t.push(['DCL', performance.now()]));
  });
  await page.goto(`${origin}/settings.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.waitForLoadState('networkidle');
  const r = await page.evaluate(() => ({ t: window.__t.map(([n, t]) => n + ' ' + Math.round(t)), marks: ['toolgate-settings-visible', 'toolgate-settings-ready'].map((n) => Math.round(performance.getEntriesByName(n)[0]?.startTime)),
    res: performance.getEntriesByType('resource').map((e) => `${e.name.replace(location.origin, '')} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`) }));
  if (k > 0) console.log(r.marks.join(' / '), '\n ', r.t.join(', '));
  if (k === 3) console.log(r.res.join('\n'));
  await context.close();
}
await browser.close(); server.close();
