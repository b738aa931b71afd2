// toolgate's settings page: the webview half (PROTOCOL.md). Plain DOM, no framework, no inline
// script or style: it runs under `default-src 'none'; script-src <cspSource> 'wasm-unsafe-eval';
// style-src <cspSource>`. Every validation and decision shown comes from the toolgate core, reached
// only through ./core.js; the glue to the host (messages, draft storage, debouncing) is the core's
// gloo-based `HostLink` and `Debouncer`. Text from settings, calls and the agent is shown as what
// it is (./visible.js): characters that hide or reorder text written out and marked, each value
// isolated from the text around it, a value holding them flagged.
//
// The page draws first and checks when it can: with only the link to the host loaded it posts
// `ready` and draws the settings `load` brings; checking them (and what drawing asks of the core:
// the tools' catalogue, the previews) follows when the validator is loaded, "Try a call"'s
// decision when the decider is, and the import when it is used.
//
// This file is the page itself: its messages with the host, the draft, validation, saving, the
// shell and the layout. Each section's drawing is a module of its own beside it (section-*.js),
// whose methods are the page's; dom.js and problems.js are the helpers they share.
import { loadCore, loadDecider, loadLink, loadValidator } from './core.js';
import { canonical, clone, code, h, hiddenMark, marked, put } from './dom.js';
import { ProblemSlots } from './problems.js';
import { ActivitySection } from './section-activity.js';
import { GasolineSection } from './section-gasoline.js';
import { ImportSection } from './section-import.js';
import { McpSection } from './section-mcp.js';
import { RooSection } from './section-roo.js';
import { RulesSection } from './section-rules.js';
import { TrySection } from './section-try.js';
import { visible } from './visible.js';
import { ACTIVITY_SECTIONS, DEFAULT_SECTIONS, DEFAULT_WORDS, SECTION_IDS, VALIDATE_DELAY_MS } from './words.js';

const PROTOCOL_VERSION = 1;

export { loadCore };

/** An object, not an array or null. */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Stored settings as the host read them, before any check (`load` with `checked: false`), in the
 * form the page draws: each section and field the core fills in when absent (`validateSettings`'
 * defaults) filled in the same way. Undefined when they are not in a form the page can draw (a
 * list where an object belongs, …): the page then waits for the host's checked settings.
 */
function drawable(stored) {
  const s = isObject(stored) ? stored : {};
  for (const key of ['mcp', 'rules', 'roo', 'gasoline']) if (s[key] !== undefined && !isObject(s[key])) return undefined;
  const rules = s.rules ?? {};
  for (const layer of ['user', 'project']) {
    if (rules[layer] !== undefined && (!isObject(rules[layer]) || (rules[layer].tools !== undefined && !isObject(rules[layer].tools)))) return undefined;
  }
  const settings = clone({
    ...s,
    mcp: { mode: 'yolo', mcpAllowedTools: [], mcpToolsProtection: true, playwrightProtection: true, ...s.mcp },
    rules: { ...rules, user: { tools: {}, ...rules.user }, project: { tools: {}, ...rules.project } },
    roo: { modes: [], ...s.roo },
    gasoline: { yaml: '', ...s.gasoline },
  });
  const { mcp, roo, gasoline } = settings;
  if (!Array.isArray(mcp.mcpAllowedTools) || !mcp.mcpAllowedTools.every((e) => typeof e === 'string')) return undefined;
  if (!Array.isArray(roo.modes) || !roo.modes.every(isObject) || typeof gasoline.yaml !== 'string') return undefined;
  for (const layer of ['user', 'project']) {
    for (const tool of Object.values(settings.rules[layer].tools)) {
      if (!isObject(tool) || ['alwaysAllow', 'alwaysConfirm', 'alwaysDeny'].some((l) => tool[l] !== undefined && !(Array.isArray(tool[l]) && tool[l].every(isObject)))) return undefined;
    }
  }
  return settings;
}

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

  /** The sections shown, in order: the embedder's, else the settings and, with a session, its activity. */
  sectionsShown() {
    return this.page.sections ?? [...DEFAULT_SECTIONS, ...(this.activity ? ACTIVITY_SECTIONS : [])];
  }

  shows(section) {
    return this.sectionsShown().includes(section);
  }

  /** A section's heading or help, the embedder's words first. */
  words(section, key) {
    const text = this.page.words?.[section]?.[key] ?? DEFAULT_WORDS[section][key];
    return text.replaceAll('{agent}', this.page.agentName ?? 'the agent');
  }

  /** A tool's display name: the embedder's label, else its name. */
  toolLabel(name) {
    return this.page.tools?.find((t) => t.name === name)?.label ?? visible(name);
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
    const keep = () => this.validateLater.flush();
    document.addEventListener('visibilitychange', keep);
    window.addEventListener('pagehide', keep);
    this.link.post({ type: 'ready', protocol: PROTOCOL_VERSION });
    // Checking is loaded beside: the settings are drawn without it, and checked when it is here.
    loadValidator().then((checker) => this.onValidator(checker), (e) => this.onCoreFailed('Checking the settings', e));
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
    // "Try a call" decides once the first check is shown.
    if (!this.deciderLoading && this.shows('try')) {
      this.deciderLoading = loadDecider().then((decider) => {
        this.decider = decider;
        this.renderTry();
      }, (e) => this.onCoreFailed('Trying a call', e));
    }
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
  onLoad({ settings: sent, context, problems, page, checked }) {
    const first = this.saved === undefined;
    const isChecked = checked !== false;
    const settings = isChecked ? sent : drawable(sent);
    if (!settings) {
      // Not in a form the page can draw: the host's checked settings follow.
      if (first) this.setStatus('Checking the settings…');
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
    this.loadChecked = isChecked;
    // A draft restored after a reload, or typed before the host reloaded, is kept if it differs.
    if (!this.draft || (!first && !this.isDirty(this.previousSaved)) || canonical(this.draft) === canonical(settings)) {
      if (!this.draft || canonical(this.draft) !== canonical(settings)) redraw = true;
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
    if (this.checker) {
      this.validate();
      this.announceLoad();
    } else {
      // Drawn, not checked yet: the host's problems, if it sent any, where they belong.
      if (!this.isDirty()) this.slots.show(this.loadProblems, []);
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
    this.validation = this.checker.validateSettings(this.draft, this.context);
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

  // --- rendering -----------------------------------------------------------------------------

  renderShell() {
    this.status = h('p', { id: 'tg-status', class: 'tg-status', role: 'status', 'aria-live': 'polite' }, 'Waiting for the extension…');
    this.saveButton = h('button', { type: 'button', id: 'tg-save', class: 'tg-primary', onclick: () => this.save() }, 'Save');
    this.discardButton = h('button', { type: 'button', id: 'tg-discard', class: 'tg-secondary', onclick: () => this.discard() }, 'Discard changes');
    this.summary = h('p', { id: 'tg-summary', class: 'tg-summary' });
    this.nav = h('nav', { 'aria-label': 'Sections' });
    this.sections = Object.fromEntries(Object.entries(SECTION_IDS).map(([name, id]) => [name, h('section', { id, 'aria-labelledby': `${id}-title` })]));
    this.loadBanner = h('div', { class: 'tg-load-problems', 'aria-live': 'polite' });
    this.coreBanner = h('div', { class: 'tg-load-problems', 'aria-live': 'polite' });
    this.title = h('h1', {});
    this.intro = h('p', { class: 'tg-hint' });
    this.main = h('main', {});
    const globalProblems = this.slots.slot('', [], { catchAll: true });
    put(this.root, 
      h('header', { class: 'tg-header' },
        this.title, this.intro,
        h('div', { class: 'tg-savebar' }, this.saveButton, this.discardButton, this.status),
        this.summary, this.loadBanner, this.coreBanner, globalProblems, this.nav),
      this.main);
    this.layout();
    this.renderSaveBar();
  }

  /** The title, the links and the sections, in the embedder's order. */
  layout() {
    if (!this.main) return;
    const agent = this.page.agentName ?? 'an AI agent';
    this.title.textContent = this.page.title ?? 'Tool permissions';
    this.intro.textContent = this.page.intro ?? `What ${agent} may run without asking, what asks first, and what is refused. Every check on this page is made by toolgate, the same engine the extension decides with.`;
    const shown = this.sectionsShown();
    put(this.nav, h('ul', {}, shown.map((name) => h('li', {}, h('a', { href: `#${SECTION_IDS[name]}` }, this.words(name, 'heading'))))));
    put(this.main, ...shown.map((name) => this.sections[name]));
    this.root.dataset.sections = shown.join(' ');
    if (this.draft && this.saved) this.renderAll();
    if (this.activity) this.renderActivity();
  }

  renderSaveBar() {
    if (!this.saveButton) return;
    const dirty = this.isDirty();
    this.saveButton.disabled = !this.draft || this.pendingSave !== undefined;
    this.discardButton.disabled = !dirty;
    this.root.dataset.dirty = String(dirty);
    const { errors = [], warnings = [] } = this.validation;
    put(this.summary, 
      dirty ? h('span', { class: 'tg-pill tg-pill-dirty' }, 'Unsaved changes') : h('span', { class: 'tg-pill' }, 'No unsaved changes'),
      ' ',
      errors.length ? h('span', { class: 'tg-pill tg-pill-error' }, `${errors.length} error(s) — fix before saving`) : '',
      ' ',
      warnings.length ? h('span', { class: 'tg-pill tg-pill-warning' }, `${warnings.length} warning(s)`) : '');
    // Problems of the stored settings that have a place on the page are shown there; the others here.
    const placeless = this.loadProblems.filter((p) => !p.path || p.code === 'invalidSettings');
    put(this.loadBanner, ...(placeless.length
      ? [h('p', { class: 'tg-banner tg-banner-error' }, 'The stored settings could not be used as they are: ',
        marked(placeless.map((p) => `${p.path ? `${visible(p.path)}: ` : ''}${p.message}`).join('; '), { written: true }), '. The page shows the defaults instead.')]
      : []));
  }

  renderAll() {
    if (!this.draft) return;
    if (this.shows('mcp')) this.renderMcp();
    if (this.shows('rules')) this.renderRules();
    if (this.shows('try')) this.renderTryControls();
    if (this.shows('roo')) this.renderRoo();
    if (this.shows('gasoline')) this.renderGasoline();
    this.slots.show(this.validation.errors, this.validation.warnings);
  }

  /** What the core previews of the draft: the Gasoline server's report, the Roo mode's prompt. */
  renderPreviews() {
    if (!this.draft) return;
    const regions = [this.gasolineSummary, this.rooPreview].filter(Boolean);
    if (!this.checker) {
      // Drawn in their place when the validator is here.
      for (const region of regions) {
        region.setAttribute('aria-busy', 'true');
        if (!region.querySelector('.tg-pending')) put(region, h('p', { class: 'tg-hint tg-pending' }, 'Shown once the settings are checked.'));
      }
      return;
    }
    for (const region of regions) region.removeAttribute('aria-busy');
    const preview = this.checker.settingsPreview(this.draft, this.context);
    if (this.gasolineSummary) {
      const g = preview.gasoline;
      put(this.gasolineSummary, ...(g
        ? [h('p', { class: 'tg-summary-line' }, h('strong', {}, 'Server reports: '), marked(g.message, { written: true })),
          g.allowed_tools.length ? h('ul', { class: 'tg-chips' }, g.allowed_tools.map((t) => h('li', {}, code(t), hiddenMark(t)))) : null]
        : [h('p', { class: 'tg-hint' }, 'Fix the errors above to see what the server would report.')]));
    }
    if (this.rooPreview) {
      const mode = preview.modes[this.ui.mode ?? 0];
      put(this.rooPreview, ...(!mode ? [] : mode.servers.length
        ? [h('ul', { class: 'tg-tree' }, mode.servers.map((s) => h('li', {}, code(s.name), hiddenMark(s.name),
          s.tools.length ? h('ul', {}, s.tools.map((t) => h('li', {}, code(t.name), hiddenMark(t.name)))) : h('span', { class: 'tg-hint' }, ' (no tools)'))))]
        : [h('p', { class: 'tg-hint' }, 'No MCP server: the prompt describes none.')]));
    }
  }
}

// Each section's methods are the page's.
for (const section of [McpSection, RulesSection, ImportSection, TrySection, RooSection, ActivitySection, GasolineSection]) {
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
  const link = await loadLink();
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
