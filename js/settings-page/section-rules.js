// The settings page's terminal and tool rules section (Zed's model): a layer and a tool picked,
// its default and its allow / confirm / deny rules, edited as what they are. Methods of the page.
import { code, faithfulField, h, hiddenMark, put, setOrDelete } from './dom.js';
import { LISTS, LIST_TEXT, matcherOf } from './words.js';
import { visible } from './visible.js';

export class RulesSection {
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

  /**
   * The tools to offer: `builtIn`, the catalogue's (entries with their input's kind), and `custom`,
   * the other names. Before the validator brings the catalogue (`known: false`): the embedder's
   * tools and those the draft has rules for, all as `custom`.
   */
  toolNames() {
    if (!this.checker) {
      const names = new Set(this.page.tools?.map((t) => t.name));
      const drafted = new Set();
      for (const layer of this.layers()) for (const tool of Object.keys(layer.rules.tools ?? {})) drafted.add(tool);
      return { builtIn: [], custom: [...names, ...[...drafted].filter((t) => !names.has(t)).sort()], known: false };
    }
    const catalogue = this.checker.settingsTools(this.context);
    // The embedder's tools, in their order; the catalogue's when they name none.
    const builtIn = this.page.tools ? this.page.tools.map((t) => catalogue.find((c) => c.tool === t.name)).filter(Boolean) : catalogue;
    const custom = new Set(this.page.tools?.map((t) => t.name).filter((name) => !builtIn.some((c) => c.tool === name)));
    for (const layer of this.layers()) for (const tool of Object.keys(layer.rules.tools ?? {})) custom.add(tool);
    for (const t of builtIn) custom.delete(t.tool);
    return { builtIn, custom: [...custom].sort(), known: true };
  }

  renderRules() {
    const section = this.sections.rules;
    this.slots.clear('rules', 'context.admin.managed');
    const layers = this.layers();
    const layer = layers.find((l) => l.key === this.ui.layer) ?? layers[0];
    this.ui.layer = layer.key;
    const { builtIn, custom, known } = this.toolNames();
    if (this.page.tools && ![...builtIn.map((t) => t.tool), ...custom].includes(this.ui.tool)) this.ui.tool = builtIn[0]?.tool ?? custom[0] ?? this.ui.tool;
    const tool = this.ui.tool;
    const rules = layer.rules.tools?.[tool] ?? {};

    const layerSelect = h('select', { id: 'tg-rules-layer', onchange: (e) => { this.ui.layer = e.target.value; this.renderRules(); this.slots.show(this.validation.errors, this.validation.warnings); } },
      layers.map((l) => h('option', { value: l.key, selected: l.key === layer.key }, l.label)));
    const toolSelect = h('select', { id: 'tg-rules-tool', onchange: (e) => { this.ui.tool = e.target.value; this.renderRules(); this.slots.show(this.validation.errors, this.validation.warnings); } },
      // Before the catalogue: the tools known so far, in one group (the catalogue's join them when it is here).
      known ? h('optgroup', { label: 'Built-in tools' }, builtIn.map((t) => h('option', { value: t.tool, selected: t.tool === tool }, this.toolLabel(t.tool)))) : null,
      custom.length ? h('optgroup', { label: known ? 'Other tools' : 'Tools' }, custom.map((t) => h('option', { value: t, selected: t === tool }, this.toolLabel(t)))) : null);
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
}
