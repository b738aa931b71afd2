// The host half of toolgate's settings page (PROTOCOL.md): answers the page's messages, validates
// every draft again with the toolgate core before anything is persisted, and keeps the last good
// settings in force. This file is the ES module; the package's `toolgate/settings-page/host` is its
// CommonJS twin (host.cjs, generated), whose core defaults to the tools' Node build.
//
// Nothing here touches VS Code itself: `webview` is anything with VS Code's `postMessage` and
// `onDidReceiveMessage`, `load` and `persist` are the extension's own.

/** The protocol version both halves speak (`ready.protocol`, `load.protocol`). */
const PROTOCOL_VERSION = 1;

const defaultCore = null; // host.cjs: the tools' Node build

// Values go into double-quoted attributes and text, so single quotes (the CSP's) stay as written.
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (value) => String(value).replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]);

/**
 * The page's HTML for a webview (or a web page that frames it: `hostOrigin` names that page's
 * origin, the only one the page posts to and hears from): the strict Content-Security-Policy (scripts and styles from
 * `cspSource` only, plus 'wasm-unsafe-eval' to compile the core; no inline script or style;
 * `connect-src` only to `cspSource`, to fetch the core's .wasm), the stylesheet and the page's
 * module (one file: nothing to preload). `scriptUri` / `styleUri` are the webview URIs of
 * `settings-page.js` / `settings-page.css` (vscode.Uri or string).
 *
 * `settings` (the stored settings, as stored), with `page` (the page options, as the host's) and
 * `context`, go into the HTML as data the page reads (a JSON block, never run): the page draws them
 * before any message, and the host's `load` checks them (or replaces them, if they changed since).
 */
function settingsPageHtml({ cspSource, scriptUri, styleUri, title = 'Tool permissions', lang = 'en', storageKey, hostOrigin, settings, page, context } = {}) {
  for (const [name, value] of Object.entries({ cspSource, scriptUri, styleUri })) {
    if (value === undefined || value === null || String(value) === '') {
      throw new TypeError(`settingsPageHtml: ${name} is required`);
    }
  }
  const csp = `default-src 'none'; script-src ${cspSource} 'wasm-unsafe-eval'; style-src ${cspSource}; connect-src ${cspSource}`;
  const key = storageKey === undefined ? '' : ` data-storage-key="${escapeHtml(storageKey)}"`;
  // Outside VS Code: the origin of the page that frames this one, the only one it speaks with.
  if (hostOrigin !== undefined && (typeof hostOrigin !== 'string' || hostOrigin.trim() === '*' || !/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+/i.test(hostOrigin))) {
    throw new TypeError(`settingsPageHtml: hostOrigin must be an origin such as https://host.example (not ${JSON.stringify(hostOrigin)})`);
  }
  const host = hostOrigin === undefined ? '' : ` data-host-origin="${escapeHtml(hostOrigin)}"`;
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(String(styleUri))}">
<script type="module" src="${escapeHtml(String(scriptUri))}"></script>
</head>
<body>
<div id="toolgate-settings"${key}${host}><p class="tg-loading">Loading the settings…</p></div>
${storedBlock({ settings, page, context })}</body>
</html>
`;
}

/**
 * The stored settings as data in the page's HTML (`<script type="application/json">`: never run,
 * so the CSP allows it), or nothing when there are none. Every `<` is written `\u003c`, so no text
 * in the settings can close the block. Settings that are not an object are left to the host's
 * `load`, which says what is wrong with them.
 */
function storedBlock({ settings, page, context }) {
  const checkedPage = checkPageOptions(page, 'settingsPageHtml');
  if (context !== undefined && (context === null || typeof context !== 'object' || Array.isArray(context))) {
    throw new TypeError('settingsPageHtml: context must be an object (the MCP catalogue, the administrator\'s state, workspace trust)');
  }
  if (settings === undefined || settings === null || typeof settings !== 'object' || Array.isArray(settings)) return '';
  const data = { settings, ...(context ? { context } : {}), ...(checkedPage ? { page: checkedPage } : {}) };
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${STORED_BLOCK_ID}">${json}</script>\n`;
}

/** The id of the stored settings' block in the page's HTML (the page reads it: stored.js). */
const STORED_BLOCK_ID = 'toolgate-settings-stored';

/** What the host's context may be: a value, or a function giving one (or a promise of one). */
async function resolve(valueOrFunction) {
  return typeof valueOrFunction === 'function' ? valueOrFunction() : valueOrFunction;
}

function problem(code, message) {
  return { code, message };
}

/** The page's sections, by name; `sections` in the page options picks and orders them. */
const SECTIONS = ['rules', 'try', 'mcp', 'roo', 'gasoline', 'grants', 'log', 'proposals'];

/** Checks the embedder's page options (their mistake: a TypeError naming the field and `who` was given them). */
function checkPageOptions(page, who = 'createSettingsHost') {
  if (page === undefined) return undefined;
  if (!page || typeof page !== 'object') throw new TypeError(`${who}: page must be an object`);
  const known = ['sections', 'title', 'agentName', 'intro', 'words', 'tools'];
  for (const key of Object.keys(page)) {
    if (!known.includes(key)) throw new TypeError(`${who}: page.${key} is not an option (expected ${known.join(', ')})`);
  }
  if (page.sections !== undefined) {
    if (!Array.isArray(page.sections) || page.sections.length === 0) throw new TypeError(`${who}: page.sections must list at least one section`);
    for (const [i, name] of page.sections.entries()) {
      if (!SECTIONS.includes(name)) throw new TypeError(`${who}: page.sections[${i}] ${JSON.stringify(name)} is not a section (expected ${SECTIONS.join(', ')})`);
    }
  }
  for (const key of ['title', 'agentName', 'intro']) {
    if (page[key] !== undefined && typeof page[key] !== 'string') throw new TypeError(`${who}: page.${key} must be a string`);
  }
  for (const [name, words] of Object.entries(page.words ?? {})) {
    if (!SECTIONS.includes(name)) throw new TypeError(`${who}: page.words.${name} is not a section`);
    for (const [key, value] of Object.entries(words ?? {})) {
      if (!['heading', 'help'].includes(key) || typeof value !== 'string') throw new TypeError(`${who}: page.words.${name}.${key} must be heading or help, a string`);
    }
  }
  if (page.tools !== undefined) {
    if (!Array.isArray(page.tools)) throw new TypeError(`${who}: page.tools must be a list of { name, label? }`);
    for (const [i, tool] of page.tools.entries()) {
      if (!tool || typeof tool.name !== 'string' || (tool.label !== undefined && typeof tool.label !== 'string')) {
        throw new TypeError(`${who}: page.tools[${i}] must be { name: string, label?: string }`);
      }
    }
  }
  return JSON.parse(JSON.stringify(page));
}

/**
 * Connects the settings page in `webview` to the extension: answers `ready` with `load`, and
 * `save` with `saved` (after `persist` resolved) or `rejected` (nothing persisted).
 *
 * Options: `webview` ({ postMessage, onDidReceiveMessage }), `load()` → the stored settings (or a
 * promise), `persist(settings)` → void or a promise (a throw or rejection rejects the save),
 * `context` (the MCP catalogue, the administrator's state, workspace trust: a value or a function),
 * `core` (toolgate's core: `validateSettings`, or a promise of it; host.cjs defaults to the
 * tools' Node build),
 * `onDidSave(settings)`, `log(message, level)`.
 */
function createSettingsHost(options = {}) {
  const { webview, load, persist, onDidSave, log = () => {} } = options;
  // The core, or a promise of it (a host in a browser fetches its own module): until it is ready,
  // the page is sent the stored settings as they are, and the checked ones when it is.
  const given = options.core ?? defaultCore;
  const pending = typeof given?.then === 'function';
  let core = pending ? undefined : given;
  const page = checkPageOptions(options.page);
  const activity = options.activity;
  if (activity !== undefined && (!activity || (typeof activity.session !== 'function' && typeof activity.session?.grants !== 'function'))) {
    throw new TypeError('createSettingsHost: activity.session must be a Session or a function giving the current one');
  }
  if (!webview || typeof webview.postMessage !== 'function' || typeof webview.onDidReceiveMessage !== 'function') {
    throw new TypeError('createSettingsHost: webview must have postMessage and onDidReceiveMessage');
  }
  if (typeof load !== 'function') throw new TypeError('createSettingsHost: load must be a function');
  if (typeof persist !== 'function') throw new TypeError('createSettingsHost: persist must be a function');
  const isCore = (candidate) => Boolean(candidate) && typeof candidate.validateSettings === 'function';
  if (!pending && !isCore(core)) {
    throw new TypeError('createSettingsHost: core must be toolgate\'s engine module (validateSettings)');
  }
  const coreReady = pending
    ? given.then((loaded) => {
      if (!isCore(loaded)) throw new TypeError('createSettingsHost: core must be toolgate\'s engine module (validateSettings)');
      core = loaded;
      return loaded;
    })
    : Promise.resolve(core);
  // A core that never comes is the extension's mistake: every message after it says so.
  coreReady.catch((e) => log(`the settings core could not be loaded: ${e?.message ?? e}`, 'error'));

  let lastGood; // the last settings that validated (and, after a save, were persisted)
  let context = {};
  let queue = Promise.resolve(); // saves and loads run one at a time, in order
  let disposed = false;

  const post = (message) => {
    if (disposed) return;
    try {
      const sent = webview.postMessage(message);
      if (sent && typeof sent.then === 'function') sent.then(undefined, (e) => log(`postMessage failed: ${e?.message ?? e}`, 'warn'));
    } catch (e) {
      log(`postMessage failed: ${e?.message ?? e}`, 'warn');
    }
  };

  /**
   * Reads the stored settings and the context, validates them, and sends `load`. While the core is
   * still loading, the stored settings go first as they are (`checked: false`, an object only),
   * so the page draws them at once.
   */
  async function sendLoad() {
    context = (await resolve(options.context)) ?? {};
    let stored;
    let problems = [];
    try {
      stored = await load();
    } catch (e) {
      problems = [problem('loadFailed', `The stored settings could not be read: ${e?.message ?? e}`)];
    }
    if (!core && stored && typeof stored === 'object' && !Array.isArray(stored)) {
      post({ type: 'load', protocol: PROTOCOL_VERSION, settings: stored, context, checked: false, ...(page ? { page } : {}) });
    }
    try {
      await coreReady;
    } catch (e) {
      post({ type: 'load', protocol: PROTOCOL_VERSION, settings: stored ?? {}, context, ...(page ? { page } : {}),
        problems: [...problems, problem('hostError', `The extension could not check the settings: ${e?.message ?? e}`)] });
      return;
    }
    // `validateSettings` throws only for a malformed context: the extension's mistake, reported to it.
    const checked = core.validateSettings(stored ?? {}, context);
    let settings = checked.settings;
    if (checked.ok) {
      lastGood = checked.settings;
    } else {
      problems = [...problems, ...checked.errors];
      // Unreadable settings cannot be shown; the page starts from the defaults and says why.
      if (!settings) settings = core.validateSettings({}, context).settings;
      log(`stored settings have ${checked.errors.length} problem(s): ${checked.errors.map((p) => p.message).join('; ')}`, 'warn');
    }
    const warnings = checked.warnings ?? [];
    post({ type: 'load', protocol: PROTOCOL_VERSION, settings, context, ...(page ? { page } : {}), ...(problems.length ? { problems } : {}),
      ...(warnings.length ? { warnings } : {}) });
    if (activity) await sendActivity();
  }

  /**
   * Sends what the agent's session holds: its grants in force, its recent decisions, and the rules
   * its approvals suggest (proposals against the settings in force, for the user to add).
   */
  /** The agent's session now (the extension may replace it), and the host's clock. */
  const currentSession = async () => (typeof activity.session === 'function' ? activity.session() : activity.session);
  const clock = () => (activity.now ? activity.now() : Date.now());

  async function sendActivity(problems = []) {
    const session = await currentSession();
    if (!session) {
      post({ type: 'activity', grants: [], log: [], proposals: [], ...(problems.length ? { problems } : {}) });
      return;
    }
    const grants = session.grants(clock());
    const { records } = session.log();
    const limit = activity.logLimit ?? 200;
    const recent = records.filter((r) => r.event === 'decision' || r.event === 'answer').slice(-limit);
    let proposals = [];
    if (typeof core.learnRules === 'function' && typeof core.settingsPolicy === 'function' && typeof core.readSessionLog === 'function') {
      try {
        const spec = core.settingsPolicy(lastGood ?? core.validateSettings({}, context).settings, context);
        const { calls } = core.readSessionLog(session.logLines());
        proposals = core.learnRules(spec, calls, { layer: 'user' }).proposals;
      } catch (e) {
        log(`the proposals could not be made: ${e?.message ?? e}`, 'warn');
      }
    }
    post({ type: 'activity', grants, log: recent, proposals, ...(problems.length ? { problems } : {}) });
  }

  /** Revokes a grant the user took back in the page; a workspace or user grant's rule goes to `onRevoke`. */
  async function revoke(id) {
    const session = await currentSession();
    try {
      if (!session) throw new Error('the agent has no session');
      const persisted = session.revoke(String(id), clock());
      if (persisted) await activity.onRevoke?.(persisted);
      log(`grant ${id} revoked in the settings page`, 'info');
    } catch (e) {
      log(`grant ${id} could not be revoked: ${e?.message ?? e}`, 'warn');
      await sendActivity([problem('revokeFailed', `The grant could not be revoked: ${e?.message ?? e}`)]);
      return;
    }
    await sendActivity();
  }

  /** Validates a draft with the core; persists it only if it has no errors. */
  async function save(id, draft) {
    let checked;
    try {
      await coreReady;
      context = (await resolve(options.context)) ?? context;
      checked = core.validateSettings(draft, context);
    } catch (e) {
      // The extension's context is malformed (or unreadable): refuse, and say so to both sides.
      log(`save ${id} could not be checked: ${e?.message ?? e}`, 'error');
      post({ type: 'rejected', id, errors: [problem('hostError', `The extension could not check the settings: ${e?.message ?? e}`)], warnings: [] });
      return;
    }
    if (!checked.ok) {
      log(`save ${id} rejected: ${checked.errors.map((p) => `${p.path ?? ''} ${p.message}`).join('; ')}`, 'info');
      post({ type: 'rejected', id, errors: checked.errors, warnings: checked.warnings });
      return;
    }
    try {
      await persist(checked.settings);
    } catch (e) {
      log(`save ${id} could not be persisted: ${e?.message ?? e}`, 'error');
      post({ type: 'rejected', id, errors: [problem('persistFailed', `The settings could not be saved: ${e?.message ?? e}`)], warnings: [] });
      return;
    }
    lastGood = checked.settings;
    post({ type: 'saved', id, settings: checked.settings, warnings: checked.warnings });
    // The proposals are against the settings in force: a rule just added is no longer suggested.
    if (activity) await sendActivity();
    try {
      onDidSave?.(checked.settings);
    } catch (e) {
      log(`onDidSave threw: ${e?.message ?? e}`, 'error');
    }
  }

  const enqueue = (task) => {
    const run = queue.then(task).catch((e) => log(`settings host: ${e?.stack ?? e}`, 'error'));
    queue = run;
    return run;
  };

  const subscription = webview.onDidReceiveMessage((message) => {
    if (disposed || !message || typeof message !== 'object') return;
    if (message.type === 'ready') {
      if (message.protocol !== PROTOCOL_VERSION) log(`the page speaks protocol ${message.protocol}, the host ${PROTOCOL_VERSION}`, 'warn');
      enqueue(sendLoad);
    } else if (message.type === 'save') {
      const id = Number.isSafeInteger(message.id) ? message.id : 0;
      enqueue(() => save(id, message.settings));
    } else if (message.type === 'revoke' && activity && typeof message.id === 'string') {
      enqueue(() => revoke(message.id));
    } else {
      log(`ignored a message of type ${JSON.stringify(message.type)}`, 'info');
    }
  });

  return {
    /** The last settings that validated: what the extension should decide with. */
    get settings() {
      return lastGood;
    },
    /** The context last sent to the page. */
    get context() {
      return context;
    },
    /** Re-reads the settings and the context and sends `load` (settings or admin state changed outside the page). */
    refresh: () => enqueue(sendLoad),
    /** Sends the session's grants, log and proposals again (after a decision or an answer). */
    refreshActivity: () => enqueue(() => (activity ? sendActivity() : undefined)),
    /** Resolves when every message received so far has been handled. */
    idle: () => queue,
    /** Stops listening; later messages are ignored. */
    dispose() {
      disposed = true;
      subscription?.dispose?.();
    },
  };
}

/** `createSettingsHost` under the name the protocol uses for VS Code panels. */
const attachSettingsPage = (options) => createSettingsHost(options);

export { PROTOCOL_VERSION, SECTIONS, createSettingsHost, attachSettingsPage, settingsPageHtml };
