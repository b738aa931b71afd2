//! Allowlist entries: `server:tool` strings (Cursor's MCP allowlist design) — the entry formatter, the entry parser
//! and the entry matcher.
//!
//! An entry is exactly one `:` between two valid names, either of which may be the
//! wildcard `*`. Matching is case-sensitive and exact, as in the design.

use super::mcp_name::{validate_name, NameError, NameKind, SEPARATOR, WILDCARD};
use serde::Serialize;
use std::fmt;

/// One side of an entry: every name, or one name exactly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NamePattern {
    /// `*`: every name.
    Any,
    /// This name exactly (case-sensitive).
    Exact(String),
}

impl NamePattern {
    fn from_valid_name(name: &str) -> Self {
        if name == WILDCARD {
            NamePattern::Any
        } else {
            NamePattern::Exact(name.to_owned())
        }
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            NamePattern::Any => true,
            NamePattern::Exact(exact) => exact == name,
        }
    }

    /// True when every name this pattern matches is also matched by `other`.
    fn within(&self, other: &NamePattern) -> bool {
        match (other, self) {
            (NamePattern::Any, _) => true,
            (NamePattern::Exact(_), NamePattern::Any) => false,
            (NamePattern::Exact(a), NamePattern::Exact(b)) => a == b,
        }
    }

    /// The side as an entry spells it: the name, or `*`.
    pub fn as_str(&self) -> &str {
        match self {
            NamePattern::Any => WILDCARD,
            NamePattern::Exact(name) => name,
        }
    }
}

/// A parsed, valid allowlist entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct McpEntry {
    /// Which servers the entry covers.
    pub server: NamePattern,
    /// Which tools the entry covers.
    pub tool: NamePattern,
}

impl McpEntry {
    /// Whether this entry allows `tool_name` on `server_id`: the entry matcher.
    pub fn matches(&self, server_id: &str, tool_name: &str) -> bool {
        self.server.matches(server_id) && self.tool.matches(tool_name)
    }

    /// True when every call this entry matches is also matched by `other`.
    pub fn is_covered_by(&self, other: &McpEntry) -> bool {
        self.server.within(&other.server) && self.tool.within(&other.tool)
    }

    /// Whether either side is `*`.
    pub fn has_wildcard(&self) -> bool {
        self.server == NamePattern::Any || self.tool == NamePattern::Any
    }
}

impl fmt::Display for McpEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{SEPARATOR}{}", self.server.as_str(), self.tool.as_str())
    }
}

/// Why an entry string is not a valid entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum EntryError {
    /// No `:` at all.
    MissingSeparator,
    /// More than one `:`.
    TooManySeparators {
        /// How many `:` the string has.
        count: usize,
    },
    /// One of the two names breaks the name rules.
    InvalidName {
        /// Which name, and what is wrong with it.
        name: NameError,
    },
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::MissingSeparator => f.write_str("entry must have the form server:tool (no ':' found)"),
            EntryError::TooManySeparators { count } => write!(f, "entry must have exactly one ':' between server and tool (found {count})"),
            EntryError::InvalidName { name } => name.fmt(f),
        }
    }
}

impl std::error::Error for EntryError {}

impl From<NameError> for EntryError {
    fn from(name: NameError) -> Self {
        EntryError::InvalidName { name }
    }
}

/// The entry formatter: builds the entry string for a server and tool, checking both names.
pub fn format_entry(server_id: &str, tool_name: &str) -> Result<String, EntryError> {
    validate_name(server_id, NameKind::Server)?;
    validate_name(tool_name, NameKind::Tool)?;
    Ok(format!("{server_id}{SEPARATOR}{tool_name}"))
}

/// The entry parser: exactly one `:` and two valid names.
pub fn parse_entry(entry: &str) -> Result<McpEntry, EntryError> {
    let count = entry.matches(SEPARATOR).count();
    let (server, tool) = match (count, entry.split_once(SEPARATOR)) {
        (1, Some(parts)) => parts,
        (0, _) => return Err(EntryError::MissingSeparator),
        _ => return Err(EntryError::TooManySeparators { count }),
    };
    validate_name(server, NameKind::Server)?;
    validate_name(tool, NameKind::Tool)?;
    Ok(McpEntry { server: NamePattern::from_valid_name(server), tool: NamePattern::from_valid_name(tool) })
}

/// The entry matcher on an entry string: whether it allows a call. Invalid entries match nothing.
pub fn entry_matches(server_id: &str, tool_name: &str, entry: &str) -> bool {
    parse_entry(entry).is_ok_and(|parsed| parsed.matches(server_id, tool_name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::matchers::mcp_name::NameProblem;

    #[test]
    fn formats_server_then_tool() {
        assert_eq!(format_entry("github", "create_issue").unwrap(), "github:create_issue");
        assert_eq!(format_entry("github", "*").unwrap(), "github:*");
        assert_eq!(format_entry("*", "*").unwrap(), "*:*");
    }

    #[test]
    fn format_refuses_invalid_names_naming_the_side() {
        let err = format_entry("git:hub", "x").unwrap_err();
        assert!(matches!(err, EntryError::InvalidName { name } if name.kind == NameKind::Server));
        let err = format_entry("github", "").unwrap_err();
        assert!(matches!(err, EntryError::InvalidName { name } if name.kind == NameKind::Tool && name.problem == NameProblem::Empty));
    }

    #[test]
    fn parse_needs_exactly_one_separator() {
        assert_eq!(parse_entry("github"), Err(EntryError::MissingSeparator));
        assert_eq!(parse_entry("a:b:c"), Err(EntryError::TooManySeparators { count: 2 }));
        assert_eq!(parse_entry("::"), Err(EntryError::TooManySeparators { count: 2 }));
        let parsed = parse_entry("github:create_issue").unwrap();
        assert_eq!(parsed.server, NamePattern::Exact("github".into()));
        assert_eq!(parsed.tool, NamePattern::Exact("create_issue".into()));
        assert_eq!(parsed.to_string(), "github:create_issue");
    }

    #[test]
    fn parse_rejects_empty_sides_and_partial_wildcards() {
        assert!(matches!(parse_entry(":tool"), Err(EntryError::InvalidName { name }) if name.kind == NameKind::Server));
        assert!(matches!(parse_entry("server:"), Err(EntryError::InvalidName { name }) if name.kind == NameKind::Tool));
        assert!(parse_entry("git*:tool").is_err());
        assert!(parse_entry("server:create_*").is_err());
        assert!(parse_entry(" :tool").is_err());
    }

    #[test]
    fn exact_entry_matches_only_that_server_and_tool() {
        assert!(entry_matches("github", "create_issue", "github:create_issue"));
        assert!(!entry_matches("github", "delete_repo", "github:create_issue"));
        assert!(!entry_matches("gitlab", "create_issue", "github:create_issue"));
    }

    #[test]
    fn matching_is_case_sensitive() {
        assert!(!entry_matches("GitHub", "create_issue", "github:create_issue"));
        assert!(!entry_matches("github", "Create_Issue", "github:create_issue"));
    }

    #[test]
    fn server_wildcard_matches_every_tool_of_that_server_only() {
        assert!(entry_matches("github", "anything", "github:*"));
        assert!(!entry_matches("gitlab", "anything", "github:*"));
    }

    #[test]
    fn tool_wildcard_matches_that_tool_on_every_server_only() {
        assert!(entry_matches("github", "search", "*:search"));
        assert!(entry_matches("docs", "search", "*:search"));
        assert!(!entry_matches("docs", "delete", "*:search"));
    }

    #[test]
    fn global_wildcard_matches_everything() {
        assert!(entry_matches("any", "thing", "*:*"));
    }

    #[test]
    fn invalid_entries_never_match() {
        for entry in ["github", "github:create_issue:x", ":", "*", "git*:*", ""] {
            assert!(!entry_matches("github", "create_issue", entry), "{entry:?}");
        }
    }

    #[test]
    fn coverage_follows_matching() {
        let e = |s: &str| parse_entry(s).unwrap();
        assert!(e("a:t").is_covered_by(&e("a:*")));
        assert!(e("a:t").is_covered_by(&e("*:t")));
        assert!(e("a:*").is_covered_by(&e("*:*")));
        assert!(e("a:t").is_covered_by(&e("a:t")));
        assert!(!e("a:*").is_covered_by(&e("*:t")));
        assert!(!e("*:t").is_covered_by(&e("a:*")));
        assert!(!e("a:t").is_covered_by(&e("b:*")));
    }
}
