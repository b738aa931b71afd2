// The stand-in host of `npm start`: plays the extension host for the settings page in a plain
// browser. Its host half runs in a module worker (settings-standin-host.js), as an extension host
// runs beside its webview: the page's thread holds only the page. This window provides
// `acquireVsCodeApi()` as VS Code does (with postMessage only, so the page keeps its drafts in
// local storage), relays messages between the page and the worker, "persists" to local storage,
// and shows the host's log. Its controls change the administrator's state and the theme.
//
// The worker is started before anything else is fetched: the page's first `load` waits for it.
const SAVED_KEY = 'toolgate.standin.saved';
const host = new Worker(new URL('./settings-standin-host.js', import.meta.url), { type: 'module', name: 'toolgate stand-in host' });
const $ = (id) => document.getElementById(id);

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
  return Object.freeze({ postMessage: (message) => host.postMessage({ type: 'page', message: structuredClone(message) }) });
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

host.onmessage = ({ data }) => {
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
host.onerror = (e) => log(`the stand-in host failed: ${e.message ?? e}`);

function start() {
  host.postMessage({ type: 'start', query: window.location.search, saved: localStorage.getItem(SAVED_KEY), controls: controls() });
  globalThis.toolgateStandin = {
    log,
    /** The agent session's grants in force at `now`, as the host holds them. */
    grants: (now) => new Promise((resolve) => { const id = ++lastId; asked.set(id, resolve); host.postMessage({ type: 'grants', id, now }); }),
  };
  for (const id of ['standin-admin', 'standin-disabled', 'standin-managed', 'standin-trusted']) {
    $(id).addEventListener('change', () => { log(`context changed: ${id.slice(8)}`); host.postMessage({ type: 'controls', controls: controls() }); });
  }
  $('standin-reset').addEventListener('click', () => {
    localStorage.removeItem(SAVED_KEY);
    localStorage.removeItem('toolgate.standin.draft');
    log('stored settings reset to the sample');
    host.postMessage({ type: 'stored', saved: null });
  });
  // For tests: the sample the host starts from.
  import('./settings-standin-sample.js').then(({ hiddenSample, sampleCatalogue, sampleSettings }) => {
    const sample = new URLSearchParams(window.location.search).get('sample') === 'hidden' ? hiddenSample(sampleSettings) : sampleSettings;
    Object.assign(globalThis.toolgateStandin, { sample, sampleSettings, sampleCatalogue });
  });
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
