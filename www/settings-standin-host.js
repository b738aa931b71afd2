// The stand-in host's own thread: the extension host of `npm start`, in a module worker beside the
// settings page, as an extension host is a process beside its webview. It answers the page with
// toolgate's host half (host.mjs, the same code as `toolgate/settings-page/host`) over its own
// core (the tools' module: validation with lint's findings, the agent's session, learning), which
// it loads and compiles here, off the page's thread. The page's window (settings-standin.js)
// relays the page's messages, keeps the stored settings in its local storage and shows the log.
//
// Worker ⇄ window messages: to the worker `start` (query, the stored settings' text, the
// controls), `page` (a message of the page), `page-checked` (the page showed its first check),
// `stored`, `controls` (then the page is sent `load` again), `grants`; from it `post` (a message for the page), `persist`, `log`, `grants`.
import { createSettingsHost } from '/pkg/settings-page/host.mjs';
import { hiddenSession, sampleSession, standinContext, standinPage, standinStored } from './settings-standin-sample.js';

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

/**
 * An extension host has its core loaded before its webview opens; this stand-in, started with the
 * page, cannot have. It loads its core once the page has shown its first check (the window says
 * so), or after two seconds: compiling it beside the page would measure the stand-in's own start
 * (two modules compiling at once on the same cores), not the page's. Until then the host half
 * answers with the stored settings as they are.
 */
const CORE_AFTER_MS = 2000;
let pageChecked;
const pageCheckedOrLater = new Promise((resolve) => { pageChecked = resolve; setTimeout(resolve, CORE_AFTER_MS); });

let params = new URLSearchParams();

function start({ query, saved, controls }) {
  params = new URLSearchParams(query);
  stored = standinStored(saved, params);
  context = standinContext(controls);
  const core = pageCheckedOrLater.then(loadHostCore);
  const hidden = params.get('sample') === 'hidden';
  agent = params.get('session')
    ? core.then((loaded) => (hidden ? hiddenSession(loaded, context) : sampleSession(loaded, stored, context)))
    : undefined;
  let clock = () => Date.now();
  agent?.then((a) => { clock = a.now; });
  const page = standinPage(params);
  host = createSettingsHost({
    ...(page ? { page } : {}),
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
  }
  else if (data.type === 'page-checked') pageChecked();
  else if (data.type === 'stored') { stored = standinStored(data.saved, params); host?.refresh(); }
  else if (data.type === 'controls') { context = standinContext(data.controls); host?.refresh(); }
  else if (data.type === 'grants') {
    const session = agent ? (await agent).session : undefined;
    postMessage({ type: 'grants', id: data.id, grants: session ? session.grants(data.now) : [] });
  }
};
