//! Rules over a pair of names — an MCP entry `server:tool`, a Gasoline pattern `tool.action` —
//! compiled into hash buckets, so a lookup costs at most four probes whatever the list's length.
//!
//! Each side of a pattern is a name or `*`. Every pattern lands in one of four buckets (`*:*`,
//! `*:b`, `a:*`, `a:b`), each remembering the earliest rule; a lookup returns the earliest
//! candidate, which is the rule a scan in policy order would stop at. MCP entries match exactly
//! (case-sensitive); Gasoline patterns ignore ASCII case, so they are filed lowercased.

use super::matchers::mcp_entry::{parse_entry, NamePattern};
use rustc_hash::FxHashMap;

/// One side of a pair pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Side {
    Any,
    Name(String),
}

impl Side {
    fn matches(&self, name: &str, folded: bool) -> bool {
        match self {
            Side::Any => true,
            Side::Name(n) if folded => n.eq_ignore_ascii_case(name),
            Side::Name(n) => n == name,
        }
    }
}

/// A compiled pair pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairPattern {
    pub first: Side,
    pub second: Side,
    /// Whether names are compared ignoring ASCII case (and filed lowercased).
    pub folded: bool,
}

fn side(pattern: &NamePattern) -> Side {
    match pattern {
        NamePattern::Any => Side::Any,
        NamePattern::Exact(name) => Side::Name(name.clone()),
    }
}

fn is_gasoline_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl PairPattern {
    /// An MCP allowlist entry (Cursor's MCP allowlist design): `server:tool`, either side `*`, exact names.
    pub fn mcp_entry(entry: &str) -> Result<Self, String> {
        let parsed = parse_entry(entry).map_err(|e| e.to_string())?;
        Ok(PairPattern { first: side(&parsed.server), second: side(&parsed.tool), folded: false })
    }

    /// A Gasoline pattern (Gasoline's design): `*`, `tool.*` or `tool.action`; letters, digits, `_`, `-`.
    pub fn tool_action(pattern: &str) -> Result<Self, String> {
        let invalid = || {
            format!(
                "invalid pattern \"{}\": use \"*\", \"tool.*\" or \"tool.action\" (letters, digits, '_' and '-')",
                crate::visible::visible(pattern)
            )
        };
        if pattern == "*" {
            return Ok(PairPattern { first: Side::Any, second: Side::Any, folded: true });
        }
        let (tool, action) = pattern.split_once('.').ok_or_else(invalid)?;
        if !is_gasoline_name(tool) || !(action == "*" || is_gasoline_name(action)) {
            return Err(invalid());
        }
        let second = if action == "*" { Side::Any } else { Side::Name(action.to_ascii_lowercase()) };
        Ok(PairPattern { first: Side::Name(tool.to_ascii_lowercase()), second, folded: true })
    }

    /// The plain algorithm the index must agree with.
    pub fn matches(&self, first: &str, second: &str) -> bool {
        self.first.matches(first, self.folded) && self.second.matches(second, self.folded)
    }
}

#[derive(Debug, Clone, Default)]
struct Buckets {
    any_any: Option<usize>,
    any_name: FxHashMap<String, usize>,
    name_any: FxHashMap<String, usize>,
    /// By first name, then second: looked up without building a key.
    name_name: FxHashMap<String, FxHashMap<String, usize>>,
}

impl Buckets {
    fn insert(&mut self, first: &Side, second: &Side, at: usize) {
        match (first, second) {
            (Side::Any, Side::Any) => {
                self.any_any.get_or_insert(at);
            }
            (Side::Any, Side::Name(b)) => {
                self.any_name.entry(b.clone()).or_insert(at);
            }
            (Side::Name(a), Side::Any) => {
                self.name_any.entry(a.clone()).or_insert(at);
            }
            (Side::Name(a), Side::Name(b)) => {
                self.name_name.entry(a.clone()).or_default().entry(b.clone()).or_insert(at);
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.any_any.is_none() && self.any_name.is_empty() && self.name_any.is_empty() && self.name_name.is_empty()
    }

    /// The earliest pattern, other than `skip`, that matches every pair `(first, second)` matches.
    fn first_covering(&self, first: &Side, second: &Side, skip: Option<usize>) -> Option<usize> {
        let keep = |i: Option<usize>| i.filter(|i| Some(*i) != skip);
        let mut found = vec![keep(self.any_any)];
        if let Side::Name(b) = second {
            found.push(keep(self.any_name.get(b).copied()));
        }
        if let Side::Name(a) = first {
            found.push(keep(self.name_any.get(a).copied()));
            if let Side::Name(b) = second {
                found.push(keep(self.name_name.get(a).and_then(|m| m.get(b)).copied()));
            }
        }
        found.into_iter().flatten().min()
    }

    fn first_match(&self, first: &str, second: &str) -> Option<usize> {
        let exact = self.name_name.get(first).and_then(|m| m.get(second)).copied();
        [self.any_any, self.any_name.get(second).copied(), self.name_any.get(first).copied(), exact].into_iter().flatten().min()
    }
}

/// Pair patterns of one rule list, by position in that list.
#[derive(Debug, Clone, Default)]
pub struct PairIndex {
    exact: Buckets,
    folded: Buckets,
}

impl PairIndex {
    pub fn insert(&mut self, pattern: &PairPattern, at: usize) {
        let buckets = if pattern.folded { &mut self.folded } else { &mut self.exact };
        buckets.insert(&pattern.first, &pattern.second, at);
    }

    /// The earliest position whose pattern matches `(first, second)`.
    pub fn first_match(&self, first: &str, second: &str) -> Option<usize> {
        let exact = self.exact.first_match(first, second);
        let folded =
            if self.folded.is_empty() { None } else { self.folded.first_match(&first.to_ascii_lowercase(), &second.to_ascii_lowercase()) };
        exact.into_iter().chain(folded).min()
    }

    /// The earliest exact (case-sensitive) pattern, other than `skip`, covering every pair `pattern` matches.
    pub fn first_covering(&self, pattern: &PairPattern, skip: Option<usize>) -> Option<usize> {
        self.exact.first_covering(&pattern.first, &pattern.second, skip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_entries_are_exact_and_gasoline_patterns_ignore_case() {
        let entry = PairPattern::mcp_entry("github:create_issue").unwrap();
        assert!(entry.matches("github", "create_issue"));
        assert!(!entry.matches("GitHub", "create_issue"));
        let pattern = PairPattern::tool_action("Interact.Navigate").unwrap();
        assert!(pattern.matches("interact", "NAVIGATE"));
        assert!(!pattern.matches("interact", "execute_js"));
        assert!(PairPattern::tool_action("observe.*").unwrap().matches("OBSERVE", "anything"));
        assert!(PairPattern::tool_action("*").unwrap().matches("a", "b"));
    }

    #[test]
    fn invalid_patterns_say_what_is_wrong() {
        assert!(PairPattern::mcp_entry("no-colon").is_err());
        for bad in ["", "observe", "observe.", ".x", "a.b.c", "a b.c", "*.x"] {
            let err = PairPattern::tool_action(bad).unwrap_err();
            assert!(err.contains("tool.action"), "{bad}: {err}");
        }
    }

    #[test]
    fn the_index_reports_the_earliest_pattern_a_scan_would_stop_at() {
        let patterns = [
            PairPattern::mcp_entry("a:*").unwrap(),
            PairPattern::tool_action("A.x").unwrap(),
            PairPattern::mcp_entry("*:x").unwrap(),
            PairPattern::mcp_entry("a:x").unwrap(),
            PairPattern::tool_action("*").unwrap(),
        ];
        for take in 1..=patterns.len() {
            let mut index = PairIndex::default();
            for (at, p) in patterns.iter().take(take).enumerate() {
                index.insert(p, at);
            }
            for first in ["a", "A", "b"] {
                for second in ["x", "X", "y"] {
                    let scan = patterns.iter().take(take).position(|p| p.matches(first, second));
                    assert_eq!(index.first_match(first, second), scan, "{take} {first}:{second}");
                }
            }
        }
    }

    /// Random lists of MCP entries and Gasoline patterns against a scan in policy order: the
    /// earliest match of every pair, and the earliest exact pattern (its first copy) covering each
    /// pattern.
    #[test]
    fn random_lists_answer_what_a_scan_answers() {
        let names = ["a", "A", "b", "ab", "B", "é", ""];
        let mut next = crate::test_support::random_below(0x9E37_79B9_7F4A_7C15);
        let side = |s: &Side, name: &str| match s {
            Side::Any => "*".to_owned(),
            Side::Name(_) => name.to_owned(),
        };
        for _ in 0..2_000 {
            let mut patterns = Vec::new();
            for _ in 0..next(8) {
                let (a, b) = (names[next(names.len())], names[next(names.len())]);
                let (a, b) = (if next(3) == 0 { "*" } else { a }, if next(3) == 0 { "*" } else { b });
                let parsed =
                    if next(2) == 0 { PairPattern::mcp_entry(&format!("{a}:{b}")) } else { PairPattern::tool_action(&format!("{a}.{b}")) };
                if let Ok(p) = parsed {
                    patterns.push(p);
                }
            }
            let mut index = PairIndex::default();
            for (at, p) in patterns.iter().enumerate() {
                index.insert(p, at);
            }
            for first in names {
                for second in names {
                    let scan = patterns.iter().position(|p| p.matches(first, second));
                    assert_eq!(index.first_match(first, second), scan, "{first}:{second} in {patterns:?}");
                }
            }
            for (at, pattern) in patterns.iter().enumerate() {
                let skip = (next(2) == 0).then_some(at);
                let covers = |p: &PairPattern| {
                    let side_covers = |outer: &Side, inner: &Side| match (outer, inner) {
                        (Side::Any, _) => true,
                        (Side::Name(o), Side::Name(i)) => o == i,
                        (Side::Name(_), Side::Any) => false,
                    };
                    !p.folded && side_covers(&p.first, &pattern.first) && side_covers(&p.second, &pattern.second)
                };
                // Only a pattern's first copy is filed (`normalize` drops the later copies).
                let first_copy = |i: usize, p: &PairPattern| patterns.iter().position(|q| q == p) == Some(i);
                let scan = patterns.iter().enumerate().position(|(i, p)| Some(i) != skip && first_copy(i, p) && covers(p));
                let described = (side(&pattern.first, "x"), side(&pattern.second, "y"));
                assert_eq!(index.first_covering(pattern, skip), scan, "{described:?} in {patterns:?}");
            }
        }
    }
}
