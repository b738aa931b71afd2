// The settings page's small DOM helpers: elements (`h`, `put`), values shown as code and written
// out (visible.js), the marker of characters that hide or reorder text, fields that keep every
// character, and JSON helpers (copies, comparison whatever the key order).
import { describe, hiddenIn, parts, visible } from './visible.js';

let uid = 0;
export const nextId = (prefix) => `${prefix}-${++uid}`;

/** `h('button', { class: 'x', onclick }, 'text', child)`: an element; `on*` props are listeners. */
export function h(tag, props = {}, ...children) {
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
export function put(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
}

/**
 * Text as a person must read it: each character that hides or reorders text written out
 * (`\u{202E}`, `\n`) and marked, as the core writes it. `written: true` for text the core already
 * wrote out (messages, labels, grants' displays): its `\u{…}` are marked too.
 */
export const marked = (text, options) => parts(text ?? '', options).map((p) => (p.hidden ? h('span', { class: 'tg-escape' }, p.text) : p.text));

/**
 * A value from the settings, a call or the agent's session (a command, a path, a rule, a name),
 * shown as code: written out and marked, and isolated (`dir="auto"`) so that it reorders nothing
 * around it and nothing around it reorders it.
 */
export const code = (text, options) => h('code', { class: 'tg-value', dir: 'auto' }, marked(text, options));

/**
 * The flag on a rule, call, path or name that holds characters that hide or reorder text: a
 * visible marker whose accessible name says which. Nothing when `texts` hold none.
 */
export function hiddenMark(...texts) {
  return markOf([...new Set(texts.flat().flatMap((t) => (typeof t === 'string' ? hiddenIn(t) : [])))]);
}

/** The marker for these hidden characters (`['U+202E']`), or nothing. */
export function markOf(found) {
  if (!found.length) return null;
  const label = `Holds characters that hide or reorder text: ${found.map(describe).join(', ')}`;
  return h('span', { class: 'tg-hidden-mark', role: 'img', 'aria-label': label, title: label }, `⚠ hidden ${found.join(' ')}`);
}

/**
 * For a text of many lines in a `<textarea>` (which shows line breaks, and tabs as space): the
 * lines that hold other characters that hide or reorder text, flagged, each line written out. Null
 * when there are none.
 */
export function hiddenLines(text, what, shownAsIs = ['U+0009', 'U+000A', 'U+000D']) {
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
export function faithfulField({ id, value = '', readOnly = false, lines = true, onInput, ...props }) {
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
export const clone = (value) => JSON.parse(JSON.stringify(value));

/** JSON with sorted keys, to compare settings whatever order their keys came in. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => value[k] !== undefined).sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function setOrDelete(object, key, value) {
  if (value) object[key] = value;
  else delete object[key];
}
