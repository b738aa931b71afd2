// The settings page's frame: the heading, the save bar with the status line and the summary, the
// banners, the links and the sections in the embedder's order (their words and tool names), and the
// previews the core makes of the draft. Methods of the page.
import { code, h, hiddenMark, marked, put } from './dom.js';
import { visible } from './visible.js';
import { ACTIVITY_SECTIONS, DEFAULT_SECTIONS, DEFAULT_WORDS, SECTION_IDS } from './words.js';

export class ShellSection {
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
