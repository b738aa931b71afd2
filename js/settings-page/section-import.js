// "Bring rules from another agent", in the rules section: pasted settings of another agent read by
// the core (`importPolicy`, of the core's tools: loaded only when the import is used), a report
// per source rule, and its rules added on request. Methods of the page.
import { canonical, clone, code, h, hiddenLines, hiddenMark, marked, put } from './dom.js';
import { LISTS, LIST_TEXT } from './words.js';
import { visible } from './visible.js';
import { loadTools } from './core.js';

/** The formats `importPolicy` reads, with the file a user would paste. */
const IMPORT_FORMATS = [
  ['claudeCode', 'Claude Code', 'settings.json with "permissions": { "allow": [...], "ask": [...], "deny": [...] }'],
  ['codex', 'Codex', 'a .rules file of prefix_rule(pattern=[...], decision=...)'],
  ['vscode', 'VS Code Copilot', 'settings.json with "chat.tools.terminal.autoApprove"'],
  ['cursorCli', 'Cursor CLI', 'cli-config.json with "permissions": { "allow": [...], "deny": [...] }'],
  ['cursorEditor', 'Cursor editor', 'permissions.json with "mcpAllowlist" and "terminalAllowlist"'],
  ['geminiCli', 'Gemini CLI', 'a policy .toml of [[rule]] tables, or settings.json with "tools": { "allowed": [...] }'],
];
const TRANSLATION_TEXT = { exact: 'Exact', stricter: 'Stricter', impossible: 'Not imported' };

export class ImportSection {
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
    // The core's tools are loaded when the import is first used (focus in it), read with when asked.
    const tools = () => {
      this.toolsLoading ??= loadTools().then((loaded) => { this.tools = loaded; return loaded; }, (e) => {
        this.toolsLoading = undefined;
        throw e;
      });
      return this.toolsLoading;
    };
    const read = async () => {
      let importPolicy;
      try {
        ({ importPolicy } = this.tools ?? await tools());
      } catch (e) {
        this.onCoreFailed('Reading another agent\'s rules', e);
        return;
      }
      this.imported = importPolicy(format[0], [{ scope: layer.key, text: text.value }], {});
      this.imported.layer = layer.key;
      this.renderRules();
      this.slots.show(this.validation.errors, this.validation.warnings);
      this.root.querySelector('#tg-import-report')?.focus();
    };
    const result = this.imported?.layer === layer.key ? this.imported : undefined;
    return h('div', { class: 'tg-import', onfocusin: () => { if (!this.tools) tools().catch(() => {}); } },
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

}
