//! Compiled regex rules, indexed by the command word a pattern pins down.
//!
//! A pattern such as `^git\b` or `^cargo\s+build` can only match text whose leading word is
//! `git` or `cargo`, so it is filed under that word; a lookup checks the rules filed under the
//! item's own leading word plus the patterns that pin nothing down. Matching returns the
//! earliest rule in policy order, so the index changes speed, never the answer.

use regex_lite::{Regex, RegexBuilder};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// Which list of a tool's rules a pattern sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ListKind {
    AlwaysAllow,
    AlwaysDeny,
    AlwaysConfirm,
}

impl ListKind {
    pub fn settings_key(self) -> &'static str {
        match self {
            ListKind::AlwaysAllow => "always_allow",
            ListKind::AlwaysDeny => "always_deny",
            ListKind::AlwaysConfirm => "always_confirm",
        }
    }
}

/// Where a rule came from: enough to point a user at it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RuleRef {
    pub layer: String,
    pub tool: String,
    pub list: ListKind,
    /// Position in that layer's list.
    pub index: usize,
    pub pattern: String,
}

#[derive(Debug, Clone)]
pub struct CompiledRule {
    pub regex: Regex,
    pub origin: RuleRef,
}

/// The rules of one list of one tool, united across layers, in policy order.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    rules: Vec<CompiledRule>,
    /// Case-sensitive rules by their exact leading word.
    exact: FxHashMap<String, Vec<usize>>,
    /// Case-insensitive rules by their ASCII-lowercased leading word.
    folded: FxHashMap<String, Vec<usize>>,
    /// Rules whose pattern pins no leading word; always checked.
    unindexed: Vec<usize>,
}

/// Compiles one pattern, case-insensitive unless asked otherwise.
pub fn compile(pattern: &str, case_sensitive: bool) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .case_insensitive(!case_sensitive)
        .size_limit(1 << 20)
        .nest_limit(64)
        .build()
        .map_err(|e| e.to_string())
}

/// The leading word a pattern forces, if any: `^` + ASCII word characters + a boundary that
/// cannot be a word character (`\b`, `\s`, a space, `$`, or the end of a `(\s|$)` group).
pub fn pinned_word(pattern: &str) -> Option<&str> {
    let rest = pattern.strip_prefix('^')?;
    let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let (word, after) = rest.split_at(len);
    if word.is_empty() {
        return None;
    }
    let bounded = ["\\b", "\\s", " ", "$", "(\\s|$)", "(?:\\s|$)", "($|\\s)", "(?:$|\\s)", "\\t"]
        .iter()
        .any(|boundary| after.starts_with(boundary));
    // `\s*` and `\b` followed by a quantifier would let word characters through.
    let quantified = after.get(2..3).is_some_and(|q| matches!(q, "*" | "?" | "{"));
    (bounded && !quantified).then_some(word)
}

/// The leading run of ASCII word characters of an item, as a pinned word would meet it.
fn leading_word(text: &str) -> &str {
    let len = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    text.get(..len).unwrap_or_default()
}

impl RuleSet {
    pub fn push(&mut self, rule: CompiledRule, pattern: &str, case_sensitive: bool) {
        let at = self.rules.len();
        match pinned_word(pattern) {
            Some(word) if case_sensitive => self.exact.entry(word.to_owned()).or_default().push(at),
            Some(word) => self.folded.entry(word.to_ascii_lowercase()).or_default().push(at),
            None => self.unindexed.push(at),
        }
        self.rules.push(rule);
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// The earliest rule (in policy order) that matches `text`.
    pub fn first_match(&self, text: &str) -> Option<&CompiledRule> {
        if self.rules.is_empty() {
            return None;
        }
        let word = leading_word(text);
        let none: &[usize] = &[];
        let exact = self.exact.get(word).map_or(none, Vec::as_slice);
        let folded = if self.folded.is_empty() {
            none
        } else {
            self.folded.get(word.to_ascii_lowercase().as_str()).map_or(none, Vec::as_slice)
        };
        let mut best: Option<usize> = None;
        for candidates in [exact, folded, self.unindexed.as_slice()] {
            // Each list is in policy order: its first hit is its earliest.
            for &i in candidates {
                if best.is_some_and(|b| b < i) {
                    break;
                }
                if self.rules.get(i).is_some_and(|r| r.regex.is_match(text)) {
                    best = Some(i);
                    break;
                }
            }
        }
        best.and_then(|i| self.rules.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(patterns: &[(&str, bool)]) -> RuleSet {
        let mut s = RuleSet::default();
        for (i, (p, cs)) in patterns.iter().enumerate() {
            let origin = RuleRef { layer: "user".into(), tool: "terminal".into(), list: ListKind::AlwaysAllow, index: i, pattern: p.to_string() };
            s.push(CompiledRule { regex: compile(p, *cs).unwrap(), origin }, p, *cs);
        }
        s
    }

    #[test]
    fn pins_only_patterns_that_force_a_leading_word() {
        assert_eq!(pinned_word(r"^git\b"), Some("git"));
        assert_eq!(pinned_word(r"^cargo\s+(build|test)"), Some("cargo"));
        assert_eq!(pinned_word(r"^ls(\s|$)"), Some("ls"));
        assert_eq!(pinned_word(r"^make "), Some("make"));
        assert_eq!(pinned_word(r"^ls$"), Some("ls"));
        assert_eq!(pinned_word(r"^git"), None, "also matches gitx");
        assert_eq!(pinned_word(r"^git\s*x"), None, "also matches gitx");
        assert_eq!(pinned_word(r"^git\-lfs\b"), None);
        assert_eq!(pinned_word(r"git\b"), None);
        assert_eq!(pinned_word(r"^(git|hg)\b"), None);
    }

    #[test]
    fn the_index_never_changes_the_answer() {
        let patterns = [(r"^git\b", false), (r"status", false), (r"^GIT\s", true), (r"^cargo\b", false), (r"^git\s+push", false)];
        let s = set(&patterns);
        for text in ["git status", "GIT status", "Git push", "cargo build", "gitx status", "echo status", "ls", "git-lfs", "", "GIT  x"] {
            let linear = patterns.iter().position(|(p, cs)| compile(p, *cs).unwrap().is_match(text));
            assert_eq!(s.first_match(text).map(|r| r.origin.index), linear, "{text:?}");
        }
    }

    #[test]
    fn invalid_patterns_report_the_regex_error() {
        let err = compile("(unclosed", false).unwrap_err();
        assert!(err.contains("unclosed") || err.contains("group"), "{err}");
    }
}
