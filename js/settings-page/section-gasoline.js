// The settings page's Gasoline section: the MCP server's allowlist.yaml in a text area with line
// numbers, its errors at their line. Methods of the page.
import { h, hiddenLines, put } from './dom.js';
import { visible } from './visible.js';

export class GasolineSection {
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
}
