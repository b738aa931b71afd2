// The settings page opening as a user sees it: `npm start`'s stand-in host in headless Chromium,
// from navigation to the page showing the loaded settings (its `toolgate-settings-ready` mark),
// and the bytes it transferred (bodies as sent, gzip where the server compressed, and decoded).
// A fresh browser context (no cache) per round.
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';

/** `query` picks the page: '' the default, '?page=minimal' an embedder's minimal one, '?session=1' with the agent's session. */
export async function measurePageOpen(rounds = 9, query = '') {
  const server = await startServer(0);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const samples = [];
  try {
    for (let k = 0; k < rounds + 1; k++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/settings.html${query}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      const ready = await page.evaluate(() => performance.getEntriesByName('toolgate-settings-ready')[0]?.startTime);
      await page.waitForLoadState('networkidle');
      // Every response of the page, as the browser counted it (same origin, so sizes are exposed).
      const { bytes, decoded } = await page.evaluate(() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .reduce((sum, e) => ({ bytes: sum.bytes + e.encodedBodySize, decoded: sum.decoded + e.decodedBodySize }), { bytes: 0, decoded: 0 }));
      if (k > 0) samples.push({ ready, bytes, decoded }); // the first round warms the server and the disk cache
      await context.close();
    }
    samples.browser = browser.version();
  } finally {
    await browser.close();
    server.close();
  }
  return samples;
}
