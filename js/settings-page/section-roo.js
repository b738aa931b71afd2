// The settings page's per-mode MCP restrictions section (Roo's model): per mode, the servers and
// tools of the host's catalogue allowed or disallowed. Methods of the page.
import { code, faithfulField, h, hiddenMark, put } from './dom.js';
import { visible } from './visible.js';

export class RooSection {
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
}
