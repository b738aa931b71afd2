// The settings page's MCP allowlist section (Cursor's model): the auto-run mode, the protections,
// the user's allowlist entries (each checked by the core's entry parser), the administrator's list.
// Methods of the page (settings-page.js mixes them in).
import { canonical, code, faithfulField, h, hiddenMark, marked, nextId, put } from './dom.js';
import { renderProblem } from './problems.js';
import { visible } from './visible.js';
import { loadValidator } from './core.js';

const MODE_TEXT = [
  ['ask_every_time', 'Ask every time', 'Every MCP call asks; the allowlist is not consulted.'],
  ['yolo', 'Use the allowlist', 'Calls your allowlist names run; others ask.'],
  ['full_yolo', 'Run everything', 'Every MCP call runs, unless an administrator controls auto-run.'],
];

export class McpSection {
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
      oninput: (e) => { this.ui.newEntry = e.target.value; this.addResult = undefined; this.validateLater.schedule(); },
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

  /** The new-entry field, checked as typed by the core's entry parser (once the validator is here). */
  renderNewEntryProblems() {
    if (!this.newEntryProblems) return;
    if (!this.checker) {
      if (this.ui.newEntry?.trim()) this.newEntryProblems.setAttribute('aria-busy', 'true');
      return;
    }
    this.newEntryProblems.removeAttribute('aria-busy');
    const text = this.ui.newEntry ?? '';
    const shown = [];
    if (this.addResult) shown.push(this.addResult);
    else if (text.trim() !== '') {
      const parsed = this.checker.parseEntry(text);
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

  /** Adds the new entry as the core's allowlist would (waiting for the validator if it is not here yet). */
  async addMcpEntry() {
    const text = (this.ui.newEntry ?? '').trim();
    const input = () => this.root.querySelector('#tg-mcp-new');
    const { addToAllowlist, parseEntry } = this.checker ?? await loadValidator();
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
    // What still allows it, when the validator is here to say.
    const still = this.checker?.parseEntry(entry).ok ? this.checker.removeFromAllowlist(list, entry).stillAllowedBy : undefined;
    this.addResult = { severity: 'info', code: 'removed', message: `Removed ${visible(entry)}.${still ? ` It is still allowed by ${visible(still)}.` : ''}` };
    this.changed({ structural: true, now: true });
    (this.root.querySelector(`#tg-mcp-entry-${Math.min(index, list.length - 1)}`) ?? this.root.querySelector('#tg-mcp-new'))?.focus();
  }
}
