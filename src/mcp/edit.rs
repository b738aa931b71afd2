//! Editing an allowlist the way a settings page or an "Add to allowlist" button does
//! (Cursor's MCP allowlist design's add-to-allowlist edit), plus removal and normalisation.
//!
//! Every function returns a new list and leaves the caller's untouched; on bad input
//! the list comes back unchanged together with the reason.

use super::compiled::{CompiledAllowlist, InvalidEntry};
use crate::policy::matchers::mcp_entry::{format_entry, parse_entry, EntryError};
use serde::Serialize;

/// What adding a tool did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum AddStatus {
    /// The entry was appended.
    Added,
    /// The exact entry was already in the list.
    AlreadyPresent,
    /// A wildcard entry (`server:*`, `*:tool` or `*:*`) already allows the tool.
    CoveredByWildcard,
    /// The server or tool name is invalid; nothing was added.
    Invalid,
}

/// What adding a tool to an allowlist did, and the list afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AddOutcome {
    /// The list after the change (a copy of the input when nothing was added).
    pub list: Vec<String>,
    /// Whether the entry was added, and if not, why.
    pub status: AddStatus,
    /// The entry that was added, or that would have been.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// The wildcard entry that already covers the tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<String>,
    /// What is wrong with the server or tool name, when the status is `invalid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<EntryError>,
    /// Why nothing was added, in words; absent when the entry was added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Adds `server_id:tool_name` unless it is invalid, already present, or covered by a wildcard.
pub fn add_tool(list: &[String], server_id: &str, tool_name: &str) -> AddOutcome {
    let unchanged = |status, entry: Option<String>, covered_by, error: Option<EntryError>, message| AddOutcome {
        list: list.to_vec(),
        status,
        entry,
        covered_by,
        error,
        message: Some(message),
    };
    let entry = match format_entry(server_id, tool_name) {
        Ok(entry) => entry,
        Err(error) => {
            let message = error.to_string();
            return unchanged(AddStatus::Invalid, None, None, Some(error), message);
        }
    };
    if list.contains(&entry) {
        let message = format!("{entry} is already in the allowlist");
        return unchanged(AddStatus::AlreadyPresent, Some(entry), None, None, message);
    }
    let covering = parse_entry(&entry).ok().and_then(|parsed| {
        let compiled = CompiledAllowlist::new(list);
        compiled.first_covering(&parsed, None).and_then(|i| compiled.entry(i).map(str::to_owned))
    });
    if let Some(wildcard) = covering {
        let message = format!("{entry} is already allowed by {wildcard}");
        return unchanged(AddStatus::CoveredByWildcard, Some(entry), Some(wildcard), None, message);
    }
    let mut updated = list.to_vec();
    updated.push(entry.clone());
    AddOutcome { list: updated, status: AddStatus::Added, entry: Some(entry), covered_by: None, error: None, message: None }
}

/// What removing an entry did, and the list afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RemoveOutcome {
    /// The list without the entry.
    pub list: Vec<String>,
    /// How many copies of the entry were removed (0 when it was not there).
    pub removed: usize,
    /// A remaining wildcard entry that still allows what the removed entry allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub still_allowed_by: Option<String>,
}

/// Removes every copy of `entry`, and says if a wildcard still allows the same calls.
pub fn remove_entry(list: &[String], entry: &str) -> RemoveOutcome {
    let updated: Vec<String> = list.iter().filter(|e| e.as_str() != entry).cloned().collect();
    let removed = list.len() - updated.len();
    let still_allowed_by = parse_entry(entry).ok().and_then(|parsed| {
        let compiled = CompiledAllowlist::new(&updated);
        compiled.first_covering(&parsed, None).and_then(|i| compiled.entry(i).map(str::to_owned))
    });
    RemoveOutcome { list: updated, removed, still_allowed_by }
}

/// Why normalisation dropped an entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum DropReason {
    /// The same entry appears earlier in the list.
    Duplicate,
    /// Another entry allows everything this one allows.
    #[serde(rename_all = "camelCase")]
    CoveredBy {
        /// The entry that allows everything this one allows.
        covering_entry: String,
    },
}

/// An entry normalisation dropped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct DroppedEntry {
    /// Position in the original list.
    pub index: usize,
    /// The entry as written.
    pub entry: String,
    /// Why it was dropped.
    pub reason: DropReason,
}

/// An allowlist without duplicates and covered entries, with what was dropped and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct NormalizedAllowlist {
    /// The list without duplicates and covered entries, in the original order.
    /// Invalid entries stay (they match nothing) so the user can fix them; see `invalid`.
    pub list: Vec<String>,
    /// The entries dropped, and why.
    pub dropped: Vec<DroppedEntry>,
    /// Entries that are not valid (kept in `list`, where they match nothing).
    pub invalid: Vec<InvalidEntry>,
}

/// Drops duplicates and entries a wildcard already covers; reports invalid entries.
pub fn normalize(list: &[String]) -> NormalizedAllowlist {
    let compiled = CompiledAllowlist::new(list);
    let mut kept = Vec::with_capacity(list.len());
    let mut dropped = Vec::new();
    for (index, entry) in list.iter().enumerate() {
        let Ok(parsed) = parse_entry(entry) else {
            kept.push(entry.clone());
            continue;
        };
        // Buckets keep an entry's first position, so an identical covering entry is an earlier copy.
        let covering = compiled.first_covering(&parsed, Some(index));
        let reason = covering.and_then(|i| compiled.entry(i)).map(|covering_entry| {
            if covering_entry == entry {
                DropReason::Duplicate
            } else {
                DropReason::CoveredBy { covering_entry: covering_entry.to_owned() }
            }
        });
        match reason {
            Some(reason) => dropped.push(DroppedEntry { index, entry: entry.clone(), reason }),
            None => kept.push(entry.clone()),
        }
    }
    NormalizedAllowlist { list: kept, dropped, invalid: compiled.invalid_entries().to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn add_appends_a_new_entry() {
        let out = add_tool(&list(&["a:x"]), "github", "create_issue");
        assert_eq!(out.status, AddStatus::Added);
        assert_eq!(out.list, list(&["a:x", "github:create_issue"]));
        assert_eq!(out.entry.as_deref(), Some("github:create_issue"));
    }

    #[test]
    fn add_skips_exact_duplicates() {
        let before = list(&["github:create_issue"]);
        let out = add_tool(&before, "github", "create_issue");
        assert_eq!(out.status, AddStatus::AlreadyPresent);
        assert_eq!(out.list, before);
    }

    #[test]
    fn add_skips_tools_a_server_wildcard_covers() {
        let before = list(&["github:*"]);
        let out = add_tool(&before, "github", "create_issue");
        assert_eq!(out.status, AddStatus::CoveredByWildcard);
        assert_eq!(out.covered_by.as_deref(), Some("github:*"));
        assert_eq!(out.list, before);
    }

    #[test]
    fn add_skips_tools_other_wildcards_cover() {
        assert_eq!(add_tool(&list(&["*:create_issue"]), "github", "create_issue").covered_by.as_deref(), Some("*:create_issue"));
        assert_eq!(add_tool(&list(&["*:*"]), "github", "x").covered_by.as_deref(), Some("*:*"));
        // A tool wildcard on another tool does not cover.
        assert_eq!(add_tool(&list(&["*:other"]), "github", "x").status, AddStatus::Added);
    }

    #[test]
    fn add_with_invalid_names_leaves_the_list_unchanged_and_says_why() {
        let before = list(&["a:x"]);
        let out = add_tool(&before, "git:hub", "x");
        assert_eq!(out.status, AddStatus::Invalid);
        assert_eq!(out.list, before);
        assert!(out.message.unwrap().starts_with("server name must not contain ':'"));
        let out = add_tool(&before, "github", "   ");
        assert_eq!(out.status, AddStatus::Invalid);
        assert_eq!(out.message.as_deref(), Some("tool name must not be only whitespace"));
    }

    #[test]
    fn remove_drops_every_copy_and_reports_a_remaining_wildcard() {
        let out = remove_entry(&list(&["a:x", "a:*", "a:x"]), "a:x");
        assert_eq!(out.list, list(&["a:*"]));
        assert_eq!(out.removed, 2);
        assert_eq!(out.still_allowed_by.as_deref(), Some("a:*"));
        let out = remove_entry(&list(&["a:x"]), "b:y");
        assert_eq!(out.removed, 0);
        assert_eq!(out.still_allowed_by, None);
    }

    #[test]
    fn normalize_drops_duplicates_and_covered_entries_but_keeps_invalid_ones() {
        let out = normalize(&list(&["a:x", "bad", "a:*", "a:x", "*:t", "b:t", "c:u"]));
        assert_eq!(out.list, list(&["bad", "a:*", "*:t", "c:u"]));
        let dropped: Vec<_> = out.dropped.iter().map(|d| (d.index, d.reason.clone())).collect();
        assert_eq!(
            dropped,
            vec![
                (0, DropReason::CoveredBy { covering_entry: "a:*".into() }),
                (3, DropReason::Duplicate),
                (5, DropReason::CoveredBy { covering_entry: "*:t".into() }),
            ]
        );
        assert_eq!(out.invalid.len(), 1);
        assert_eq!(out.invalid[0].index, 1);
    }

    #[test]
    fn normalize_keeps_the_first_of_identical_entries() {
        let out = normalize(&list(&["a:x", "a:x", "*:*", "*:*"]));
        assert_eq!(out.list, list(&["*:*"]));
        let reasons: Vec<_> = out.dropped.iter().map(|d| (d.index, d.reason.clone())).collect();
        assert_eq!(
            reasons,
            vec![(0, DropReason::CoveredBy { covering_entry: "*:*".into() }), (1, DropReason::Duplicate), (3, DropReason::Duplicate),]
        );
    }

    #[test]
    fn normalize_never_changes_what_is_allowed() {
        let before = list(&["a:x", "a:*", "b:y", "*:y", "c:z", "c:z"]);
        let after = normalize(&before).list;
        let (b, a) = (CompiledAllowlist::new(&before), CompiledAllowlist::new(&after));
        for s in ["a", "b", "c", "d"] {
            for t in ["x", "y", "z", "w"] {
                assert_eq!(b.first_match(s, t).is_some(), a.first_match(s, t).is_some(), "{s}:{t}");
            }
        }
    }
}
