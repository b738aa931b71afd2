// The settings page's "Try a call" section: a call typed in, decided with the draft as the
// extension would decide it, per sub-command, with the permission buttons that change the draft.
// Its inputs are drawn at once; the decision when the core's decider is loaded, which it is when
// the section is first used (focused, clicked or typed in). Methods of the page.
import { canonical, code, h, hiddenMark, marked, put } from './dom.js';
import { LIST_TEXT, OUTCOME_TEXT, VALIDATE_DELAY_MS } from './words.js';
import { hasHidden, visible } from './visible.js';

const CURSOR_MCP = '__cursor_mcp__';
const INPUT_LABELS = {
  command: ['Command'], path: ['Path'], pathPair: ['Source path', 'Destination path'], url: ['URL'],
  query: ['Query'], mcpCall: ['Server', 'Tool'], opaque: ['Input'],
};
const INPUT_EXAMPLES = {
  command: ['cargo build --release && git push'], path: ['src/../.env'], pathPair: ['src/a.rs', 'src/b.rs'],
  url: ['https://github.com/rust-lang/rust'], query: ['TODO'], mcpCall: ['github', 'create_issue'], opaque: [''],
};
const ITEM_TEXT = { allow: 'allowed', confirm: 'asks', deny: 'refused', none: 'not covered' };

/** A part of the call: covered by an allow rule, matched by the deciding rule, or neither. */
function itemVerdict(item, d) {
  // An allow rule covered it, but writing a protected path asks all the same.
  if (d.protectedPath && d.matchedInput === item.text) return ['confirm', undefined];
  if (item.allowedBy) return ['allow', item.allowedBy];
  if (d.rule && d.matchedInput === item.text && d.rule.list !== 'alwaysAllow') return [d.outcome, d.rule];
  return ['none', undefined];
}

export class TrySection {
  renderTryControls() {
    const section = this.sections.try;
    const { builtIn, custom, known } = this.toolNames();
    const kinds = new Map(builtIn.map((t) => [t.tool, t.input.kind]));
    for (const t of custom) kinds.set(t, 'opaque');
    kinds.set(CURSOR_MCP, 'mcpCall');
    this.ui.tryKinds ??= {};
    if (known) {
      if (!kinds.has(this.ui.tryTool)) this.ui.tryTool = builtIn[0]?.tool ?? custom[0] ?? 'terminal';
      // Kept with the draft: the inputs are drawn as they will be before the catalogue is here again.
      for (const [name, k] of kinds) if (name !== CURSOR_MCP && k !== 'opaque') this.ui.tryKinds[name] = k;
    }
    const tool = this.ui.tryTool;
    // Before the catalogue: the kind last seen, else the default tool's (a command line), else any input.
    const kind = known || tool === CURSOR_MCP ? kinds.get(tool) : this.ui.tryKinds[tool] ?? (tool === 'terminal' ? 'command' : 'opaque');
    const labels = INPUT_LABELS[kind] ?? ['Input'];
    const values = this.ui.tryInputs[tool] ?? [...(INPUT_EXAMPLES[kind] ?? [''])];
    if (known || tool in this.ui.tryInputs) this.ui.tryInputs[tool] = values;

    const options = (names) => names.map((t) => h('option', { value: t, selected: t === tool }, this.toolLabel(t)));
    const select = h('select', { id: 'tg-try-tool', onchange: (e) => { this.ui.tryTool = e.target.value; this.renderTryControls(); this.renderTry(); this.persistDraft(); } },
      known
        ? h('optgroup', { label: 'Tools (your rules)' }, options(builtIn.map((t) => t.tool)))
        : h('optgroup', { label: 'Tools (your rules)' }, options(tool === CURSOR_MCP || custom.includes(tool) ? custom : [tool, ...custom])),
      known && custom.length ? h('optgroup', { label: 'Other tools' }, options(custom)) : null,
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
          oninput: (e) => { values[i] = e.target.value; this.ui.tryInputs[tool] = values; showFlag(values[i]); this.tryDebouncer.schedule(); } }), flag);
    });
    this.tryDebouncer ??= new this.glue.Debouncer(VALIDATE_DELAY_MS, () => { this.renderTry(); this.persistDraft(); });
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
    // A call is decided by the decider, over the policy (or MCP settings) it makes of the draft.
    if (!this.checker || !this.decider) {
      const text = this.deciderLoading || !this.checker ? 'The decision shows here once the checks are loaded.' : 'The decision shows here when you try a call: change the call or pick a tool.';
      if (this.deciderLoading || !this.checker) this.tryResult.setAttribute('aria-busy', 'true');
      else this.tryResult.removeAttribute('aria-busy');
      this.tryResult.decided = undefined;
      const pending = this.tryResult.querySelector('#tg-try-pending');
      if (!pending) put(this.tryResult, h('p', { class: 'tg-hint tg-pending', id: 'tg-try-pending' }, text));
      else if (pending.textContent !== text) pending.textContent = text;
      return;
    }
    this.tryResult.removeAttribute('aria-busy');
    // Decided again only when something it depends on changed: a check or a module arriving does
    // not redraw (and re-announce) the same decision.
    const key = canonical([tool, values, this.ui.tryLayer, this.draft, this.context, this.optionNote ?? null]);
    if (key === this.tryResult.decided) return;
    const next = tool === CURSOR_MCP ? this.renderCursorDecision(values) : this.renderDecision(tool, values);
    put(this.tryResult, ...next);
    this.tryResult.decided = key;
    // The call shown, written out, for an embedder's tests to wait on.
    this.tryResult.dataset.call = visible(JSON.stringify([tool, values]));
  }

  renderDecision(tool, values) {
    const policy = new this.decider.Policy(this.decider.settingsPolicy(this.draft, this.context));
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
    const answer = this.decider.applySettingsChange(this.draft, option.change);
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
    const { addToAllowlist } = this.checker;
    const { decideMcp, settingsMcp } = this.decider;
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
}
