// Problems shown where they belong: every control registers a slot under the path the core
// uses for it (`mcp.mcpAllowedTools[2]`); a problem goes to the slot of its path, else of the
// nearest enclosing path, else of its section.
import { canonical, h, marked, nextId, put } from './dom.js';

export class ProblemSlots {
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

export function renderProblem(p, slot) {
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
