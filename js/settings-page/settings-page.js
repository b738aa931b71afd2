// toolgate's settings page: the webview half (PROTOCOL.md). Plain DOM, no framework, no inline
// script or style: it runs under `default-src 'none'; script-src <cspSource> 'wasm-unsafe-eval';
// style-src <cspSource>`. Every validation and decision shown comes from the toolgate core, reached
// only through ./core.js; the glue to the host (messages, draft storage, debouncing) is the core's
// gloo-based `HostLink` and `Debouncer`. Text from settings, calls and the agent is shown as what
// it is (./visible.js): characters that hide or reorder text written out and marked, each value
// isolated from the text around it, a value holding them flagged.
//
// The page draws first and checks when it can: with only the link to the host loaded it draws the
// stored settings its HTML carries (if the host put them there), posts `ready` and draws the
// settings `load` brings; checking them (and what drawing asks of the core:
// the tools' catalogue, the previews) follows when the validator is loaded, "Try a call"'s
// decision when the decider is, and the import when it is used.
//
// This file is the page itself: its messages with the host, the draft, validation and saving. Its
// frame (shell.js) and each section's drawing (section-*.js) are modules of their own beside it,
// whose methods are the page's; dom.js, problems.js and words.js are the helpers they share, and
// stored.js reads settings sent before the host checked them.
import { linkNow, loadCore, loadDecider, loadLink, loadTools, loadValidator } from './core.js';
import { canonical, clone, h, put } from './dom.js';
import { ProblemSlots } from './problems.js';
import { ShellSection } from './shell.js';
import { drawable, storedInHtml } from './stored.js';
import { ActivitySection } from './section-activity.js';
import { GasolineSection } from './section-gasoline.js';
import { ImportSection } from './section-import.js';
import { McpSection } from './section-mcp.js';
import { RooSection } from './section-roo.js';
import { RulesSection } from './section-rules.js';
import { TrySection } from './section-try.js';
import { visible } from './visible.js';
import { VALIDATE_DELAY_MS } from './words.js';

/** What counts as using a section: focus, a click, typing, a choice. */
const USE_EVENTS = ['focusin', 'pointerdown', 'input', 'change'];

const PROTOCOL_VERSION = 1;

export { loadCore };

// ---------------------------------------------------------------------------------------------
// The page.

class SettingsPage {
  /** `link`: the core's glue to the host (core.js `loadLink()`), all the page needs to start. */
  constructor(root, link, options) {
    this.root = root;
    this.glue = link;
    this.options = options;
    this.checker = undefined; // the core's validator (core.js `loadValidator()`), once loaded
    this.decider = undefined; // the core's decider (`loadDecider()`), once the first check is shown
    this.tools = undefined; // the core's tools (`loadTools()`), once the import is used
    this.saved = undefined; // the settings the host last loaded or saved
    this.draft = undefined;
    this.context = {};
    this.validation = { ok: true, errors: [], warnings: [] };
    this.loadProblems = [];
    this.ui = { layer: 'user', tool: 'terminal', tryTool: 'terminal', tryInputs: {}, tryLayer: 'user', mode: 0, newEntry: '' };
    this.saveId = 0;
    this.pendingSave = undefined;
    this.restored = false;
    this.slots = new ProblemSlots();
    this.validateLater = new link.Debouncer(VALIDATE_DELAY_MS, () => this.validate());
    this.page = {}; // the embedder's choices (load.page): sections, words, tools
    this.activity = undefined; // the agent's session (activity messages): grants, log, proposals
    this.logFilter = { outcome: '', tool: '' };
  }

  start() {
    // Only the host is heard, and only the host's origin is posted to (HostLink, src/bindings/webview.rs).
    this.link = new this.glue.HostLink((message) => this.onHostMessage(message), this.options.storageKey, this.options.vscodeApi, this.options.hostOrigin);
    const stored = this.link.loadDraft();
    if (stored && typeof stored === 'object' && stored.version === 1 && stored.draft) {
      this.draft = stored.draft;
      this.ui = { ...this.ui, ...(stored.ui ?? {}) };
      this.restored = true;
    }
    this.renderShell();
    // The stored settings the host put in the page's HTML are drawn before any message.
    const inHtml = storedInHtml();
    if (inHtml) this.onLoad({ ...inHtml, checked: false });
    const keep = () => this.validateLater.flush();
    document.addEventListener('visibilitychange', keep);
    window.addEventListener('pagehide', keep);
    this.link.post({ type: 'ready', protocol: PROTOCOL_VERSION });
    this.watchTryUse();
  }

  /**
   * Loads the validator once, after the host's first `load` is drawn: nothing is fetched for it
   * before the settings show, so they show as soon as the host sends them.
   */
  loadChecker() {
    if (this.checkerLoading) return;
    this.checkerLoading = loadValidator().then((checker) => this.onValidator(checker), (e) => this.onCoreFailed('Checking the settings', e));
  }

  /** The validator is loaded: what waited for it is drawn, and the draft checked. */
  onValidator(checker) {
    this.checker = checker;
    if (!this.draft || this.saved === undefined) return;
    this.keepingFocus(() => this.drawCoreParts());
    this.validate();
    this.announceLoad();
  }

  /** A part of the core could not be loaded: `what` cannot be done, said in the page. */
  onCoreFailed(what, e) {
    console.warn(`toolgate settings page: ${what} cannot be done: the core's part could not be loaded`, e);
    this.setChecking(false);
    put(this.coreBanner, h('p', { class: 'tg-banner tg-banner-error', id: 'tg-core-failed' },
      `${what} cannot be done in this page: ${e?.message ?? e}. Saving still sends the settings to the extension, which checks them.`));
  }

  /**
   * Draws again the parts drawn before the validator was here: the tool lists (their options come
   * from the core's catalogue) and "Try a call"'s inputs, in the same places and sizes.
   */
  drawCoreParts() {
    if (this.shows('rules')) this.renderRules();
    if (this.shows('try')) this.renderTryControls();
    this.slots.show(this.validation.errors, this.validation.warnings);
  }

  /** Runs `draw`, then puts focus (and the caret) back in the control with the same id. */
  keepingFocus(draw) {
    const active = document.activeElement;
    const id = active?.id;
    const selection = id && typeof active.selectionStart === 'number' ? [active.selectionStart, active.selectionEnd, active.selectionDirection] : undefined;
    draw();
    const again = id ? document.getElementById(id) : null;
    if (!again || again === active) return;
    // Drawn again in the same place: focus goes back without scrolling.
    again.focus({ preventScroll: true });
    if (selection && typeof again.setSelectionRange === 'function') {
      try { again.setSelectionRange(...selection); } catch { /* not a text field any more */ }
    }
  }

  /**
   * While the drawn settings wait for the validator (`data-checking` on the root): the status line
   * says so, and each region the validator fills is `aria-busy` until it is filled (renderPreviews,
   * renderTry, renderNewEntryProblems).
   */
  setChecking(on) {
    if (on) this.root.dataset.checking = 'true';
    else delete this.root.dataset.checking;
  }

  /** After a `load`, once the draft is checked: the status says how it went, and the page is ready. */
  announceLoad() {
    if (!this.loadPending) return;
    this.loadPending = false;
    this.setChecking(false);
    // A save since the load has said how it went: that stays on the status line.
    if (this.saveId === this.loadSaveId) this.setStatus(this.restored ? 'Your unsaved changes were restored.' : this.loadProblems.length || (!this.loadChecked && this.validation.errors.length)
      ? 'The stored settings have problems: fix them and save.' : 'Settings loaded.');
    document.body.dataset.ready = 'true';
    // When the page first shows the loaded settings checked: a User Timing mark an embedder (and
    // the bench) can read.
    if (!this.readyMarked) {
      this.readyMarked = true;
      performance.mark('toolgate-settings-ready');
    }
    this.renderTry();
  }

  /**
   * "Try a call" decides with the tools' module, which is most of what the page could fetch: it is
   * loaded when the section is first used (focused, clicked, typed in or changed), not with the page.
   */
  watchTryUse() {
    const use = (e) => {
      if (!e.target?.closest?.('#tg-try')) return;
      for (const type of USE_EVENTS) this.root.removeEventListener(type, use);
      this.useDecider();
    };
    for (const type of USE_EVENTS) this.root.addEventListener(type, use);
  }

  useDecider() {
    if (this.deciderLoading) return;
    this.deciderLoading = loadDecider().then((decider) => {
      this.decider = decider;
      this.renderTry();
      this.useLint(); // the same module: its findings cost nothing more
    }, (e) => this.onCoreFailed('Trying a call', e));
    this.renderTry();
  }

  /**
   * Lint's findings come with the tools' module, loaded when a rule is first edited (or the
   * import or "Try a call" is used): from then on every check has them.
   */
  useLint() {
    if (this.lintLoading) return;
    this.lintLoading = loadTools().then((tools) => {
      this.linter = tools;
      this.validate();
    }, (e) => console.warn('toolgate settings page: lint\'s findings cannot be shown', e));
  }

  // --- messages ------------------------------------------------------------------------------

  onHostMessage(message) {
    if (message.type === 'load') this.onLoad(message);
    else if (message.type === 'saved') this.onSaved(message);
    else if (message.type === 'rejected') this.onRejected(message);
    else if (message.type === 'activity') this.onActivity(message);
  }

  onActivity({ grants, log, proposals, problems }) {
    const first = !this.activity;
    this.activity = { grants: grants ?? [], log: log ?? [], proposals: proposals ?? [], problems: problems ?? [] };
    // The first activity adds its sections to the page (layout draws them); later ones redraw them.
    if (first) this.layout();
    else this.renderActivity();
  }

  /**
   * `load`: the settings in force. A host may send the stored settings first as they are stored
   * (`checked: false`, no problems) and then as it checked them (with their problems): the page
   * draws the first at once and takes only what is new from the second, keeping the user's edits
   * and focus.
   */
  onLoad({ settings: sent, context, problems, warnings, page, checked }) {
    const first = this.saved === undefined;
    const isChecked = checked !== false;
    const settings = isChecked ? sent : drawable(sent);
    if (!settings) {
      // Not in a form the page can draw: the host's checked settings follow.
      if (first) this.setStatus('Checking the settings…');
      this.loadChecker();
      return;
    }
    const nextContext = context ?? {};
    let redraw = first || canonical(nextContext) !== canonical(this.context);
    if (page && canonical(page) !== canonical(this.page)) {
      this.page = page;
      this.layout();
    }
    this.saved = settings;
    this.context = nextContext;
    this.loadProblems = isChecked ? problems ?? [] : [];
    this.loadWarnings = isChecked ? warnings ?? [] : [];
    this.loadChecked = isChecked;
    // A draft restored after a reload, or typed before the host reloaded, is kept if it differs.
    // The drawn controls edit the draft object they were drawn from: an equal draft is kept as it
    // is, not replaced by a copy, or edits would go to an object no longer the draft.
    const same = this.draft !== undefined && canonical(this.draft) === canonical(settings);
    if (same) this.restored = false;
    else if (!this.draft || (!first && !this.isDirty(this.previousSaved))) {
      redraw = true;
      this.draft = clone(settings);
      this.restored = false;
    }
    this.previousSaved = settings;
    this.loadPending = true;
    this.loadSaveId = this.saveId;
    if (redraw) this.keepingFocus(() => this.renderAll());
    else this.renderSaveBar();
    if (!this.visibleMarked) {
      // When the page first shows the stored settings (checked or not yet).
      this.visibleMarked = true;
      document.body.dataset.visible = 'true';
      performance.mark('toolgate-settings-visible');
    }
    this.loadChecker();
    if (this.checker) {
      this.validate();
      this.announceLoad();
    } else {
      // Drawn, not checked yet: the host's problems and findings, if it sent any, where they belong.
      if (!this.isDirty()) this.slots.show(this.loadProblems, this.loadWarnings);
      this.validate(); // draws what waits for the validator in its place, keeps the draft
      this.setChecking(true);
      this.setStatus('Checking the settings…');
    }
  }

  onSaved({ id, settings, warnings }) {
    if (id !== this.pendingSave) return;
    this.pendingSave = undefined;
    this.saved = settings;
    this.previousSaved = settings;
    this.loadProblems = [];
    if (canonical(this.draft) === canonical(settings)) this.restored = false;
    this.rejected = undefined;
    this.persistDraft();
    this.renderSaveBar();
    this.setStatus(`Saved.${warnings?.length ? ` ${warnings.length} warning(s) remain.` : ''}`);
  }

  onRejected({ id, errors }) {
    if (id !== this.pendingSave) return;
    this.pendingSave = undefined;
    this.rejected = errors;
    this.renderSaveBar();
    this.slots.show([...errors, ...this.validation.errors.filter((e) => !errors.some((x) => canonical(x) === canonical(e)))], this.validation.warnings);
    const first = errors[0];
    this.setStatus(`Not saved: ${errors.length} error(s)${first ? ` — ${first.path ? `${visible(first.path)}: ` : ''}${visible(first.message)}` : ''}. Your previous settings are still in force.`);
  }

  save() {
    this.validateLater.flush();
    this.saveId += 1;
    this.pendingSave = this.saveId;
    this.setStatus('Saving…');
    this.link.post({ type: 'save', id: this.saveId, settings: clone(this.draft) });
  }

  discard() {
    if (!this.saved) return;
    this.draft = clone(this.saved);
    this.restored = false;
    this.rejected = undefined;
    this.renderAll();
    this.changed({ structural: false });
    this.setStatus('Changes discarded.');
  }

  isDirty(against = this.saved) {
    return against !== undefined && this.draft !== undefined && canonical(this.draft) !== canonical(against);
  }

  /** After any edit: keep the draft, and validate once typing pauses. */
  changed({ structural = false, now = false } = {}) {
    this.rejected = undefined;
    if (this.saved && canonical(this.draft?.rules) !== canonical(this.saved.rules)) this.useLint();
    if (structural) {
      // Drawing again replaces the controls: focus goes back to the one with the same id.
      const focused = document.activeElement?.id;
      this.renderAll();
      if (focused) document.getElementById(focused)?.focus();
    }
    if (now) {
      this.validateLater.cancel();
      this.validate();
    } else {
      this.validateLater.schedule();
    }
    this.renderSaveBar();
  }

  persistDraft() {
    try {
      this.link.saveDraft({ version: 1, draft: this.draft, ui: this.ui });
    } catch (e) {
      console.warn('toolgate settings: the draft could not be kept', e);
    }
  }

  /**
   * Validates the whole draft with the core, shows every problem where it belongs, refreshes
   * previews. Before the validator is loaded, the draft is only kept: it is checked when it arrives.
   */
  validate() {
    if (!this.draft) return;
    if (!this.checker) {
      this.renderPreviews();
      this.renderTry();
      this.renderSaveBar();
      this.persistDraft();
      return;
    }
    this.validation = (this.linter ?? this.checker).validateSettings(this.draft, this.context);
    if (!this.linter && this.loadWarnings?.length && canonical(this.draft.rules) === canonical(this.saved?.rules)) {
      // Lint's findings are the host's until the rules are edited (then lint is loaded: useLint).
      const own = new Set(this.validation.warnings.map(canonical));
      this.validation = { ...this.validation, warnings: [...this.validation.warnings, ...this.loadWarnings.filter((w) => !own.has(canonical(w)))] };
    }
    const errors = [...this.validation.errors, ...this.loadProblems.filter((p) => !p.path)];
    this.slots.show(errors, this.validation.warnings);
    this.renderNewEntryProblems();
    this.renderPreviews();
    this.renderTry();
    this.renderSaveBar();
    this.persistDraft();
    this.root.dataset.validated = String(Number(this.root.dataset.validated ?? 0) + 1);
  }

  setStatus(text) {
    if (this.status) this.status.textContent = text;
  }
}

// Each section's methods are the page's.
for (const section of [ShellSection, McpSection, RulesSection, ImportSection, TrySection, RooSection, ActivitySection, GasolineSection]) {
  for (const name of Object.getOwnPropertyNames(section.prototype)) {
    if (name !== 'constructor') Object.defineProperty(SettingsPage.prototype, name, Object.getOwnPropertyDescriptor(section.prototype, name));
  }
}

/**
 * Starts the page in `root` (default: `#toolgate-settings`). Options: `storageKey` (where drafts
 * live in local storage outside VS Code; default from `data-storage-key`), `vscodeApi` (if the
 * embedder already called `acquireVsCodeApi()`, which can be called only once), `hostOrigin`
 * (outside VS Code, the origin of the page that frames this one: the only one it posts to and
 * hears from; default from `data-host-origin`, else the page's own origin).
 */
export async function startSettingsPage(root = document.getElementById('toolgate-settings'), options = {}) {
  if (!root) throw new Error('toolgate settings page: no #toolgate-settings element');
  if (root.dataset.started) return undefined;
  root.dataset.started = 'true';
  root.classList.add('tg-root');
  // At once where the browser compiles the link synchronously: the page draws before it yields.
  const link = linkNow() ?? await loadLink();
  const page = new SettingsPage(root, link, { storageKey: options.storageKey ?? root.dataset.storageKey ?? 'toolgate.settingsPage.draft', vscodeApi: options.vscodeApi,
    hostOrigin: options.hostOrigin ?? root.dataset.hostOrigin });
  page.start();
  return page;
}

// The template (the host half's `settingsPageHtml`) has the root element: start on load.
if (typeof document !== 'undefined') {
  const boot = () => {
    const root = document.getElementById('toolgate-settings');
    if (root && root.dataset.autostart !== 'false') {
      startSettingsPage(root).catch((e) => {
        put(root, h('p', { class: 'tg-banner tg-banner-error' }, `The settings page could not start: ${e?.message ?? e}`));
        console.error(e);
      });
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot, { once: true });
  else boot();
}
