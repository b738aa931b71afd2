//! A compiled allowlist: the design's linear scan with the entry matcher, answered by hash lookups.
//!
//! The entries go into the rule model's pair index (`policy::pair_index`): at most four
//! probes whatever the list's length, reporting the entry that scan would stop at. This type
//! adds what list editing needs: the entries as given, the invalid ones, and coverage checks.

use crate::policy::matchers::mcp_entry::{parse_entry, EntryError, McpEntry, NamePattern};
use crate::policy::pair_index::{PairIndex, PairPattern, Side};
use serde::Serialize;

/// An entry that could not be parsed. It matches nothing and is reported, never dropped silently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct InvalidEntry {
    /// Position in the list as given.
    pub index: usize,
    /// The entry as written.
    pub entry: String,
    /// Why it is not a valid entry.
    pub error: EntryError,
    /// The error in words a settings page can show.
    pub message: String,
}

/// An allowlist indexed for constant-time matching, by the rule model's pair index.
#[derive(Debug, Default, Clone)]
pub struct CompiledAllowlist {
    entries: Vec<String>,
    index: PairIndex,
    invalid: Vec<InvalidEntry>,
}

impl CompiledAllowlist {
    /// Indexes a list of entry strings; invalid ones are kept aside in [`Self::invalid_entries`].
    pub fn new<S: AsRef<str>>(list: &[S]) -> Self {
        let mut compiled = CompiledAllowlist { entries: list.iter().map(|s| s.as_ref().to_owned()).collect(), ..Self::default() };
        for (index, entry) in list.iter().enumerate() {
            let entry = entry.as_ref();
            match parse_entry(entry) {
                Ok(_) => {
                    if let Ok(pattern) = PairPattern::mcp_entry(entry) {
                        compiled.index.insert(&pattern, index);
                    }
                }
                Err(error) => compiled.invalid.push(InvalidEntry { index, entry: entry.to_owned(), message: error.to_string(), error }),
            }
        }
        compiled
    }

    /// Position of the first entry that allows `tool_name` on `server_id`, as the linear scan finds it.
    pub fn first_match(&self, server_id: &str, tool_name: &str) -> Option<usize> {
        self.index.first_match(server_id, tool_name)
    }

    /// Position of the first entry, other than `skip`, that matches every call `entry` matches.
    pub fn first_covering(&self, entry: &McpEntry, skip: Option<usize>) -> Option<usize> {
        let side = |p: &NamePattern| match p {
            NamePattern::Any => Side::Any,
            NamePattern::Exact(name) => Side::Name(name.clone()),
        };
        let pattern = PairPattern { first: side(&entry.server), second: side(&entry.tool), folded: false };
        self.index.first_covering(&pattern, skip)
    }

    /// The entry string at a position of the original list.
    pub fn entry(&self, index: usize) -> Option<&str> {
        self.entries.get(index).map(String::as_str)
    }

    /// The list as it was given, invalid entries included.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// Entries that were not valid and therefore match nothing.
    pub fn invalid_entries(&self) -> &[InvalidEntry] {
        &self.invalid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wildcard_form_is_found() {
        let list = ["a:exact", "b:*", "*:shared", "*:*"];
        let c = CompiledAllowlist::new(&list);
        assert_eq!(c.first_match("a", "exact"), Some(0));
        assert_eq!(c.first_match("b", "whatever"), Some(1));
        assert_eq!(c.first_match("zzz", "shared"), Some(2));
        assert_eq!(c.first_match("zzz", "other"), Some(3));
    }

    #[test]
    fn reports_the_first_matching_entry_in_list_order() {
        let c = CompiledAllowlist::new(&["*:*", "a:t"]);
        assert_eq!(c.first_match("a", "t"), Some(0));
        let c = CompiledAllowlist::new(&["a:t", "a:*", "a:t"]);
        assert_eq!(c.first_match("a", "t"), Some(0));
        assert_eq!(c.first_match("a", "u"), Some(1));
    }

    #[test]
    fn no_match_without_a_covering_entry() {
        let c = CompiledAllowlist::new(&["a:t", "b:*", "*:u"]);
        assert_eq!(c.first_match("a", "x"), None);
        assert_eq!(c.first_match("c", "t"), None);
        assert_eq!(c.first_match("A", "t"), None, "case-sensitive");
    }

    #[test]
    fn invalid_entries_are_reported_with_position_and_match_nothing() {
        let c = CompiledAllowlist::new(&["nocolon", "a:b:c", "ok:tool", "x*:y"]);
        let invalid: Vec<_> = c.invalid_entries().iter().map(|e| (e.index, e.entry.as_str())).collect();
        assert_eq!(invalid, vec![(0, "nocolon"), (1, "a:b:c"), (3, "x*:y")]);
        assert_eq!(c.first_match("x*", "y"), None);
        assert_eq!(c.first_match("ok", "tool"), Some(2));
        assert!(c.invalid_entries()[1].message.contains("exactly one ':'"));
    }
}

/// Property tests need proptest, which is native-only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use crate::policy::matchers::mcp_entry::entry_matches;
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![Just("*".to_owned()), "[ab]{1,2}", Just("a:b".to_owned()), Just(String::new())]
    }

    proptest! {
        /// The index answers exactly what the design's linear scan with the entry matcher answers,
        /// down to which entry.
        #[test]
        fn agrees_with_the_linear_scan(
            list in proptest::collection::vec((name(), name()).prop_map(|(s, t)| format!("{s}:{t}")), 0..12),
            server in "[ab]{1,2}",
            tool in "[ab]{1,2}",
        ) {
            let linear = list.iter().position(|e| entry_matches(&server, &tool, e));
            prop_assert_eq!(CompiledAllowlist::new(&list).first_match(&server, &tool), linear);
        }
    }
}
