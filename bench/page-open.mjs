// The settings page opening as a user sees it: `npm start`'s stand-in host in headless Chromium,
// from navigation to the page showing the stored settings (its `toolgate-settings-visible` mark)
// and to their validation results shown (`toolgate-settings-ready`), and the bytes the page
// transferred (bodies as sent, gzip where the server compressed, and decoded): in all, once the
// network is idle, and before the settings were visible. The stand-in host runs in a worker, as
// an extension host runs beside its webview: what it fetches (its own core) is not the page's,
// and the page's timeline does not hold it. A fresh browser context (no cache) per round; the
// pages alternate round by round.
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';

/**
 * `queries` pick the pages: '' the default, '?page=minimal' an embedder's minimal one,
 * '?session=1' with the agent's session. They alternate round by round in one browser, so each
 * page is measured under the same conditions; the first round of each warms the server and the
 * disk cache. Resolves to one list of samples per query, in their order.
 */
export async function measurePageOpen(rounds = 9, queries = ['']) {
  const server = await startServer(0);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const samples = queries.map(() => []);
  try {
    for (let k = 0; k < rounds + 1; k++) {
      for (const [i, query] of queries.entries()) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${origin}/settings.html${query}`);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
        await page.waitForLoadState('networkidle');
        // Every response of the page, as the browser counted it (same origin, so sizes are exposed);
        // "before visible": those whose body had arrived when the settings were first drawn.
        const sample = await page.evaluate(() => {
          const mark = (name) => performance.getEntriesByName(name)[0]?.startTime;
          const visible = mark('toolgate-settings-visible');
          const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
          const sum = (list, key) => list.reduce((total, e) => total + e[key], 0);
          const early = entries.filter((e) => e.responseEnd <= visible);
          return { visible, ready: mark('toolgate-settings-ready'), bytes: sum(entries, 'encodedBodySize'), decoded: sum(entries, 'decodedBodySize'),
            bytesBeforeVisible: sum(early, 'encodedBodySize') };
        });
        if (k > 0) samples[i].push(sample); // the first round warms the server and the disk cache
        await context.close();
      }
    }
    samples.browser = browser.version();
  } finally {
    await browser.close();
    server.close();
  }
  return samples;
}
