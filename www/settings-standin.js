// The stand-in host of `npm start`: plays the extension host for the settings page in a plain
// browser. Its host half runs in a module worker (settings-standin-host.js), as an extension host
// runs beside its webview: the page's thread holds only the page. This window provides
// `acquireVsCodeApi()` as VS Code does (with postMessage only, so the page keeps its drafts in
// local storage), relays messages between the page and the worker, "persists" to local storage,
// and shows the host's log. Its controls change the administrator's state and the theme.
//
// As an extension's `settingsPageHtml({ settings, page, context })` does, the stored settings go
// into the page as a JSON block before the page's script runs (this script runs first): the page
// draws them at once, and the host's `load` checks them.
//
// An extension host is running before its webview opens; this one, started with the page, is not.
// Its worker starts once the page has drawn the stored settings (or at once when there are none
// to draw, and after a second at the latest): starting it beside the page would measure the
// stand-in's own start on the same cores, not the page's. The page's messages wait for it.
import { sampleCatalogue, sampleSettings, standinContext, standinPage, standinSample, standinStored } from './settings-standin-sample.js';

const SAVED_KEY = 'toolgate.standin.saved';
const HOST_AT_LATEST_MS = 1000;
const $ = (id) => document.getElementById(id);

let host; // the worker, once started
const waiting = []; // messages for it before it started
const toHost = (message) => (host ? host.postMessage(message) : waiting.push(message));

function log(message) {
  const list = $('standin-log');
  if (!list) return;
  list.append(Object.assign(document.createElement('li'), { textContent: message }));
  // After the next layout: reading scrollHeight now would force one while the page renders.
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
}

// VS Code injects acquireVsCodeApi into a webview; this is its stand-in (callable once, as there).
let acquired = false;
globalThis.acquireVsCodeApi = () => {
  if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
  acquired = true;
  return Object.freeze({ postMessage: (message) => toHost({ type: 'page', message: structuredClone(message) }) });
};

/** The stand-in's controls: the administrator's state and workspace trust (the worker makes the context). */
const controls = () => ({
  adminControls: $('standin-admin').checked,
  adminDisabled: $('standin-disabled').checked,
  managed: $('standin-managed').checked,
  trusted: $('standin-trusted').checked,
});

const asked = new Map(); // grants requests by id
let lastId = 0;

const fromHost = ({ data }) => {
  if (data.type === 'post') window.postMessage(data.message, window.location.origin);
  else if (data.type === 'log') log(data.text);
  else if (data.type === 'persist') {
    localStorage.setItem(SAVED_KEY, JSON.stringify(data.settings));
    log(`persisted (${data.settings.mcp.mcpAllowedTools.length} MCP entries)`);
  } else if (data.type === 'grants') {
    asked.get(data.id)?.(data.grants);
    asked.delete(data.id);
  }
};

/** Starts the host's worker (once) with what it needs, then hands it the messages that waited. */
function startHost() {
  if (host) return;
  host = new Worker(new URL('./settings-standin-host.js', import.meta.url), { type: 'module', name: 'toolgate stand-in host' });
  host.onmessage = fromHost;
  host.onerror = (e) => log(`the stand-in host failed: ${e.message ?? e}`);
  host.postMessage({ type: 'start', query: window.location.search, saved: localStorage.getItem(SAVED_KEY), controls: controls() });
  for (const message of waiting.splice(0)) host.postMessage(message);
}

/** Runs `then` once, when the page makes its User Timing mark `name`. */
function onPageMark(name, then) {
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName(name).length) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'mark', buffered: true });
}

/** The stored settings, the page options and the context, as data in the page (what the page reads first). */
function putStoredInPage() {
  const params = new URLSearchParams(window.location.search);
  let settings;
  try {
    settings = standinStored(localStorage.getItem(SAVED_KEY), params);
  } catch {
    return false; // unreadable: the host's `load` says what is wrong
  }
  const page = standinPage(params);
  const data = { settings, context: standinContext(controls()), ...(page ? { page } : {}) };
  document.body.append(Object.assign(document.createElement('script'), { type: 'application/json', id: 'toolgate-settings-stored', textContent: JSON.stringify(data) }));
  return true;
}

function start() {
  if (putStoredInPage()) {
    onPageMark('toolgate-settings-visible', startHost);
    setTimeout(startHost, HOST_AT_LATEST_MS);
  } else {
    startHost();
  }
  // The host loads its core once the page has shown its first check (settings-standin-host.js).
  onPageMark('toolgate-settings-ready', () => toHost({ type: 'page-checked' }));
  globalThis.toolgateStandin = {
    log,
    /** The agent session's grants in force at `now`, as the host holds them. */
    grants: (now) => new Promise((resolve) => { const id = ++lastId; asked.set(id, resolve); toHost({ type: 'grants', id, now }); }),
  };
  for (const id of ['standin-admin', 'standin-disabled', 'standin-managed', 'standin-trusted']) {
    $(id).addEventListener('change', () => { log(`context changed: ${id.slice(8)}`); toHost({ type: 'controls', controls: controls() }); });
  }
  $('standin-reset').addEventListener('click', () => {
    localStorage.removeItem(SAVED_KEY);
    localStorage.removeItem('toolgate.standin.draft');
    log('stored settings reset to the sample');
    toHost({ type: 'stored', saved: null });
  });
  // For tests: the sample the host starts from.
  Object.assign(globalThis.toolgateStandin, { sample: standinSample(new URLSearchParams(window.location.search)), sampleSettings, sampleCatalogue });
}

const theme = $('standin-theme');
const applyTheme = () => {
  document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light');
  document.body.classList.add(theme.value);
};
const requested = new URLSearchParams(window.location.search).get('theme');
if (requested) theme.value = `vscode-${requested}`;
theme.addEventListener('change', applyTheme);
applyTheme();

start();
