//! Target `mcp_names`: MCP names and `server:tool` entries. The bytes (lossy UTF-8) are split at
//! newlines: the first two pieces are a server and a tool, the rest an allowlist.
//!
//! Properties:
//! - the entry parser and formatter agree: a parsed entry formats back to the same text and parses
//!   again to the same entry; formatting two names succeeds exactly when both names are valid, and
//!   the result parses back to those names;
//! - an entry string matches a call exactly when its parsed form does (invalid entries match nothing);
//! - the compiled allowlist answers what a plain scan over the entries answers: the first matching
//!   entry, the first covering entry, and which entries are invalid — also through a policy of
//!   `mcp` rules, whose deciding rule is that first entry;
//! - editing: after `add_tool` the call is allowlisted; after `remove_entry` the entry is gone;
//! - the internal-name split puts the pieces back together into the name it split.

use toolgate::mcp::internal_name::InternalNameForm;
use toolgate::mcp::{
    add_tool, entry_matches, format_entry, parse_entry, remove_entry, split_tool_name, validate_name, AddStatus, CompiledAllowlist,
    NameKind,
};
use toolgate::policy::{CatalogueName, LayerSpec, Outcome, Policy, PolicySpec, Reason, RuleSpec, ToolRulesSpec};

/// Allowlists in settings are short; a long one only slows the fuzzer.
const MAX_ENTRIES: usize = 32;

pub fn check(data: &[u8]) {
    if data.len() > 4096 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let mut pieces = text.split('\n');
    let server = pieces.next().unwrap_or_default();
    let tool = pieces.next().unwrap_or_default();
    let list: Vec<String> = pieces.take(MAX_ENTRIES).map(str::to_owned).collect();

    check_names(server, tool);
    for entry in std::iter::once(format!("{server}:{tool}")).chain([server.to_owned(), tool.to_owned()]).chain(list.iter().cloned()) {
        check_entry_text(&entry);
    }
    check_allowlist(&list, server, tool);
    check_editing(&list, server, tool);
    check_split(server, tool, &list);
}

fn check_names(server: &str, tool: &str) {
    let valid = validate_name(server, NameKind::Server).is_ok() && validate_name(tool, NameKind::Tool).is_ok();
    match format_entry(server, tool) {
        Ok(entry) => {
            assert!(valid, "format_entry accepted an invalid name: {server:?} / {tool:?}");
            let parsed = parse_entry(&entry).unwrap_or_else(|e| panic!("a formatted entry does not parse: {entry:?}: {e}"));
            assert_eq!((parsed.server.as_str(), parsed.tool.as_str()), (server, tool), "format → parse changed the names of {entry:?}");
        }
        Err(error) => {
            assert!(!valid, "format_entry refused valid names {server:?} / {tool:?}: {error}");
            assert!(!error.to_string().is_empty(), "an entry error without a message");
        }
    }
}

fn check_entry_text(entry: &str) {
    let parsed = parse_entry(entry);
    match &parsed {
        Ok(e) => {
            assert_eq!(e.to_string(), entry, "parse → format is not the identity");
            let formatted =
                format_entry(e.server.as_str(), e.tool.as_str()).unwrap_or_else(|err| panic!("a parsed entry does not format: {err}"));
            assert_eq!(parse_entry(&formatted).as_ref(), Ok(e), "parse → format → parse changed {entry:?}");
        }
        Err(error) => assert!(!error.to_string().is_empty(), "an entry error without a message for {entry:?}"),
    }
    for (server, tool) in [("github", "create_issue"), ("*", "*"), ("", "")] {
        let by_text = entry_matches(server, tool, entry);
        let by_parsed = parsed.as_ref().is_ok_and(|e| e.matches(server, tool));
        assert_eq!(by_text, by_parsed, "entry_matches and McpEntry::matches disagree on {entry:?} for {server:?}/{tool:?}");
    }
}

/// A policy whose one tool (Cursor's `mcp`) allows by these entries and denies otherwise.
fn mcp_rule_policy(list: &[String]) -> Policy {
    let rules = ToolRulesSpec {
        always_allow: list.iter().map(RuleSpec::mcp).collect(),
        default_mode: Some(Outcome::Deny),
        ..ToolRulesSpec::default()
    };
    let layer = LayerSpec { name: "user".into(), tools: [("mcp".to_owned(), rules)].into_iter().collect(), ..LayerSpec::default() };
    Policy::new(PolicySpec { layers: vec![layer], catalogue: CatalogueName::Cursor, ..PolicySpec::default() })
}

fn check_allowlist(list: &[String], server: &str, tool: &str) {
    let compiled = CompiledAllowlist::new(list);
    assert_eq!(compiled.entries(), list, "the compiled list keeps the entries as given");
    let invalid: Vec<usize> = compiled.invalid_entries().iter().map(|e| e.index).collect();
    let scan_invalid: Vec<usize> = list.iter().enumerate().filter(|(_, e)| parse_entry(e).is_err()).map(|(i, _)| i).collect();
    assert_eq!(invalid, scan_invalid, "invalid entries differ from a plain scan of {list:?}");

    let mut calls: Vec<(String, String)> = vec![(server.to_owned(), tool.to_owned())];
    calls.extend(list.iter().filter_map(|e| e.split_once(':')).map(|(s, t)| (s.to_owned(), t.to_owned())));
    calls.push(("github".into(), "create_issue".into()));
    let policy = mcp_rule_policy(list);
    for (s, t) in &calls {
        let scan = list.iter().position(|e| entry_matches(s, t, e));
        assert_eq!(compiled.first_match(s, t), scan, "compiled first_match({s:?}, {t:?}) vs a plain scan of {list:?}");
        let decision = policy.decide("mcp", &[s.clone(), t.clone()]);
        if s.contains(':') || t.contains(':') {
            // No MCP name holds ':', which separates server from tool: such a call cannot be
            // read, so no allow rule covers it (a deny rule could not be sure to meet it either).
            assert_ne!(decision.outcome, Outcome::Allow, "the policy of {list:?} allows the unreadable {s:?}/{t:?}");
            continue;
        }
        match scan {
            Some(index) => {
                assert_eq!(decision.outcome, Outcome::Allow, "the policy of {list:?} does not allow {s:?}/{t:?}: {}", decision.message);
                assert_eq!(decision.reason, Reason::AllowRule);
                assert_eq!(decision.rule.map(|r| r.index), Some(index), "the policy's deciding rule is not the first matching entry");
            }
            None => assert_ne!(decision.outcome, Outcome::Allow, "the policy of {list:?} allows {s:?}/{t:?}, no entry matches"),
        }
    }
    for (i, entry) in list.iter().enumerate() {
        let Ok(parsed) = parse_entry(entry) else { continue };
        let scan = list.iter().position(|e| parse_entry(e).is_ok_and(|other| parsed.is_covered_by(&other)));
        assert_eq!(compiled.first_covering(&parsed, None), scan, "first_covering({entry:?}) vs a plain scan of {list:?}");
        // The index keeps a pattern's first position only, so a later copy of the skipped entry is
        // not seen: `normalize` relies on that to keep the first of several duplicates.
        let later_copy = |j: usize, other: &toolgate::mcp::McpEntry| j > i && *other == parsed;
        let scan_skip = list
            .iter()
            .enumerate()
            .position(|(j, e)| j != i && parse_entry(e).is_ok_and(|other| parsed.is_covered_by(&other) && !later_copy(j, &other)));
        assert_eq!(compiled.first_covering(&parsed, Some(i)), scan_skip, "first_covering({entry:?}, skip {i}) vs a plain scan of {list:?}");
    }
}

fn check_editing(list: &[String], server: &str, tool: &str) {
    let added = add_tool(list, server, tool);
    match added.status {
        AddStatus::Invalid => assert_eq!(added.list, list, "an invalid add changed the list"),
        AddStatus::Added => {
            assert_eq!(added.list.len(), list.len() + 1, "an add appends one entry");
            assert!(CompiledAllowlist::new(&added.list).first_match(server, tool).is_some(), "the added tool is not allowlisted");
        }
        AddStatus::AlreadyPresent | AddStatus::CoveredByWildcard => {
            assert_eq!(added.list, list, "a skipped add changed the list");
            assert!(CompiledAllowlist::new(list).first_match(server, tool).is_some(), "add_tool skipped a tool that is not allowlisted");
        }
    }
    if let Some(entry) = list.first() {
        let removed = remove_entry(list, entry);
        assert!(!removed.list.contains(entry), "remove_entry left {entry:?} in the list");
        assert_eq!(removed.removed, list.iter().filter(|e| *e == entry).count(), "remove_entry miscounted");
    }
}

fn check_split(server: &str, tool: &str, known: &[String]) {
    for name in [format!("mcp__{server}__{tool}"), format!("mcp_{server}_{tool}"), server.to_owned()] {
        let split = split_tool_name(&name, Some("fallback"), known);
        let server_id = split.server_id.clone().unwrap_or_default();
        let rebuilt = match split.form {
            InternalNameForm::DoubleUnderscore => format!("mcp__{server_id}__{}", split.tool_name),
            InternalNameForm::KnownServer | InternalNameForm::FirstUnderscore => format!("mcp_{server_id}_{}", split.tool_name),
            InternalNameForm::NotInternal => {
                assert_eq!(split.server_id.as_deref(), Some("fallback"), "a name that is not internal keeps the fallback server");
                split.tool_name.clone()
            }
        };
        assert_eq!(rebuilt, name, "the split {split:?} does not rebuild {name:?}");
        if split.form == InternalNameForm::KnownServer {
            assert!(known.contains(&server_id), "a known-server split chose {server_id:?}, which is not known");
        }
    }
}
