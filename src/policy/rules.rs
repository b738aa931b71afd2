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
    /// A literal every match contains (ASCII-lowercased when the rule ignores case); when the
    /// text lacks it the regex cannot match and is not run.
    pub required: Option<String>,
    pub case_sensitive: bool,
}

impl CompiledRule {
    pub fn new(regex: Regex, origin: RuleRef, pattern: &str, case_sensitive: bool) -> Self {
        let required = required_literal(pattern).map(|l| if case_sensitive { l } else { l.to_ascii_lowercase() });
        CompiledRule { regex, origin, required, case_sensitive }
    }

    fn is_match(&self, text: &Haystack<'_>) -> bool {
        let present = match &self.required {
            None => true,
            Some(literal) if self.case_sensitive => text.text.contains(literal.as_str()),
            Some(literal) => text.lower().contains(literal.as_str()),
        };
        present && self.regex.is_match(text.text)
    }
}

/// The text being matched, with its ASCII-lowercased form made on first need.
pub struct Haystack<'a> {
    pub text: &'a str,
    lower: std::cell::OnceCell<String>,
}

impl<'a> Haystack<'a> {
    pub fn new(text: &'a str) -> Self {
        Haystack { text, lower: std::cell::OnceCell::new() }
    }

    fn lower(&self) -> &str {
        self.lower.get_or_init(|| self.text.to_ascii_lowercase())
    }
}

/// The longest run of literal characters that every match of `pattern` must contain.
///
/// Only the top level is read: a top-level `|` means no literal is required; groups and
/// classes end a run; a character followed by a quantifier is not required, so it ends the
/// run before it. Conservative by construction: `None` whenever in doubt.
pub fn required_literal(pattern: &str) -> Option<String> {
    // Inline flags change how what follows matches; escapes with arguments (`\x41`, `\u{…}`,
    // `\p{L}`, `\1`) would be misread as literals. No prefilter for those.
    let escapes_with_arguments = pattern.split('\\').skip(1).any(|after| after.starts_with(|c: char| "xuUpPkQ0123456789".contains(c)));
    if pattern.contains("(?") || escapes_with_arguments {
        return None;
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut best = String::new();
    let mut run = String::new();
    let mut depth = 0usize;
    let mut i = 0;
    let finish = |run: &mut String, best: &mut String| {
        if run.chars().count() > best.chars().count() {
            *best = run.clone();
        }
        run.clear();
    };
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if depth > 0 {
            match c {
                '\\' => i += 1,
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            i += 1;
            continue;
        }
        // A literal character (possibly escaped), and how many pattern chars it spans.
        let literal = match c {
            '\\' => match next {
                Some(e) if e.is_ascii_punctuation() => Some((e, 2)),
                _ => None,
            },
            '|' => return None,
            '(' => {
                depth += 1;
                None
            }
            '[' => {
                // Skip the class.
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    j += 1;
                }
                while chars.get(j).is_some_and(|ch| *ch != ']') {
                    if chars.get(j) == Some(&'\\') {
                        j += 1;
                    }
                    j += 1;
                }
                finish(&mut run, &mut best);
                i = j + 1;
                continue;
            }
            '.' | '^' | '$' | '*' | '+' | '?' | '{' | '}' | ')' => None,
            _ => Some((c, 1)),
        };
        match literal {
            Some((ch, width)) => {
                let after = chars.get(i + width).copied();
                if matches!(after, Some('*' | '?' | '{')) {
                    // Optional or counted: not required.
                    finish(&mut run, &mut best);
                } else {
                    run.push(ch);
                    if after == Some('+') {
                        // One is required, repeats are not contiguous with what follows.
                        finish(&mut run, &mut best);
                    }
                }
                i += width;
            }
            None => {
                finish(&mut run, &mut best);
                // Skip the escape's second character too (`\s`, `\b`).
                i += if c == '\\' { 2 } else { 1 };
            }
        }
    }
    finish(&mut run, &mut best);
    (!best.is_empty()).then_some(best)
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
        let haystack = Haystack::new(text);
        let mut best: Option<usize> = None;
        for candidates in [exact, folded, self.unindexed.as_slice()] {
            // Each list is in policy order: its first hit is its earliest.
            for &i in candidates {
                if best.is_some_and(|b| b < i) {
                    break;
                }
                if self.rules.get(i).is_some_and(|r| r.is_match(&haystack)) {
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
            s.push(CompiledRule::new(compile(p, *cs).unwrap(), origin, p, *cs), p, *cs);
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
    fn required_literals_are_only_what_every_match_contains() {
        for (pattern, literal) in [
            (r"mkfs\.", Some("mkfs.")), (r"/etc/shadow", Some("/etc/shadow")), (r"dd\s+if=/dev/", Some("if=/dev/")),
            (r"rm\s+-rf\s+(/|\.\.)", Some("-rf")), (r"^cargo\b", Some("cargo")), (r"colou?r", Some("colo")),
            (r"ab+c", Some("ab")), (r"a|b", None), (r"(abc)", None), (r"[xyz]", None), (r"x{2}abc", Some("abc")),
            (r"\d+", None), (r"DROP\s+TABLE", Some("TABLE")), (r":\(\)\{ :\|:& \};:", Some(":(){ :|:& };:")),
            (r"\x41BC", None), (r"(?i)abc", None), (r"\u{41}bc", None), (r"\p{L}xyz", None), (r"a\\b", Some("a\\b")),
        ] {
            assert_eq!(required_literal(pattern).as_deref(), literal, "{pattern}");
        }
    }

    #[test]
    fn the_prefilter_never_changes_the_answer() {
        let patterns = [r"mkfs\.", r"DROP\s+TABLE", r"colou?r", r"ab+c", r"x{2}abc", r"^cargo\b", r"/etc/(passwd|shadow)", r"[Ss]udo\s", r"\x41BC", r"(?i)abc", r"(?-i)ABC"];
        let texts = ["mkfs.ext4", "MKFS.x", "drop table x", "DROP  TABLE", "color", "colour", "abbbc", "ac", "xxabc", "xabc", "Cargo b", "cat /etc/shadow", "Sudo x", "sudo", "ABC", "abc"];
        for cs in [false, true] {
            for p in patterns {
                let re = compile(p, cs).unwrap();
                let origin = RuleRef { layer: "u".into(), tool: "t".into(), list: ListKind::AlwaysDeny, index: 0, pattern: p.into() };
                let rule = CompiledRule::new(re.clone(), origin, p, cs);
                for t in texts {
                    assert_eq!(rule.is_match(&Haystack::new(t)), re.is_match(t), "{p} cs={cs} on {t:?}");
                }
            }
        }
    }

    #[test]
    fn invalid_patterns_report_the_regex_error() {
        let err = compile("(unclosed", false).unwrap_err();
        assert!(err.contains("unclosed") || err.contains("group"), "{err}");
    }
}
