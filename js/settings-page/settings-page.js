// toolgate's settings page: the webview half (PROTOCOL.md). Plain DOM, no framework, no inline
// script or style: it runs under `default-src 'none'; script-src <cspSource> 'wasm-unsafe-eval';
// style-src <cspSource>`. Every validation and decision shown comes from the toolgate core in
// this page's wasm module; the glue to the host (messages, draft storage, debouncing) is the
// module's gloo-based `HostLink` and `Debouncer`. Text from settings, calls and the agent is
// shown as what it is (./visible.js): characters that hide or reorder text written out and
// marked, each value isolated from the text around it, a value holding them flagged.
import init, {
  Debouncer, HostLink, Policy, addToAllowlist, applySettingsChange, decideMcp, importPolicy, parseEntry, removeFromAllowlist,
  settingsMcp, settingsPolicy, settingsPreview, settingsTools, validateSettings,
} from '../tools/web/toolgate_tools_raw.js';
import { describe, hasHidden, hiddenIn, parts, visible } from './visible.js';

const PROTOCOL_VERSION = 1;
const VALIDATE_DELAY_MS = 150;
const CURSOR_MCP = '__cursor_mcp__';
const OUTCOME_TEXT = { allow: 'Runs without asking', confirm: 'Asks first', deny: 'Refused' };
const LIST_TEXT = { alwaysAllow: 'Always allow', alwaysConfirm: 'Always confirm', alwaysDeny: 'Always deny' };
const LISTS = ['alwaysAllow', 'alwaysConfirm', 'alwaysDeny'];
/** The keys of a rule that qualify its matcher; every other key is the matcher (exactly one is set). */
const RULE_OPTIONS = new Set(['caseSensitive', 'root', 'examples', 'human']);
/** A rule's matcher, by its key in the rule: a regex `pattern` unless another is set. */
const matcherOf = (rule) => Object.keys(rule).find((k) => !RULE_OPTIONS.has(k) && rule[k] !== undefined) ?? 'pattern';
/** The formats `importPolicy` reads, with the file a user would paste. */
const IMPORT_FORMATS = [
  ['claudeCode', 'Claude Code', 'settings.json with "permissions": { "allow": [...], "ask": [...], "deny": [...] }'],
  ['codex', 'Codex', 'a .rules file of prefix_rule(pattern=[...], decision=...)'],
  ['vscode', 'VS Code Copilot', 'settings.json with "chat.tools.terminal.autoApprove"'],
  ['cursorCli', 'Cursor CLI', 'cli-config.json with "permissions": { "allow": [...], "deny": [...] }'],
  ['cursorEditor', 'Cursor editor', 'permissions.json with "mcpAllowlist" and "terminalAllowlist"'],
  ['geminiCli', 'Gemini CLI', 'a policy .toml of [[rule]] tables, or settings.json with "tools": { "allowed": [...] }'],
];
/** The page's sections by name, in the default order, with the id of their element. */
const SECTION_IDS = { mcp: 'tg-mcp', rules: 'tg-rules', try: 'tg-try', roo: 'tg-roo', gasoline: 'tg-gasoline', grants: 'tg-grants', proposals: 'tg-proposals', log: 'tg-log' };
const DEFAULT_SECTIONS = ['mcp', 'rules', 'try', 'roo', 'gasoline'];
const ACTIVITY_SECTIONS = ['grants', 'proposals', 'log'];
/**
 * Each section's heading and help, naming no other product; `{agent}` is the agent's name. An
 * embedder replaces any of them (`page.words`).
 */
const DEFAULT_WORDS = {
  mcp: { heading: 'MCP allowlist', help: 'MCP tools named here run without asking when the mode uses the allowlist: server:tool, with * for any server or tool.' },
  rules: { heading: 'Terminal and tool rules', help: 'Per tool, regular expressions that always allow, always confirm or always deny a call, and a default. A terminal line is checked per sub-command. Deny and confirm rules of any layer win; a line runs only if every sub-command is allowed.' },
  try: { heading: 'Try a call', help: 'See what a call by {agent} would do with these settings (saved or not): the decision the extension makes.' },
  roo: { heading: 'Per-mode MCP restrictions', help: 'Which MCP servers and tools each mode may use. Disallowed wins over allowed; with nothing allowed, every server enabled by default may be used.' },
  gasoline: { heading: 'Tool and action allowlist (YAML)', help: 'The MCP server\'s allowlist.yaml: patterns *, tool.* and tool.action, matched ignoring case. An empty list allows everything.' },
  grants: { heading: 'What you allowed', help: 'Answers that last: for this session, for a while, in this workspace or always. Revoke one and {agent} asks again.' },
  proposals: { heading: 'Suggested rules', help: 'Rules that would have let the calls you approved run without asking; none would have let a call you refused run. Add one to your rules, then save.' },
  log: { heading: 'Recent decisions', help: 'What {agent} asked to do and what happened, newest first.' },
};
const SCOPE_TEXT = { session: 'for this session', timed: 'until', workspace: 'always, in this workspace', user: 'always' };
const ANSWER_SCOPE_TEXT = { ...SCOPE_TEXT, timed: 'for a limited time' };

const TRANSLATION_TEXT = { exact: 'Exact', stricter: 'Stricter', impossible: 'Not imported' };
const MODE_TEXT = [
  ['ask_every_time', 'Ask every time', 'Every MCP call asks; the allowlist is not consulted.'],
  ['yolo', 'Use the allowlist', 'Calls your allowlist names run; others ask.'],
  ['full_yolo', 'Run everything', 'Every MCP call runs, unless an administrator controls auto-run.'],
];
const INPUT_LABELS = {
  command: ['Command'], path: ['Path'], pathPair: ['Source path', 'Destination path'], url: ['URL'],
  query: ['Query'], mcpCall: ['Server', 'Tool'], opaque: ['Input'],
};
const INPUT_EXAMPLES = {
  command: ['cargo build --release && git push'], path: ['src/../.env'], pathPair: ['src/a.rs', 'src/b.rs'],
  url: ['https://github.com/rust-lang/rust'], query: ['TODO'], mcpCall: ['github', 'create_issue'], opaque: [''],
};

let corePromise;
/** Loads the core once: the tools' module, fetched from beside its glue (CSP `connect-src`). */
export function loadCore() {
  corePromise ??= init();
  return corePromise;
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers.

let uid = 0;
const nextId = (prefix) => `${prefix}-${++uid}`;

/** `h('button', { class: 'x', onclick }, 'text', child)`: an element; `on*` props are listeners. */
function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'value') el.value = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces an element's children; absent ones (null, undefined, false) are skipped. */
function put(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
}

/**
 * Text as a person must read it: each character that hides or reorders text written out
 * (`\u{202E}`, `\n`) and marked, as the core writes it. `written: true` for text the core already
 * wrote out (messages, labels, grants' displays): its `\u{…}` are marked too.
 */
const marked = (text, options) => parts(text ?? '', options).map((p) => (p.hidden ? h('span', { class: 'tg-escape' }, p.text) : p.text));

/**
 * A value from the settings, a call or the agent's session (a command, a path, a rule, a name),
 * shown as code: written out and marked, and isolated (`dir="auto"`) so that it reorders nothing
 * around it and nothing around it reorders it.
 */
const code = (text, options) => h('code', { class: 'tg-value', dir: 'auto' }, marked(text, options));

/**
 * The flag on a rule, call, path or name that holds characters that hide or reorder text: a
 * visible marker whose accessible name says which. Nothing when `texts` hold none.
 */
function hiddenMark(...texts) {
  return markOf([...new Set(texts.flat().flatMap((t) => (typeof t === 'string' ? hiddenIn(t) : [])))]);
}

/** The marker for these hidden characters (`['U+202E']`), or nothing. */
function markOf(found) {
  if (!found.length) return null;
  const label = `Holds characters that hide or reorder text: ${found.map(describe).join(', ')}`;
  return h('span', { class: 'tg-hidden-mark', role: 'img', 'aria-label': label, title: label }, `⚠ hidden ${found.join(' ')}`);
}

/**
 * For a text of many lines in a `<textarea>` (which shows line breaks, and tabs as space): the
 * lines that hold other characters that hide or reorder text, flagged, each line written out. Null
 * when there are none.
 */
function hiddenLines(text, what, shownAsIs = ['U+0009', 'U+000A', 'U+000D']) {
  const lines = String(text ?? '').split('\n').map((line, i) => ({ line: i + 1, text: line, found: hiddenIn(line).filter((n) => !shownAsIs.includes(n)) }))
    .filter((l) => l.found.length);
  if (!lines.length) return null;
  return h('div', { class: 'tg-hidden-note' },
    h('p', { class: 'tg-hint' }, markOf([...new Set(lines.flatMap((l) => l.found))]), ` ${what} holds characters that hide or reorder text:`),
    h('ul', { class: 'tg-hidden-lines' }, lines.map((l) => h('li', {}, `Line ${l.line} (${l.found.map(describe).join(', ')}): `, code(l.text)))));
}

/**
 * A field for a value that must keep every character. An `<input>` drops line breaks and shows
 * neither invisible characters nor those that reorder text, so: one line without them, an
 * `<input>`; with line breaks and nothing else hidden, a `<textarea>` of as many rows; with any
 * other such character, the value written out, read-only, with the reason (`note`): no edit can
 * change it unseen. `lines: false` for values that are one line (names, entries). Returns the
 * control and the note (or null).
 */
function faithfulField({ id, value = '', readOnly = false, lines = true, onInput, ...props }) {
  const text = String(value);
  const found = hiddenIn(text);
  const breaksOnly = found.length === 1 && found[0] === 'U+000A';
  if (found.length && !(lines && breaksOnly)) {
    const noteId = `${id}-hidden-note`;
    const written = lines && text.includes('\n') ? text.split('\n').map(visible).join('\n') : visible(text);
    const control = written.includes('\n')
      ? h('textarea', { ...props, id, class: 'tg-mono tg-lines', rows: written.split('\n').length, wrap: 'off', readOnly: true, value: written, 'aria-describedby': noteId })
      : h('input', { ...props, id, class: 'tg-mono', value: written, readOnly: true, 'aria-describedby': noteId });
    const shown = found.filter((name) => !(name === 'U+000A' && written.includes('\n')));
    const note = h('p', { class: 'tg-hint tg-hidden-note', id: noteId },
      `Shown with ${shown.map(describe).join(', ')} written out: no field shows ${shown.length === 1 ? 'it' : 'them'} as ${shown.length === 1 ? 'it is' : 'they are'}, `
      + `so it cannot be edited here without changing it unseen.${readOnly ? '' : ' Remove it and write it again, or change it where the settings are stored.'}`);
    return { control, note };
  }
  const input = (e) => onInput?.(e.target.value);
  const control = breaksOnly
    ? h('textarea', { ...props, id, class: 'tg-mono tg-lines', rows: text.split('\n').length, wrap: 'off', readOnly, value: text,
      oninput: (e) => { e.target.rows = e.target.value.split('\n').length; input(e); } })
    : h('input', { ...props, id, class: 'tg-mono', value: text, readOnly, oninput: input });
  return { control, note: null };
}
const clone = (value) => JSON.parse(JSON.stringify(value));

/** JSON with sorted keys, to compare settings whatever order their keys came in. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => value[k] !== undefined).sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Problems shown where they belong: every control registers a slot under the path the core
// uses for it (`mcp.mcpAllowedTools[2]`); a problem goes to the slot of its path, else of the
// nearest enclosing path, else of its section.

class ProblemSlots {
  constructor() {
    this.slots = new Map();
  }

  /** Forgets the slots under these paths (their section is being drawn again). */
  clear(...prefixes) {
    for (const key of [...this.slots.keys()]) {
      if (prefixes.some((prefix) => key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[`))) this.slots.delete(key);
    }
  }

  /** A problem container for `path`, described by (and marking invalid) the given controls. */
  slot(path, controls = [], extra = {}) {
    const el = h('div', { class: 'tg-problems', id: nextId('problems'), 'aria-live': 'polite' });
    for (const control of controls) {
      const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      control.setAttribute('aria-describedby', [...ids, el.id].join(' '));
    }
    this.slots.set(path, { el, controls, ...extra });
    return el;
  }

  find(path) {
    let p = path ?? '';
    while (p) {
      if (this.slots.has(p)) return this.slots.get(p);
      const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
      if (cut <= 0) break;
      p = p.slice(0, cut);
    }
    return this.slots.get(p) ?? this.slots.get(path?.split(/[.[]/)[0]) ?? this.slots.get('');
  }

  show(errors, warnings) {
    const grouped = new Map();
    for (const [severity, list] of [['error', errors], ['warning', warnings]]) {
      for (const p of list) {
        const slot = this.find(p.path);
        if (!slot) continue;
        if (!grouped.has(slot)) grouped.set(slot, []);
        grouped.get(slot).push({ severity, ...p });
      }
    }
    for (const slot of this.slots.values()) {
      const problems = grouped.get(slot) ?? [];
      const next = canonical(problems);
      if (slot.el.dataset.shown === next) continue; // unchanged: no re-announcement
      slot.el.dataset.shown = next;
      put(slot.el, ...problems.map((p) => renderProblem(p, slot)));
      const invalid = problems.some((p) => p.severity === 'error');
      for (const control of slot.controls) {
        if (invalid) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
      slot.onShow?.(problems);
    }
  }
}

function renderProblem(p, slot) {
  // A catch-all slot (a section's, the page's) says where the problem is.
  const where = slot.catchAll && p.path ? [...marked(p.path), ': '] : '';
  const el = h('p', { class: `tg-problem tg-${p.severity}`, dataset: { code: p.code, path: p.path ?? '' } },
    h('span', { class: 'tg-badge' }, p.severity === 'error' ? 'Error' : 'Warning'), ' ', where, marked(p.message, { written: true }));
  if (p.column !== undefined && slot.pattern !== undefined) {
    // The character where the pattern goes wrong, marked under it (written out, as the field shows it).
    const pattern = slot.pattern();
    const chars = [...pattern];
    const at = Math.min(p.column - 1, chars.length);
    el.append(h('span', { class: 'tg-caret', dir: 'ltr', 'aria-label': `at column ${p.column}` },
      h('span', { class: 'tg-caret-before' }, marked(chars.slice(0, at).join(''))),
      h('mark', {}, chars[at] === undefined ? ' ' : marked(chars[at])),
      h('span', {}, marked(chars.slice(at + 1).join('')))));
  } else if (p.line !== undefined && slot.goTo) {
    el.append(' ', h('button', { type: 'button', class: 'tg-link', onclick: () => slot.goTo(p.line, p.column ?? 1) },
      `Go to line ${p.line}, column ${p.column ?? 1}`));
  }
  return el;
}

// ---------------------------------------------------------------------------------------------
// The page.

class SettingsPage {
  constructor(root, options) {
    this.root = root;
    this.options = options;
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
    this.validator = new Debouncer(VALIDATE_DELAY_MS, () => this.validate());
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
    this.link = new HostLink((message) => this.onHostMessage(message), this.options.storageKey, this.options.vscodeApi, this.options.hostOrigin);
    const stored = this.link.loadDraft();
    if (stored && typeof stored === 'object' && stored.version === 1 && stored.draft) {
      this.draft = stored.draft;
      this.ui = { ...this.ui, ...(stored.ui ?? {}) };
      this.restored = true;
    }
    this.renderShell();
    const keep = () => this.validator.flush();
    document.addEventListener('visibilitychange', keep);
    window.addEventListener('pagehide', keep);
    this.link.post({ type: 'ready', protocol: PROTOCOL_VERSION });
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

  onLoad({ settings, context, problems, page }) {
    const first = this.saved === undefined;
    if (page && canonical(page) !== canonical(this.page)) {
      this.page = page;
      this.layout();
    }
    this.saved = settings;
    this.context = context ?? {};
    this.loadProblems = problems ?? [];
    // A draft restored after a reload, or typed before the host reloaded, is kept if it differs.
    if (!this.draft || (!first && !this.isDirty(this.previousSaved)) || canonical(this.draft) === canonical(settings)) {
      this.draft = clone(settings);
      this.restored = false;
    }
    this.previousSaved = settings;
    const focused = document.activeElement?.id;
    this.renderAll();
    if (focused) document.getElementById(focused)?.focus();
    this.validate();
    this.setStatus(this.restored ? 'Your unsaved changes were restored.' : this.loadProblems.length
      ? 'The stored settings have problems: fix them and save.' : 'Settings loaded.');
    document.body.dataset.ready = 'true';
    // When the page first shows the loaded settings: a User Timing mark an embedder (and the
    // bench) can read.
    if (first) performance.mark('toolgate-settings-ready');
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
    this.validator.flush();
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
      this.validator.cancel();
      this.validate();
    } else {
      this.validator.schedule();
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

  /** Validates the whole draft with the core, shows every problem where it belongs, refreshes previews. */
  validate() {
    if (!this.draft) return;
    this.validation = validateSettings(this.draft, this.context);
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
    this.title = h('h1', {});
    this.intro = h('p', { class: 'tg-hint' });
    this.main = h('main', {});
    const globalProblems = this.slots.slot('', [], { catchAll: true });
    put(this.root, 
      h('header', { class: 'tg-header' },
        this.title, this.intro,
        h('div', { class: 'tg-savebar' }, this.saveButton, this.discardButton, this.status),
        this.summary, this.loadBanner, globalProblems, this.nav),
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

  // --- MCP allowlist (Cursor) ------------------------------------------------------------------

  renderMcp() {
    const section = this.sections.mcp;
    const mcp = this.draft.mcp;
    const admin = this.context.admin?.mcp ?? {};
    this.slots.clear('mcp', 'context.admin.mcp');
    const banners = [];
    if (admin.isAdminControlled) {
      banners.push(h('p', { class: 'tg-banner tg-banner-warning', id: 'tg-admin-banner', role: 'note' },
        h('strong', {}, 'Your administrator controls MCP auto-run. '),
        'Your allowlist below is ignored: only the administrator\'s list counts, and "Run everything" does not bypass it.'));
    }
    if (admin.isDisabledByAdmin) {
      banners.push(h('p', { class: 'tg-banner tg-banner-warning', id: 'tg-disabled-banner', role: 'note' },
        h('strong', {}, 'MCP auto-run is turned off by your administrator: '), 'every MCP call asks, whatever the mode.'));
    }
    const modeName = nextId('mode');
    const modes = h('fieldset', { class: 'tg-fieldset' }, h('legend', {}, 'Auto-run mode'),
      ...MODE_TEXT.map(([value, label, hint]) => {
        const id = nextId('mode');
        return h('div', { class: 'tg-choice' },
          h('input', { type: 'radio', id, name: modeName, value, checked: mcp.mode === value,
            onchange: () => { mcp.mode = value; this.changed({ now: true }); } }),
          h('label', { for: id }, label, h('span', { class: 'tg-hint' }, ` — ${hint}`)));
      }));
    const modeSlot = this.slots.slot('mcp.mode');
    const protections = h('fieldset', { class: 'tg-fieldset' }, h('legend', {}, 'Protections'),
      ...[['mcpToolsProtection', 'MCP tools protection', 'every MCP call asks'],
        ['playwrightProtection', 'Browser protection', 'every browser-tool call asks (cursor-browser-extension, cursor-ide-browser)']]
        .map(([key, label, hint]) => {
          const id = `tg-${key}`;
          return h('div', { class: 'tg-choice' },
            h('input', { type: 'checkbox', id, checked: mcp[key], onchange: (e) => { mcp[key] = e.target.checked; this.changed({ now: true }); } }),
            h('label', { for: id }, label, h('span', { class: 'tg-hint' }, ` — ${hint}`)));
        }));

    const list = h('ol', { class: 'tg-entries', id: 'tg-mcp-entries' });
    mcp.mcpAllowedTools.forEach((entry, index) => {
      const id = `tg-mcp-entry-${index}`;
      const { control: input, note } = faithfulField({ id, value: entry, lines: false, spellcheck: 'false', autocomplete: 'off',
        onInput: (text) => { mcp.mcpAllowedTools[index] = text; this.changed(); } });
      const remove = h('button', { type: 'button', class: 'tg-secondary', 'aria-label': `Remove entry ${index + 1}`,
        onclick: () => this.removeMcpEntry(index) }, 'Remove');
      list.append(h('li', { dataset: { path: `mcp.mcpAllowedTools[${index}]` } },
        h('div', { class: 'tg-row' }, h('label', { for: id, class: 'tg-visually-hidden' }, `Entry ${index + 1}`), input, hiddenMark(entry), remove),
        note, this.slots.slot(`mcp.mcpAllowedTools[${index}]`, [input])));
    });
    const empty = mcp.mcpAllowedTools.length ? null : h('p', { class: 'tg-hint' }, 'No entries yet.');
    const listSlot = this.slots.slot('mcp.mcpAllowedTools');

    const newInput = h('input', { id: 'tg-mcp-new', class: 'tg-mono', value: this.ui.newEntry ?? '', spellcheck: 'false',
      autocomplete: 'off', placeholder: 'github:create_issue',
      oninput: (e) => { this.ui.newEntry = e.target.value; this.addResult = undefined; this.validator.schedule(); },
      onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); this.addMcpEntry(); } } });
    this.newEntryProblems = h('div', { id: 'tg-mcp-new-problems', class: 'tg-problems', 'aria-live': 'polite' });
    newInput.setAttribute('aria-describedby', 'tg-mcp-new-hint tg-mcp-new-problems');
    const add = h('div', { class: 'tg-add' },
      h('label', { for: 'tg-mcp-new' }, 'Add an entry'),
      h('div', { class: 'tg-row' }, newInput, h('button', { type: 'button', id: 'tg-mcp-add', class: 'tg-primary', onclick: () => this.addMcpEntry() }, 'Add')),
      h('p', { id: 'tg-mcp-new-hint', class: 'tg-hint' }, 'server:tool — ', code('*'), ' on either side means any: ', code('github:*'), ', ', code('*:read_file'), '.'),
      this.newEntryProblems);

    const adminList = admin.isAdminControlled || admin.adminMcpAllowedTools?.length
      ? h('div', { class: 'tg-readonly', id: 'tg-admin-list' },
        h('h3', {}, 'Administrator\'s allowlist ', h('span', { class: 'tg-pill' }, 'read-only')),
        admin.adminMcpAllowedTools?.length
          ? h('ul', { class: 'tg-entries' }, admin.adminMcpAllowedTools.map((e, i) =>
            h('li', {}, h('div', {}, code(e), hiddenMark(e)), this.slots.slot(`context.admin.mcp.adminMcpAllowedTools[${i}]`))))
          : h('p', { class: 'tg-hint' }, 'The administrator allows no MCP tools.'))
      : null;

    put(section, 
      h('h2', { id: 'tg-mcp-title' }, this.words('mcp', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('mcp', 'help')),
      ...banners, modes, modeSlot, protections,
      h('h3', {}, 'Your allowlist', admin.isAdminControlled ? h('span', { class: 'tg-pill tg-pill-warning' }, ' ignored under admin control') : ''),
      empty, list, listSlot, add, adminList);
    this.renderNewEntryProblems();
  }

  /** The new-entry field, checked as typed by the core's entry parser. */
  renderNewEntryProblems() {
    if (!this.newEntryProblems) return;
    const text = this.ui.newEntry ?? '';
    const shown = [];
    if (this.addResult) shown.push(this.addResult);
    else if (text.trim() !== '') {
      const parsed = parseEntry(text);
      if (!parsed.ok) shown.push(...parsed.errors.map((e) => ({ severity: 'error', ...e })));
    }
    const next = canonical(shown);
    if (this.newEntryProblems.dataset.shown === next) return;
    this.newEntryProblems.dataset.shown = next;
    put(this.newEntryProblems, ...shown.map((p) => p.severity === 'info'
      ? h('p', { class: 'tg-problem tg-info' }, marked(p.message, { written: true }))
      : renderProblem(p, {})));
    const input = this.root.querySelector('#tg-mcp-new');
    if (input) {
      if (shown.some((p) => p.severity === 'error')) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  addMcpEntry() {
    const text = (this.ui.newEntry ?? '').trim();
    const input = () => this.root.querySelector('#tg-mcp-new');
    const parsed = parseEntry(text);
    if (!parsed.ok) {
      this.addResult = { severity: 'error', ...parsed.errors[0] };
      this.renderNewEntryProblems();
      input()?.focus();
      return;
    }
    const outcome = addToAllowlist(this.draft.mcp.mcpAllowedTools, parsed.serverId, parsed.toolName);
    if (outcome.status === 'added') {
      this.draft.mcp.mcpAllowedTools = outcome.list;
      this.ui.newEntry = '';
      this.addResult = { severity: 'info', code: 'added', message: `Added ${visible(outcome.entry)}.` };
      this.changed({ structural: true, now: true });
    } else {
      this.addResult = { severity: outcome.status === 'invalid' ? 'error' : 'warning', code: outcome.status, message: outcome.message };
      this.renderNewEntryProblems();
    }
    input()?.focus();
  }

  removeMcpEntry(index) {
    const list = this.draft.mcp.mcpAllowedTools;
    const [entry] = list.splice(index, 1);
    const still = parseEntry(entry).ok ? removeFromAllowlist(list, entry).stillAllowedBy : undefined;
    this.addResult = { severity: 'info', code: 'removed', message: `Removed ${visible(entry)}.${still ? ` It is still allowed by ${visible(still)}.` : ''}` };
    this.changed({ structural: true, now: true });
    (this.root.querySelector(`#tg-mcp-entry-${Math.min(index, list.length - 1)}`) ?? this.root.querySelector('#tg-mcp-new'))?.focus();
  }

  // --- Terminal and tool rules (Zed model) -----------------------------------------------------

  layers() {
    const layers = [
      { key: 'user', label: 'User', rules: this.draft.rules.user, editable: true, path: 'rules.user' },
      { key: 'project', label: 'Project (workspace)', rules: this.draft.rules.project, editable: true, path: 'rules.project' },
    ];
    if (this.context.admin?.managed) {
      layers.push({ key: 'managed', label: 'Managed (read-only)', rules: this.context.admin.managed, editable: false, path: 'context.admin.managed' });
    }
    return layers;
  }

  toolNames() {
    const catalogue = settingsTools(this.context);
    // The embedder's tools, in their order; the catalogue's when they name none.
    const builtIn = this.page.tools ? this.page.tools.map((t) => catalogue.find((c) => c.tool === t.name)).filter(Boolean) : catalogue;
    const custom = new Set(this.page.tools?.map((t) => t.name).filter((name) => !builtIn.some((c) => c.tool === name)));
    for (const layer of this.layers()) for (const tool of Object.keys(layer.rules.tools ?? {})) custom.add(tool);
    for (const t of builtIn) custom.delete(t.tool);
    return { builtIn, custom: [...custom].sort() };
  }

  renderRules() {
    const section = this.sections.rules;
    this.slots.clear('rules', 'context.admin.managed');
    const layers = this.layers();
    const layer = layers.find((l) => l.key === this.ui.layer) ?? layers[0];
    this.ui.layer = layer.key;
    const { builtIn, custom } = this.toolNames();
    if (this.page.tools && ![...builtIn.map((t) => t.tool), ...custom].includes(this.ui.tool)) this.ui.tool = builtIn[0]?.tool ?? custom[0] ?? this.ui.tool;
    const tool = this.ui.tool;
    const rules = layer.rules.tools?.[tool] ?? {};

    const layerSelect = h('select', { id: 'tg-rules-layer', onchange: (e) => { this.ui.layer = e.target.value; this.renderRules(); this.slots.show(this.validation.errors, this.validation.warnings); } },
      layers.map((l) => h('option', { value: l.key, selected: l.key === layer.key }, l.label)));
    const toolSelect = h('select', { id: 'tg-rules-tool', onchange: (e) => { this.ui.tool = e.target.value; this.renderRules(); this.slots.show(this.validation.errors, this.validation.warnings); } },
      h('optgroup', { label: 'Built-in tools' }, builtIn.map((t) => h('option', { value: t.tool, selected: t.tool === tool }, this.toolLabel(t.tool)))),
      custom.length ? h('optgroup', { label: 'Other tools' }, custom.map((t) => h('option', { value: t, selected: t === tool }, this.toolLabel(t)))) : null);
    if (![...builtIn.map((t) => t.tool), ...custom].includes(tool)) toolSelect.append(h('option', { value: tool, selected: true }, visible(tool)));

    const modeOptions = (value) => [['', 'Not set'], ['allow', 'Allow'], ['confirm', 'Confirm'], ['deny', 'Deny']]
      .map(([v, text]) => h('option', { value: v, selected: (value ?? '') === v }, text));
    const layerDefault = h('select', { id: 'tg-rules-layer-default', disabled: !layer.editable,
      onchange: (e) => { setOrDelete(layer.rules, 'defaultMode', e.target.value); this.changed({ now: true }); } }, modeOptions(layer.rules.defaultMode));
    const toolDefault = h('select', { id: 'tg-rules-tool-default', disabled: !layer.editable,
      onchange: (e) => { setOrDelete(this.toolRules(layer, tool), 'defaultMode', e.target.value); this.tidyTool(layer, tool); this.changed({ now: true }); } },
    modeOptions(rules.defaultMode));

    const newTool = h('input', { id: 'tg-rules-new-tool', class: 'tg-mono', placeholder: 'mcp__github__create_issue', spellcheck: 'false',
      onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); addTool(); } } });
    const addTool = () => {
      const name = newTool.value.trim();
      if (!name) return;
      this.ui.tool = name;
      this.renderRules();
      this.slots.show(this.validation.errors, this.validation.warnings);
      this.root.querySelector('#tg-rules-tool')?.focus();
    };

    const banners = [];
    if (this.context.projectTrusted === false && layer.key === 'project') {
      banners.push(h('p', { class: 'tg-banner tg-banner-warning', role: 'note' },
        h('strong', {}, 'This workspace is not trusted. '), 'Its allow rules and allowing defaults are ignored until you trust it; its deny and confirm rules apply.'));
    }
    if (!layer.editable) {
      banners.push(h('p', { class: 'tg-banner tg-banner-info', role: 'note' }, 'Your administrator manages this layer: it is shown read-only. Its deny and confirm rules win over every other layer.'));
    }

    const lists = LISTS.map((list) => this.renderRuleList(layer, tool, list, rules[list] ?? []));
    const overview = h('div', { class: 'tg-overview' }, h('h3', {}, `Tools with settings in the ${layer.label.toLowerCase()} layer`),
      Object.keys(layer.rules.tools ?? {}).length
        ? h('ul', { class: 'tg-chips' }, Object.entries(layer.rules.tools).map(([name, r]) => {
          const count = LISTS.reduce((n, l) => n + (r[l]?.length ?? 0), 0);
          return h('li', {}, h('button', { type: 'button', class: `tg-chip${name === tool ? ' tg-chip-current' : ''}`, 'aria-pressed': String(name === tool),
            onclick: () => { this.ui.tool = name; this.renderRules(); this.slots.show(this.validation.errors, this.validation.warnings); this.root.querySelector('#tg-rules-tool')?.focus(); } },
          `${this.toolLabel(name)}: ${count} rule(s)${r.defaultMode ? `, default ${r.defaultMode}` : ''}`, hiddenMark(name)),
          this.slots.slot(`${layer.path}.tools.${name}`));
        }))
        : h('p', { class: 'tg-hint' }, 'None yet.'));

    put(section, 
      h('h2', { id: 'tg-rules-title' }, this.words('rules', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('rules', 'help')),
      h('div', { class: 'tg-toolbar' },
        h('div', { class: 'tg-field' }, h('label', { for: 'tg-rules-layer' }, 'Layer'), layerSelect),
        h('div', { class: 'tg-field' }, h('label', { for: 'tg-rules-tool' }, 'Tool'), toolSelect),
        h('div', { class: 'tg-field' }, h('label', { for: 'tg-rules-layer-default' }, 'Layer default (tools without their own)'), layerDefault)),
      this.slots.slot(layer.path, [layerDefault]),
      ...banners,
      h('div', { class: 'tg-tool', dataset: { path: `${layer.path}.tools.${tool}` } },
        h('h3', {}, code(tool), ` in the ${layer.label.toLowerCase()} layer`, hiddenMark(tool)),
        h('div', { class: 'tg-field' }, h('label', { for: 'tg-rules-tool-default' }, `Default for ${visible(tool)}`), toolDefault),
        this.slots.slot(`${layer.path}.tools.${tool}`, [toolDefault]),
        h('div', { class: 'tg-lists' }, lists)),
      layer.editable ? h('div', { class: 'tg-add' },
        h('label', { for: 'tg-rules-new-tool' }, 'Another tool by id (custom or MCP tools)'),
        h('div', { class: 'tg-row' }, newTool, h('button', { type: 'button', class: 'tg-secondary', onclick: addTool }, 'Edit this tool'))) : null,
      overview,
      layer.editable ? this.renderImport(layer) : null,
      h('h3', { class: 'tg-visually-hidden' }, 'Problems in other layers'),
      this.slots.slot('rules', [], { catchAll: true }));
  }

  /**
   * "Bring rules from another agent": the user pastes another agent's settings, the core reads
   * them (`importPolicy`) and reports, per source rule, what it became and how faithfully; the
   * rules can then be added to the layer shown. Nothing changes until "Add" is pressed.
   */
  renderImport(layer) {
    this.ui.importFormat ??= 'claudeCode';
    const format = IMPORT_FORMATS.find(([f]) => f === this.ui.importFormat) ?? IMPORT_FORMATS[0];
    const select = h('select', { id: 'tg-import-format', onchange: (e) => { this.ui.importFormat = e.target.value; this.imported = undefined; this.renderRules(); this.slots.show(this.validation.errors, this.validation.warnings); } },
      IMPORT_FORMATS.map(([f, name]) => h('option', { value: f, selected: f === format[0] }, name)));
    const pasted = h('div', { id: 'tg-import-hidden', 'aria-live': 'polite' });
    const flagPasted = () => put(pasted, hiddenLines(text.value, 'The pasted text'));
    const text = h('textarea', { id: 'tg-import-text', class: 'tg-mono', rows: 5, spellcheck: 'false', placeholder: format[2],
      oninput: (e) => { this.ui.importText = e.target.value; flagPasted(); } });
    text.value = this.ui.importText ?? '';
    flagPasted();
    const read = () => {
      this.imported = importPolicy(format[0], [{ scope: layer.key, text: text.value }], {});
      this.imported.layer = layer.key;
      this.renderRules();
      this.slots.show(this.validation.errors, this.validation.warnings);
      this.root.querySelector('#tg-import-report')?.focus();
    };
    const result = this.imported?.layer === layer.key ? this.imported : undefined;
    return h('div', { class: 'tg-import' },
      h('h3', {}, 'Bring rules from another agent'),
      h('p', { class: 'tg-hint' }, `Paste ${format[2]}. Each rule is translated exactly, or more strictly (it asks or refuses where the other agent would not), or left out with the reason — never more loosely.`),
      h('div', { class: 'tg-toolbar' }, h('div', { class: 'tg-field' }, h('label', { for: 'tg-import-format' }, 'Format'), select)),
      h('label', { for: 'tg-import-text' }, 'Settings text'), text, pasted,
      h('div', { class: 'tg-row' }, h('button', { type: 'button', id: 'tg-import-read', class: 'tg-secondary', onclick: read }, 'Read these rules')),
      result ? this.renderImportReport(layer, result) : null);
  }

  renderImportReport(layer, result) {
    if (!result.ok) {
      return h('div', { id: 'tg-import-report', tabindex: '-1', class: 'tg-import-report' },
        h('ul', { class: 'tg-problems' }, result.errors.map((p) => h('li', { class: 'tg-problem tg-error' },
          `${p.line ? `Line ${p.line}${p.column ? `, column ${p.column}` : ''}: ` : ''}`, marked(p.message, { written: true })))));
    }
    const rows = result.report.map((r) => h('li', { class: `tg-report-${r.translation}` },
      h('span', { class: 'tg-badge' }, TRANSLATION_TEXT[r.translation] ?? r.translation), ' ', code(r.rule, { written: true }), hiddenMark(r.rule),
      r.became.length ? ` → ${r.became.map((b) => `${visible(b.tool)}${b.list ? ` · ${LIST_TEXT[b.list] ?? b.list}` : ' · default'}`).join(', ')}` : '',
      r.why ? h('p', { class: 'tg-hint' }, marked(r.why, { written: true })) : null));
    const count = result.policy.layers.reduce((n, l) => n + Object.values(l.tools ?? {}).reduce((m, t) => m + LISTS.reduce((k, list) => k + (t[list]?.length ?? 0), 0), 0), 0);
    const add = () => {
      for (const imported of result.policy.layers) {
        for (const [tool, rules] of Object.entries(imported.tools ?? {})) {
          for (const list of LISTS) {
            for (const rule of rules[list] ?? []) {
              const target = this.toolRules(layer, tool);
              target[list] ??= [];
              if (!target[list].some((r) => canonical(r) === canonical(rule))) target[list].push(clone(rule));
            }
          }
        }
      }
      this.imported = undefined;
      this.changed({ structural: true, now: true });
      this.setStatus(`Added ${count} imported rule(s) to the ${layer.label.toLowerCase()} layer. Review them, then save.`);
    };
    return h('div', { id: 'tg-import-report', tabindex: '-1', class: 'tg-import-report' },
      h('h4', {}, `What each rule becomes (${result.report.length})`),
      h('ul', { class: 'tg-report' }, rows),
      h('p', { class: 'tg-hint' }, 'Only rules are added; defaults and modes the other agent had are listed above for you to set.'),
      h('button', { type: 'button', id: 'tg-import-add', class: 'tg-primary', disabled: count === 0, onclick: add },
        `Add ${count} rule(s) to the ${layer.label.toLowerCase()} layer`));
  }

  /** The tool's rules in an editable layer, created on first use. */
  toolRules(layer, tool) {
    layer.rules.tools ??= {};
    layer.rules.tools[tool] ??= {};
    return layer.rules.tools[tool];
  }

  /** Drops a tool that has nothing set, so the saved settings stay as small as written. */
  tidyTool(layer, tool) {
    const r = layer.rules.tools?.[tool];
    if (r && !r.defaultMode && LISTS.every((l) => !(r[l]?.length))) delete layer.rules.tools[tool];
  }

  renderRuleList(layer, tool, list, rules) {
    const title = LIST_TEXT[list];
    const items = h('ol', { class: 'tg-rules', id: `tg-rules-${list}` });
    rules.forEach((rule, index) => {
      const path = `${layer.path}.tools.${tool}.${list}[${index}]`;
      const id = `tg-rule-${list}-${index}`;
      // Imported rules may be globs, token prefixes, paths or domains: edited as what they are,
      // keeping every character (a pattern no field can show as it is stays as it is).
      const matcher = matcherOf(rule);
      const text = rule[matcher] ?? '';
      const { control: input, note } = faithfulField({ id, value: text, readOnly: !layer.editable, spellcheck: 'false', autocomplete: 'off',
        onInput: (value) => { rule[matcher] = value; this.changed(); } });
      const caseId = `${id}-case`;
      const caseBox = h('input', { type: 'checkbox', id: caseId, checked: !!rule.caseSensitive, disabled: !layer.editable,
        onchange: (e) => { if (e.target.checked) rule.caseSensitive = true; else delete rule.caseSensitive; this.changed({ now: true }); } });
      const remove = layer.editable ? h('button', { type: 'button', class: 'tg-secondary', 'aria-label': `Remove ${title.toLowerCase()} rule ${index + 1}`,
        onclick: () => {
          rules.splice(index, 1);
          if (!rules.length) delete this.toolRules(layer, tool)[list];
          this.tidyTool(layer, tool);
          this.changed({ structural: true, now: true });
          (this.root.querySelector(`#tg-rule-${list}-${Math.min(index, rules.length - 1)}`) ?? this.root.querySelector(`#tg-add-${list}`))?.focus();
        } }, 'Remove') : null;
      items.append(h('li', { dataset: { path } },
        h('div', { class: 'tg-row' },
          h('label', { for: id, class: 'tg-visually-hidden' }, `${title} pattern ${index + 1}`),
          matcher === 'pattern' ? null : h('span', { class: 'tg-kind', title: `a ${matcher} rule` }, matcher), input, hiddenMark(text),
          matcher === 'pattern' ? h('span', { class: 'tg-choice tg-inline' }, caseBox,
            h('label', { for: caseId }, 'Match case', h('span', { class: 'tg-visually-hidden' }, ` (${title.toLowerCase()} pattern ${index + 1})`))) : null, remove),
        note, this.slots.slot(path, [input], { pattern: () => (input.readOnly ? text : input.value) })));
    });
    const add = layer.editable ? h('button', { type: 'button', id: `tg-add-${list}`, class: 'tg-secondary',
      onclick: () => {
        const target = this.toolRules(layer, tool);
        target[list] ??= [];
        target[list].push({ pattern: '' });
        this.changed({ structural: true });
        this.root.querySelector(`#tg-rule-${list}-${target[list].length - 1}`)?.focus();
      } }, `Add an ${title.toLowerCase()} rule`) : null;
    return h('fieldset', { class: `tg-fieldset tg-list-${list}` }, h('legend', {}, title),
      rules.length ? items : h('p', { class: 'tg-hint' }, 'No rules.'), add);
  }

  // --- Try a call --------------------------------------------------------------------------------

  renderTryControls() {
    const section = this.sections.try;
    const { builtIn, custom } = this.toolNames();
    const kinds = new Map(builtIn.map((t) => [t.tool, t.input.kind]));
    for (const t of custom) kinds.set(t, 'opaque');
    kinds.set(CURSOR_MCP, 'mcpCall');
    if (!kinds.has(this.ui.tryTool)) this.ui.tryTool = builtIn[0]?.tool ?? custom[0] ?? 'terminal';
    const tool = this.ui.tryTool;
    const kind = kinds.get(tool);
    const labels = INPUT_LABELS[kind] ?? ['Input'];
    const values = this.ui.tryInputs[tool] ?? INPUT_EXAMPLES[kind] ?? [''];
    this.ui.tryInputs[tool] = values;

    const select = h('select', { id: 'tg-try-tool', onchange: (e) => { this.ui.tryTool = e.target.value; this.renderTryControls(); this.renderTry(); this.persistDraft(); } },
      h('optgroup', { label: 'Tools (your rules)' }, builtIn.map((t) => h('option', { value: t.tool, selected: t.tool === tool }, this.toolLabel(t.tool)))),
      custom.length ? h('optgroup', { label: 'Other tools' }, custom.map((t) => h('option', { value: t, selected: t === tool }, this.toolLabel(t)))) : null,
      this.shows('mcp') ? h('optgroup', { label: 'MCP' }, h('option', { value: CURSOR_MCP, selected: tool === CURSOR_MCP }, 'MCP tool call (your MCP allowlist)')) : null);
    const inputs = labels.map((label, i) => {
      const id = `tg-try-input-${i}`;
      // What was typed or pasted is tried as it is; when it holds a character the field does not
      // show as it is, it is flagged and written out under the field.
      const flag = h('div', { class: 'tg-try-flag', id: `${id}-hidden`, 'aria-live': 'polite' });
      const showFlag = (text) => put(flag, hasHidden(text) ? [hiddenMark(text), 'Tried as ', code(text)] : []);
      showFlag(values[i] ?? '');
      return h('div', { class: 'tg-field tg-grow' }, h('label', { for: id }, label),
        h('input', { id, class: 'tg-mono', value: values[i] ?? '', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': flag.id,
          oninput: (e) => { values[i] = e.target.value; showFlag(values[i]); this.tryDebouncer.schedule(); } }), flag);
    });
    this.tryDebouncer ??= new Debouncer(VALIDATE_DELAY_MS, () => { this.renderTry(); this.persistDraft(); });
    const layerSelect = tool === CURSOR_MCP ? null : h('div', { class: 'tg-field' },
      h('label', { for: 'tg-try-layer' }, '"Always" buttons write to'),
      h('select', { id: 'tg-try-layer', onchange: (e) => { this.ui.tryLayer = e.target.value; this.renderTry(); } },
        [['user', 'User'], ['project', 'Project']].map(([v, t]) => h('option', { value: v, selected: this.ui.tryLayer === v }, t))));
    this.tryResult = h('div', { id: 'tg-try-result', 'aria-live': 'polite' });
    put(section, 
      h('h2', { id: 'tg-try-title' }, this.words('try', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('try', 'help')),
      h('div', { class: 'tg-toolbar tg-toolbar-top' }, h('div', { class: 'tg-field' }, h('label', { for: 'tg-try-tool' }, 'Tool'), select), ...inputs, layerSelect),
      this.tryResult);
  }

  renderTry() {
    if (!this.tryResult || !this.draft) return;
    const tool = this.ui.tryTool;
    const values = this.ui.tryInputs[tool] ?? [];
    const next = tool === CURSOR_MCP ? this.renderCursorDecision(values) : this.renderDecision(tool, values);
    put(this.tryResult, ...next);
  }

  renderDecision(tool, values) {
    const policy = new Policy(settingsPolicy(this.draft, this.context));
    try {
      const input = values.length > 1 ? values : values[0] ?? '';
      const d = policy.decide(tool, input);
      const options = policy.permissionOptions(tool, input, this.ui.tryLayer ?? 'user');
      const rows = d.items.map((item) => {
        const [verdict, rule] = itemVerdict(item, d);
        return h('tr', { class: `tg-item-${verdict}` },
          h('td', {}, code(item.text), hiddenMark(item.text)),
          h('td', {}, h('span', { class: `tg-outcome tg-outcome-${verdict}` }, ITEM_TEXT[verdict]),
            ...(item.hazards ?? []).map((z) => h('div', { class: 'tg-hint' }, marked(z.why, { written: true })))),
          h('td', {}, rule ? [code(rule.pattern), hiddenMark(rule.pattern), ` (${LIST_TEXT[rule.list] ?? rule.list} #${rule.index + 1})`] : '—'),
          h('td', {}, rule ? visible(rule.layer) : '—'));
      });
      const table = d.items.length ? h('table', { class: 'tg-table', id: 'tg-try-items' },
        h('caption', { class: 'tg-visually-hidden' }, 'Decision per part of the call'),
        h('thead', {}, h('tr', {}, ['Part of the call', 'Verdict', 'Rule', 'Layer'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows)) : null;
      const buttons = options.map((o) => h('button', {
        type: 'button', class: o.change ? 'tg-primary' : 'tg-secondary', dataset: { kind: o.kind },
        onclick: () => this.applyOption(o),
      }, marked(o.label, { written: true })));
      return [
        h('p', { class: `tg-verdict tg-outcome-${d.outcome}`, id: 'tg-try-verdict', tabindex: '-1' }, OUTCOME_TEXT[d.outcome]),
        h('p', { id: 'tg-try-message' }, marked(d.message, { written: true })),
        d.rule ? h('p', { class: 'tg-hint', id: 'tg-try-rule' }, 'Decided by ', code(d.rule.pattern), hiddenMark(d.rule.pattern), ` — ${LIST_TEXT[d.rule.list] ?? d.rule.list} #${d.rule.index + 1} of `, code(d.rule.tool), ` in the ${visible(d.rule.layer)} layer`) : null,
        d.protectedPath ? h('p', { class: 'tg-hint', id: 'tg-try-protected' }, 'Protected path ', code(d.protectedPath.entry),
          ` (${d.protectedPath.layer ? `added by the ${visible(d.protectedPath.layer)} layer` : 'built in'})${d.protectedPath.source ? ` — source: ${visible(d.protectedPath.source)}` : ''}. No rule or mode lifts it.`) : null,
        d.defaultSource ? h('p', { class: 'tg-hint' }, `Decided by the ${d.defaultSource.scope === 'tool' ? 'tool\'s' : 'global'} default${d.defaultSource.layer ? ` of the ${visible(d.defaultSource.layer)} layer` : ''}.`) : null,
        d.cannotVouch ? h('p', { class: 'tg-hint' }, 'Allow rules are off for this line: ', marked(d.cannotVouch, { written: true })) : null,
        ...(d.ignored ?? []).map((i) => h('p', { class: 'tg-hint' }, marked(i.message, { written: true }))),
        table,
        buttons.length ? h('div', { class: 'tg-buttons', role: 'group', 'aria-label': 'Permission options', id: 'tg-try-options' }, buttons) : null,
        this.optionNote ? h('p', { class: 'tg-hint', id: 'tg-try-note' }, marked(this.optionNote, { written: true })) : null,
      ];
    } finally {
      policy.free();
    }
  }

  applyOption(option) {
    if (!option.change) {
      this.optionNote = option.kind === 'allowOnce' ? 'Allowed once: nothing is saved.' : 'Denied once: nothing is saved.';
      this.renderTry();
      return;
    }
    const answer = applySettingsChange(this.draft, option.change);
    if (!answer.ok) {
      this.optionNote = answer.errors.map((e) => e.message).join('; ');
      this.renderTry();
      return;
    }
    this.draft = answer.settings;
    this.optionNote = `${option.label}: added to the ${visible(option.change.layer)} layer's rules for ${visible(option.change.tool)} (not saved yet).`;
    this.ui.layer = option.change.layer;
    this.ui.tool = option.change.tool;
    this.changed({ structural: true, now: true });
    this.root.querySelector('#tg-try-verdict')?.focus();
  }

  renderCursorDecision([server = '', tool = '']) {
    const d = decideMcp(server, tool, settingsMcp(this.draft, this.context), this.draft.mcp.mode);
    const outcome = d.needApproval ? 'confirm' : 'allow';
    const buttons = d.candidatesForAllowlist.map((c) => h('button', { type: 'button', class: 'tg-primary', dataset: { kind: 'addToAllowlist' },
      onclick: () => {
        const added = addToAllowlist(this.draft.mcp.mcpAllowedTools, c.server, c.tool);
        this.optionNote = added.message ?? `Added ${visible(added.entry)} to your allowlist (not saved yet).`;
        this.draft.mcp.mcpAllowedTools = added.list;
        this.changed({ structural: true, now: true });
      } }, `Add ${visible(c.server)}:${visible(c.tool)} to the allowlist`));
    return [
      h('p', { class: `tg-verdict tg-outcome-${outcome}`, id: 'tg-try-verdict', tabindex: '-1' }, OUTCOME_TEXT[outcome]),
      h('p', { id: 'tg-try-message' }, marked(d.message, { written: true })),
      d.matched ? h('p', { class: 'tg-hint', id: 'tg-try-rule' }, `Allowed by the ${d.matched.list === 'admin' ? 'administrator\'s' : 'your'} entry `, code(d.matched.entry), ` (#${d.matched.index + 1}).`) : null,
      buttons.length ? h('div', { class: 'tg-buttons', role: 'group', 'aria-label': 'Permission options', id: 'tg-try-options' }, buttons) : null,
      this.optionNote ? h('p', { class: 'tg-hint', id: 'tg-try-note' }, marked(this.optionNote, { written: true })) : null,
    ];
  }

  // --- Per-mode MCP restrictions (Roo) -------------------------------------------------------

  renderRoo() {
    const section = this.sections.roo;
    this.slots.clear('roo');
    const modes = this.draft.roo.modes;
    const index = Math.min(this.ui.mode ?? 0, Math.max(modes.length - 1, 0));
    this.ui.mode = index;
    const mode = modes[index];
    const servers = this.context.catalogue?.servers ?? [];

    const addMode = h('button', { type: 'button', id: 'tg-roo-add-mode', class: 'tg-secondary', onclick: () => {
      let n = modes.length + 1;
      while (modes.some((m) => m.slug === `mode-${n}`)) n += 1;
      modes.push({ slug: `mode-${n}`, mcpRestrictions: {} });
      this.ui.mode = modes.length - 1;
      this.changed({ structural: true, now: true });
      this.root.querySelector('#tg-roo-slug')?.focus();
    } }, 'Add a mode');
    const header = [
      h('h2', { id: 'tg-roo-title' }, this.words('roo', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('roo', 'help')),
    ];
    if (!mode) {
      put(section, ...header, h('p', { class: 'tg-hint' }, 'No modes with restrictions yet.'), addMode, this.slots.slot('roo', [], { catchAll: true }));
      return;
    }
    const path = `roo.modes[${index}]`;
    // Read without writing: drawing the page must not change the draft.
    const r = mode.mcpRestrictions ?? {};
    const modeSelect = h('select', { id: 'tg-roo-mode', onchange: (e) => { this.ui.mode = Number(e.target.value); this.renderRoo(); this.renderPreviews(); this.slots.show(this.validation.errors, this.validation.warnings); } },
      modes.map((m, i) => h('option', { value: String(i), selected: i === index }, m.slug ? visible(m.slug) : `(mode ${i + 1} has no slug)`)));
    const { control: slug, note: slugNote } = faithfulField({ id: 'tg-roo-slug', value: mode.slug, lines: false, spellcheck: 'false',
      onInput: (text) => { mode.slug = text; this.changed(); } });
    const removeMode = h('button', { type: 'button', class: 'tg-secondary', onclick: () => {
      modes.splice(index, 1);
      this.ui.mode = Math.max(0, index - 1);
      this.changed({ structural: true, now: true });
      this.root.querySelector('#tg-roo-mode, #tg-roo-add-mode')?.focus();
    } }, 'Remove this mode');

    const toggle = (key, value, on, same = (a, b) => a === b) => {
      const list = r[key] ?? [];
      const rest = list.filter((x) => !same(x, value));
      const next = on ? [...rest, value] : rest;
      if (next.length) r[key] = next;
      else delete r[key];
      mode.mcpRestrictions = r;
      this.changed({ structural: true, now: true });
    };
    const stableId = (...parts) => `tg-roo-${parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.codePointAt(0).toString(16)}`)).join('--')}`;
    const sameTool = (a, b) => a.serverName === b.serverName && a.toolName === b.toolName;
    const rows = [];
    const names = new Set(servers.map((s) => s.name));
    const extraServers = [...(r.allowedServers ?? []), ...(r.disallowedServers ?? []),
      ...(r.allowedTools ?? []).map((t) => t.serverName), ...(r.disallowedTools ?? []).map((t) => t.serverName)]
      .filter((n) => !names.has(n));
    const all = [...servers, ...[...new Set(extraServers)].map((name) => ({ name, unknown: true, tools: [] }))];
    for (const server of all) {
      const tools = [...(server.tools ?? [])];
      for (const t of [...(r.allowedTools ?? []), ...(r.disallowedTools ?? [])]) {
        if (t.serverName === server.name && !tools.some((x) => x.name === t.toolName)) tools.push({ name: t.toolName, unknown: true });
      }
      // A row's problems go in a row of their own below it, across the table.
      const problemRow = (slots) => (slots.length ? h('tr', { class: 'tg-problem-row' }, h('td', { colspan: '4' }, slots)) : null);
      const serverSlots = [];
      const serverCells = ['allowedServers', 'disallowedServers'].map((key) => {
        const id = stableId(key, server.name);
        const listIndex = (r[key] ?? []).indexOf(server.name);
        const box = h('input', { type: 'checkbox', id, checked: listIndex >= 0,
          onchange: (e) => toggle(key, server.name, e.target.checked) });
        const cell = h('td', {}, box, h('label', { for: id, class: 'tg-visually-hidden' }, `${key === 'allowedServers' ? 'Allow' : 'Disallow'} server ${visible(server.name)}`));
        if (listIndex >= 0) serverSlots.push(this.slots.slot(`${path}.mcpRestrictions.${key}[${listIndex}]`, [box]));
        return cell;
      });
      rows.push(h('tr', { class: 'tg-server-row', dataset: { server: server.name } },
        h('th', { scope: 'row' }, code(server.name), hiddenMark(server.name), server.unknown ? h('span', { class: 'tg-pill tg-pill-warning' }, 'not in the catalogue') : ''),
        h('td', {}, server.unknown ? '—' : server.defaultEnabled === false ? h('span', { class: 'tg-pill' }, 'off by default') : h('span', { class: 'tg-pill tg-pill-on' }, 'on by default')),
        ...serverCells), problemRow(serverSlots));
      for (const tool of tools) {
        const ref = { serverName: server.name, toolName: tool.name };
        const toolSlots = [];
        const toolCells = ['allowedTools', 'disallowedTools'].map((key) => {
          const id = stableId(key, server.name, tool.name);
          const listIndex = (r[key] ?? []).findIndex((t) => sameTool(t, ref));
          const box = h('input', { type: 'checkbox', id, checked: listIndex >= 0, onchange: (e) => toggle(key, ref, e.target.checked, sameTool) });
          const cell = h('td', {}, box, h('label', { for: id, class: 'tg-visually-hidden' }, `${key === 'allowedTools' ? 'Allow' : 'Disallow'} tool ${visible(tool.name)} of ${visible(server.name)}`));
          if (listIndex >= 0) toolSlots.push(this.slots.slot(`${path}.mcpRestrictions.${key}[${listIndex}]`, [box]));
          return cell;
        });
        rows.push(h('tr', { class: 'tg-tool-row' },
          h('th', { scope: 'row', class: 'tg-indent' }, code(tool.name), hiddenMark(tool.name), tool.unknown ? h('span', { class: 'tg-pill tg-pill-warning' }, 'not in the catalogue') : ''),
          h('td', {}, ''), ...toolCells), problemRow(toolSlots));
      }
    }
    const table = h('table', { class: 'tg-table', id: 'tg-roo-table' },
      h('caption', {}, 'Servers and tools from the host\'s MCP catalogue'),
      h('thead', {}, h('tr', {}, ['Server / tool', 'Default', 'Allowed', 'Disallowed'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.filter(Boolean)));

    // Names the catalogue does not list (a server not connected right now) can be added by hand.
    const byName = h('input', { id: 'tg-roo-name', class: 'tg-mono', placeholder: 'server or server/tool', spellcheck: 'false' });
    const which = h('select', { id: 'tg-roo-name-list' }, h('option', { value: 'allowed' }, 'Allow'), h('option', { value: 'disallowed' }, 'Disallow'));
    const addName = () => {
      const text = byName.value.trim();
      if (!text) return;
      const cut = text.indexOf('/');
      if (cut > 0) toggle(`${which.value}Tools`, { serverName: text.slice(0, cut), toolName: text.slice(cut + 1) }, true, sameTool);
      else toggle(`${which.value}Servers`, text, true);
      this.root.querySelector('#tg-roo-name')?.focus();
    };
    byName.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); addName(); } });

    this.rooPreview = h('div', { id: 'tg-roo-preview', 'aria-live': 'polite' });
    put(section, ...header,
      h('div', { class: 'tg-toolbar' },
        h('div', { class: 'tg-field' }, h('label', { for: 'tg-roo-mode' }, 'Mode'), modeSelect),
        h('div', { class: 'tg-field' }, h('label', { for: 'tg-roo-slug' }, 'Slug'), h('div', { class: 'tg-row' }, slug, hiddenMark(mode.slug))), addMode, removeMode),
      slugNote, this.slots.slot(`${path}.slug`, [slug]),
      table,
      this.slots.slot(path),
      h('div', { class: 'tg-add' }, h('label', { for: 'tg-roo-name' }, 'A server or tool by name'),
        h('div', { class: 'tg-row' }, byName, h('label', { for: 'tg-roo-name-list', class: 'tg-visually-hidden' }, 'List'), which,
          h('button', { type: 'button', class: 'tg-secondary', onclick: addName }, 'Add'))),
      h('h3', {}, 'What the mode\'s prompt will describe'), this.rooPreview,
      this.slots.slot('roo', [], { catchAll: true }));
    this.renderPreviews();
  }

  // --- The agent's session: grants, proposals, recent decisions -------------------------------

  renderActivity() {
    if (!this.activity) return;
    if (this.shows('grants')) this.renderGrants();
    if (this.shows('proposals')) this.renderProposals();
    if (this.shows('log')) this.renderLog();
  }

  /** When a grant stops, in words: "for this session", "until 14:05", "always". */
  grantScope(g) {
    if (g.scope === 'timed' && g.expiresAt !== undefined) {
      return `until ${new Date(g.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
    }
    return SCOPE_TEXT[g.scope] ?? g.scope;
  }

  renderGrants() {
    const { grants, problems } = this.activity;
    // A grant's display quotes its rules in backticks (`npm test`, `src/`): shown as code here,
    // written out (the core writes it out; a host may not have); flagged by what it allows.
    const plain = (g) => visible(g.display.replaceAll('`', ''));
    const allows = (g) => [g.tool, g.display, ...(g.rules ?? []).map((r) => String(r[matcherOf(r)] ?? ''))];
    const rows = grants.map((g) => h('tr', { 'data-grant': g.id },
      h('td', {}, code(plain(g), { written: true }), hiddenMark(allows(g))),
      h('td', {}, this.toolLabel(g.tool)),
      h('td', {}, this.grantScope(g)),
      h('td', {}, h('button', { type: 'button', class: 'tg-secondary', 'aria-label': `Revoke ${plain(g)} for ${this.toolLabel(g.tool)}`,
        onclick: (e) => { e.target.disabled = true; this.setStatus(`Revoking ${plain(g)}…`); this.link.post({ type: 'revoke', id: g.id }); } }, 'Revoke'))));
    put(this.sections.grants,
      h('h2', { id: 'tg-grants-title' }, this.words('grants', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('grants', 'help')),
      ...problems.map((p) => renderProblem(p, {})),
      grants.length
        ? h('table', { class: 'tg-table tg-activity-table', id: 'tg-grants-table' },
          h('thead', {}, h('tr', {}, ['Allowed', 'Tool', 'For how long', h('span', { class: 'tg-sr-only' }, 'Revoke')].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows))
        : h('p', { class: 'tg-hint', id: 'tg-grants-none' }, 'Nothing allowed beyond your rules.'));
  }

  /** Adds a proposal's rule to the user's rules in the draft (saved with the rest). */
  addProposal(p) {
    if (p.rule.pattern !== undefined) {
      const tools = (this.draft.rules.user.tools ??= {});
      const rules = (tools[p.tool] ??= {});
      rules.alwaysAllow = [...(rules.alwaysAllow ?? []), { pattern: p.rule.pattern }];
    } else if (p.rule.mcp !== undefined) {
      this.draft.mcp.mcpAllowedTools = [...this.draft.mcp.mcpAllowedTools, p.rule.mcp];
    }
    this.changed({ structural: true, now: true });
    this.renderProposals();
    this.setStatus(`Added ${visible(p.display)} to your rules: save to keep it.`);
  }

  /** Whether the draft already has a proposal's rule. */
  hasProposal(p) {
    if (p.rule.pattern !== undefined) return (this.draft?.rules.user.tools?.[p.tool]?.alwaysAllow ?? []).some((r) => r.pattern === p.rule.pattern);
    if (p.rule.mcp !== undefined) return (this.draft?.mcp.mcpAllowedTools ?? []).includes(p.rule.mcp);
    return true;
  }

  renderProposals() {
    const proposals = this.activity.proposals.filter((p) => p.rule.pattern !== undefined || p.rule.mcp !== undefined);
    const items = proposals.map((p, i) => {
      const added = this.hasProposal(p);
      return h('li', { class: 'tg-proposal' },
        h('p', {}, 'You approved ', code(p.display, { written: true }), ` (${this.toolLabel(p.tool)}) ${p.covers.length} time${p.covers.length === 1 ? '' : 's'}: a rule would have saved ${p.saves} prompt${p.saves === 1 ? '' : 's'}.`),
        h('p', { class: 'tg-hint' }, 'Rule: ', code(p.rule.pattern ?? p.rule.mcp), hiddenMark(p.display, p.rule.pattern ?? p.rule.mcp)),
        h('button', { type: 'button', id: `tg-proposal-${i}`, class: 'tg-secondary', disabled: added || !this.draft,
          'aria-label': added ? `In your rules: ${visible(p.display)}` : `Add to your rules: ${visible(p.display)}`, onclick: () => this.addProposal(p) }, added ? 'In your rules' : 'Add to your rules'));
    });
    put(this.sections.proposals,
      h('h2', { id: 'tg-proposals-title' }, this.words('proposals', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('proposals', 'help')),
      items.length ? h('ul', { class: 'tg-proposals', id: 'tg-proposals-list' }, items) : h('p', { class: 'tg-hint' }, 'No suggestion yet: they come from calls you approved more than once.'));
  }

  renderLog() {
    const { log } = this.activity;
    const answers = new Map(log.filter((r) => r.event === 'answer').map((r) => [`${r.session}:${r.callId}`, r]));
    const decisions = log.filter((r) => r.event === 'decision').reverse();
    const tools = [...new Set(decisions.map((r) => r.tool))].sort();
    const { outcome, tool } = this.logFilter;
    const shown = decisions.filter((r) => (!outcome || r.outcome === outcome) && (!tool || r.tool === tool));
    const happened = (r) => {
      if (r.outcome !== 'confirm') return OUTCOME_TEXT[r.outcome];
      const a = answers.get(`${r.session}:${r.callId}`);
      if (!a) return 'Asked; not answered';
      const who = a.by === 'reviewer' ? 'the reviewer' : 'you';
      return a.outcome === 'allow' ? `Asked; ${who} allowed it${a.scope && a.scope !== 'once' ? ` (${ANSWER_SCOPE_TEXT[a.scope] ?? a.scope})` : ''}` : `Asked; ${who} refused it`;
    };
    const filter = (id, label, value, options, key) => h('div', { class: 'tg-field' }, h('label', { for: id }, label),
      h('select', { id, onchange: (e) => { this.logFilter[key] = e.target.value; this.renderLog(); document.getElementById(id)?.focus(); } },
        options.map(([v, text]) => h('option', { value: v, selected: value === v }, text))));
    put(this.sections.log,
      h('h2', { id: 'tg-log-title' }, this.words('log', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('log', 'help')),
      h('div', { class: 'tg-toolbar' },
        filter('tg-log-outcome', 'Outcome', outcome, [['', 'All'], ['allow', OUTCOME_TEXT.allow], ['confirm', OUTCOME_TEXT.confirm], ['deny', OUTCOME_TEXT.deny]], 'outcome'),
        filter('tg-log-tool', 'Tool', tool, [['', 'All'], ...tools.map((t) => [t, this.toolLabel(t)])], 'tool')),
      shown.length
        ? h('table', { class: 'tg-table tg-activity-table', id: 'tg-log-table' },
          h('thead', {}, h('tr', {}, ['Tool', 'Call', 'What happened'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, shown.map((r) => h('tr', { 'data-outcome': r.outcome },
            h('td', {}, this.toolLabel(r.tool)), h('td', {}, code((r.inputs ?? []).join(' ')), hiddenMark(r.inputs ?? [])), h('td', {}, happened(r))))))
        : h('p', { class: 'tg-hint' }, decisions.length ? 'No decision matches these filters.' : 'No decision yet.'));
  }

  // --- Gasoline ------------------------------------------------------------------------------

  renderGasoline() {
    const section = this.sections.gasoline;
    this.slots.clear('gasoline');
    const gutter = h('pre', { class: 'tg-gutter', 'aria-hidden': 'true' });
    // A text area shows line breaks as they are and nothing else that hides or reorders text: a
    // YAML holding any other is shown with it written out, read-only (an edit would change it unseen).
    const yaml = this.draft.gasoline.yaml;
    const hidden = hiddenLines(yaml, 'The YAML', ['U+000A']);
    const area = h('textarea', { id: 'tg-gasoline-yaml', class: 'tg-mono', rows: 9, spellcheck: 'false', wrap: 'off',
      value: hidden ? yaml.split('\n').map(visible).join('\n') : yaml, readOnly: !!hidden,
      'aria-describedby': hidden ? 'tg-gasoline-hidden' : undefined,
      oninput: (e) => { this.draft.gasoline.yaml = e.target.value; numberLines(); this.changed(); },
      onscroll: () => { gutter.scrollTop = area.scrollTop; } });
    let badLines = new Set();
    const numberLines = () => {
      const count = Math.max(1, area.value.split('\n').length);
      put(gutter, ...Array.from({ length: count }, (_, i) =>
        h('span', { class: badLines.has(i + 1) ? 'tg-bad-line' : '' }, `${badLines.has(i + 1) ? '▶ ' : ''}${i + 1}`)));
      // After the next layout: reading scrollTop now would force one in the middle of rendering.
      requestAnimationFrame(() => { gutter.scrollTop = area.scrollTop; });
    };
    numberLines();
    const goTo = (line, column) => {
      const lines = area.value.split('\n');
      const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, column - 1);
      area.focus();
      area.setSelectionRange(offset, Math.min(offset + 1, area.value.length));
    };
    const slot = this.slots.slot('gasoline.yaml', [area], { goTo, onShow: (problems) => { badLines = new Set(problems.map((p) => p.line).filter(Boolean)); numberLines(); } });
    this.gasolineSummary = h('div', { id: 'tg-gasoline-summary', 'aria-live': 'polite' });
    put(section, 
      h('h2', { id: 'tg-gasoline-title' }, this.words('gasoline', 'heading')),
      h('p', { class: 'tg-hint' }, this.words('gasoline', 'help')),
      h('label', { for: 'tg-gasoline-yaml' }, 'allowlist.yaml'),
      h('div', { class: 'tg-editor' }, gutter, area),
      hidden ? h('div', { id: 'tg-gasoline-hidden' }, hidden, h('p', { class: 'tg-hint' },
        'It is shown written out and cannot be edited here without changing it unseen: change allowlist.yaml where the settings are stored.')) : null,
      slot, this.gasolineSummary);
  }

  renderPreviews() {
    if (!this.draft) return;
    const preview = settingsPreview(this.draft, this.context);
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

const ITEM_TEXT = { allow: 'allowed', confirm: 'asks', deny: 'refused', none: 'not covered' };

/** A part of the call: covered by an allow rule, matched by the deciding rule, or neither. */
function itemVerdict(item, d) {
  // An allow rule covered it, but writing a protected path asks all the same.
  if (d.protectedPath && d.matchedInput === item.text) return ['confirm', undefined];
  if (item.allowedBy) return ['allow', item.allowedBy];
  if (d.rule && d.matchedInput === item.text && d.rule.list !== 'alwaysAllow') return [d.outcome, d.rule];
  return ['none', undefined];
}

function setOrDelete(object, key, value) {
  if (value) object[key] = value;
  else delete object[key];
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
  await loadCore();
  const page = new SettingsPage(root, { storageKey: options.storageKey ?? root.dataset.storageKey ?? 'toolgate.settingsPage.draft', vscodeApi: options.vscodeApi,
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
