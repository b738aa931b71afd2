// The stand-in host's own thread: the extension host of `npm start`, in a module worker beside the
// settings page, as an extension host is a process beside its webview. It answers the page with
// toolgate's host half (host.mjs, the same code as `toolgate/settings-page/host`) over its own
// core (the tools' module: validation with lint's findings, the agent's session, learning), which
// it loads and compiles here, off the page's thread. The page's window (settings-standin.js)
// relays the page's messages, keeps the stored settings in its local storage and shows the log.
//
// Worker ⇄ window messages: to the worker `start` (query, the stored settings' text, the
// controls), `page` (a message of the page), `stored`, `controls` (then the page is sent `load`
// again), `grants`; from it `post` (a message for the page), `persist`, `log`, `grants`.
import { createSettingsHost } from '/pkg/settings-page/host.mjs';
import { MINIMAL_PAGE, hiddenSample, hiddenSession, sampleSession, sampleSettings, standinContext } from './settings-standin-sample.js';

async function loadHostCore() {
  const core = await import('/pkg/tools/web/toolgate_tools_raw.js');
  await core.default();
  return core;
}

let stored;
let context;
let pageListener = null;
const waiting = []; // the page's messages before the host half listens
let host;
let agent;

const log = (text) => postMessage({ type: 'log', text });

/** The webview as the host half sees it: its messages go to the window, which posts them to the page. */
const webview = {
  postMessage: (message) => { postMessage({ type: 'post', message }); return Promise.resolve(true); },
  onDidReceiveMessage: (listener) => {
    pageListener = listener;
    for (const message of waiting.splice(0)) listener(message);
    return { dispose: () => { pageListener = null; } };
  },
};

let hearPage;
const pageHeard = new Promise((resolve) => { hearPage = resolve; });

let sample = sampleSettings;
/** The stored settings: what the window keeps in its local storage, else the sample. */
const storedFrom = (text) => (text ? JSON.parse(text) : null) ?? sample;

function start({ query, saved, controls }) {
  const params = new URLSearchParams(query);
  if (params.get('sample') === 'hidden') sample = hiddenSample(sampleSettings);
  stored = storedFrom(saved);
  context = standinContext(controls);
  // The core loads once the page's first message is answered: an extension host's core is loaded
  // before its webview opens, and here it would otherwise hold the worker while the page waits.
  const core = pageHeard.then(loadHostCore);
  const hidden = sample !== sampleSettings;
  agent = params.get('session')
    ? core.then((loaded) => (hidden ? hiddenSession(loaded, context) : sampleSession(loaded, stored ?? sampleSettings, context)))
    : undefined;
  let clock = () => Date.now();
  agent?.then((a) => { clock = a.now; });
  // `?sections=rules,log`: only these sections, in this order (the embedder's `page.sections`).
  const sections = params.get('sections')?.split(',');
  host = createSettingsHost({
    ...(params.get('page') === 'minimal' ? { page: MINIMAL_PAGE } : sections ? { page: { sections } } : {}),
    ...(agent ? { activity: { session: async () => (await agent).session, now: () => clock(), onRevoke: (persist) => log(`revoked: ${persist.layer} changes to save`) } } : {}),
    core,
    webview,
    load: () => stored,
    persist: (settings) => {
      stored = settings;
      postMessage({ type: 'persist', settings });
    },
    context: () => context,
    log: (message, level) => log(`${level}: ${message}`),
  });
}

onmessage = async ({ data }) => {
  if (data.type === 'start') start(data);
  else if (data.type === 'page') {
    if (pageListener) pageListener(data.message);
    else waiting.push(data.message);
    // After the host half's answer (its microtasks), not before.
    setTimeout(hearPage, 0);
  }
  else if (data.type === 'stored') { stored = storedFrom(data.saved); host?.refresh(); }
  else if (data.type === 'controls') { context = standinContext(data.controls); host?.refresh(); }
  else if (data.type === 'grants') {
    const session = agent ? (await agent).session : undefined;
    postMessage({ type: 'grants', id: data.id, grants: session ? session.grants(data.now) : [] });
  }
};
