//! The name validator: server and tool names (Cursor's MCP allowlist design).
//!
//! A name is what goes on one side of a `server:tool` allowlist entry. The rules are
//! the design's, measured the way the design's JavaScript measures them: length in UTF-16
//! code units and "only whitespace" as `String.prototype.trim` sees it, so a settings
//! page and the engine never disagree about a name.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest accepted name, in UTF-16 code units (JavaScript `length`).
pub const MAX_NAME_LENGTH: usize = 256;
/// Separates the server from the tool in an allowlist entry.
pub const SEPARATOR: char = ':';
/// Matches every server or every tool when it is the whole name.
pub const WILDCARD: &str = "*";

/// Which side of an entry a name belongs to; only used to word errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum NameKind {
    /// The server side of an entry: a server id.
    Server,
    /// The tool side of an entry: a tool name.
    Tool,
}

impl fmt::Display for NameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NameKind::Server => "server name",
            NameKind::Tool => "tool name",
        })
    }
}

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum NameProblem {
    /// The name is the empty string.
    Empty,
    /// The name is longer than [`MAX_NAME_LENGTH`] UTF-16 code units.
    TooLong {
        /// The name's length in UTF-16 code units.
        length: usize,
    },
    /// The name has characters, but all of them are whitespace.
    OnlyWhitespace,
    /// The name contains `:` or `*` and is not exactly `*`.
    ReservedCharacter {
        /// The first reserved character in the name.
        character: char,
    },
    /// The name contains U+FFFD, which is what a lone surrogate becomes on its way in from
    /// JavaScript; the two cannot be told apart, so neither is accepted (beyond the design).
    ReplacementCharacter,
}

/// A refused name: which side it was on and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct NameError {
    /// Which side of an entry the name was for.
    pub kind: NameKind,
    /// What is wrong with it.
    pub problem: NameProblem,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind;
        match self.problem {
            NameProblem::Empty => write!(f, "{kind} must not be empty"),
            NameProblem::TooLong { length } => write!(f, "{kind} is {length} characters long; the limit is {MAX_NAME_LENGTH}"),
            NameProblem::OnlyWhitespace => write!(f, "{kind} must not be only whitespace"),
            NameProblem::ReservedCharacter { character } => write!(
                f,
                "{kind} must not contain '{character}' (':' separates server from tool, and '*' is only allowed as the whole name)"
            ),
            NameProblem::ReplacementCharacter => {
                write!(f, "{kind} must not contain U+FFFD (it stands for text that was not well-formed, such as a lone surrogate)")
            }
        }
    }
}

impl std::error::Error for NameError {}

/// Checks a server or tool name against the design's rules.
///
/// `*` on its own is valid (it is the wildcard); anywhere else `:` and `*` are reserved.
pub fn validate_name(name: &str, kind: NameKind) -> Result<(), NameError> {
    // Names are almost always ASCII: plain byte tests answer the same as the general rules
    // (a test compares the two on random names).
    let problem = if name.is_ascii() { ascii_name_problem(name) } else { name_problem(name) };
    match problem {
        Some(problem) => Err(NameError { kind, problem }),
        None => Ok(()),
    }
}

/// The design's rules, for any name.
fn name_problem(name: &str) -> Option<NameProblem> {
    if name.is_empty() {
        Some(NameProblem::Empty)
    } else if let Some(length) = utf16_length_over_limit(name) {
        Some(NameProblem::TooLong { length })
    } else if name.chars().all(is_js_trim_whitespace) {
        Some(NameProblem::OnlyWhitespace)
    } else if name.contains(char::REPLACEMENT_CHARACTER) {
        Some(NameProblem::ReplacementCharacter)
    } else if name == WILDCARD {
        None
    } else {
        name.chars().find(|c| *c == SEPARATOR || *c == '*').map(|character| NameProblem::ReservedCharacter { character })
    }
}

/// The same rules for an ASCII name, by plain byte tests: one UTF-16 unit per byte, no U+FFFD.
fn ascii_name_problem(name: &str) -> Option<NameProblem> {
    let bytes = name.as_bytes();
    if bytes.is_empty() {
        return Some(NameProblem::Empty);
    }
    if bytes.len() > MAX_NAME_LENGTH {
        return Some(NameProblem::TooLong { length: bytes.len() });
    }
    if bytes == WILDCARD.as_bytes() {
        return None;
    }
    // JavaScript's `trim` strips these ASCII characters (U+0009–U+000D and the space).
    if bytes.iter().all(|b| matches!(b, b'\t'..=b'\r' | b' ')) {
        return Some(NameProblem::OnlyWhitespace);
    }
    bytes.iter().find(|b| matches!(b, b':' | b'*')).map(|&b| NameProblem::ReservedCharacter { character: char::from(b) })
}

/// The UTF-16 length when it exceeds the limit; `None` when the name fits.
fn utf16_length_over_limit(name: &str) -> Option<usize> {
    // A UTF-8 string never has more UTF-16 units than bytes, so short strings skip counting.
    if name.len() <= MAX_NAME_LENGTH {
        return None;
    }
    let length = name.encode_utf16().count();
    (length > MAX_NAME_LENGTH).then_some(length)
}

/// Whitespace as JavaScript's `trim` removes it: Unicode White_Space plus U+FEFF, less U+0085
/// (NEXT LINE is White_Space but neither a JavaScript space nor a line terminator).
fn is_js_trim_whitespace(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(name: &str) -> Option<NameProblem> {
        validate_name(name, NameKind::Tool).err().map(|e| e.problem)
    }

    #[test]
    fn accepts_ordinary_names_and_the_bare_wildcard() {
        for name in ["github", "create_issue", "my-server.v2", "*", " padded ", "名前"] {
            assert_eq!(problem(name), None, "{name:?} should be valid");
        }
    }

    #[test]
    fn rejects_empty() {
        assert_eq!(problem(""), Some(NameProblem::Empty));
    }

    #[test]
    fn length_limit_is_256_utf16_units() {
        assert_eq!(problem(&"a".repeat(256)), None);
        assert_eq!(problem(&"a".repeat(257)), Some(NameProblem::TooLong { length: 257 }));
        // 'é' is 2 UTF-8 bytes but one UTF-16 unit: 256 of them still fit.
        assert_eq!(problem(&"é".repeat(256)), None);
        // '😀' is two UTF-16 units, as JavaScript counts it: 129 of them are 258 units.
        assert_eq!(problem(&"😀".repeat(129)), Some(NameProblem::TooLong { length: 258 }));
        assert_eq!(problem(&"😀".repeat(128)), None);
    }

    #[test]
    fn rejects_whitespace_only_including_what_js_trim_strips() {
        for name in [" ", "\t\n", "\u{00A0}", "\u{2003}", "\u{FEFF}", "\u{3000}"] {
            assert_eq!(problem(name), Some(NameProblem::OnlyWhitespace), "{name:?}");
        }
    }

    #[test]
    fn keeps_next_line_which_js_trim_keeps() {
        // '\u{85}'.trim() is '\u{85}' in JavaScript, so the seed accepts it as a name.
        assert_eq!(problem("\u{85}"), None);
        assert_eq!(problem(" \u{85} "), None);
    }

    #[test]
    fn rejects_reserved_characters_unless_exactly_the_wildcard() {
        assert_eq!(problem("a:b"), Some(NameProblem::ReservedCharacter { character: ':' }));
        assert_eq!(problem(":"), Some(NameProblem::ReservedCharacter { character: ':' }));
        assert_eq!(problem("git*"), Some(NameProblem::ReservedCharacter { character: '*' }));
        assert_eq!(problem("**"), Some(NameProblem::ReservedCharacter { character: '*' }));
        assert_eq!(problem(" *"), Some(NameProblem::ReservedCharacter { character: '*' }));
    }

    #[test]
    fn rejects_the_replacement_character_a_lone_surrogate_turns_into() {
        assert_eq!(problem("tool\u{FFFD}"), Some(NameProblem::ReplacementCharacter));
    }

    #[test]
    fn the_ascii_pass_answers_as_the_general_rules_on_random_names() {
        // Names over an alphabet of the characters that matter, short ones and ones around the limit.
        let alphabet = [' ', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1c}', ':', '*', 'a', '_', '-', '.', '0'];
        let short = crate::test_support::random_strings(&alphabet, 50_000, 6, 0x2545_F491_4F6C_DD1D);
        let long = crate::test_support::random_strings(&alphabet, 500, 260, 0x9E37_79B9_7F4A_7C15).filter(|n| n.len() > 240);
        for name in short.chain(long) {
            assert_eq!(ascii_name_problem(&name), name_problem(&name), "{name:?}");
        }
    }

    #[test]
    fn errors_name_the_side_and_the_problem() {
        let err = validate_name("a:b", NameKind::Server).unwrap_err();
        assert_eq!(
            err.to_string(),
            "server name must not contain ':' (':' separates server from tool, and '*' is only allowed as the whole name)"
        );
        let err = validate_name("", NameKind::Tool).unwrap_err();
        assert_eq!(err.to_string(), "tool name must not be empty");
    }
}
