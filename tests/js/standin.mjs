// `npm start`'s server and a headless Chromium for the tests that open its pages: started before a
// test file's tests, closed after them.
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

/** The server's origin and the browser, filled in once `before` has run. */
export function serveWithChromium() {
  const running = { origin: undefined, browser: undefined, server: undefined };
  before(async () => {
    running.server = await startServer(0);
    running.origin = `http://127.0.0.1:${running.server.address().port}`;
    running.browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
  });
  after(async () => {
    await running.browser?.close();
    running.server?.close();
  });
  return running;
}
