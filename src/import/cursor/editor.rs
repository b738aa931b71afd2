//! The Cursor editor's `~/.cursor/permissions.json`: `mcpAllowlist` (`server:tool`,
//! `server:*`) and `terminalAllowlist` (command prefixes), both allow lists. The file is global
//! (one per user), a present key replaces the list set in the editor's UI (even `[]`), and
//! there is no deny or ask list: what no entry allows, the editor asks about.
//!
//! Source: Cursor's permissions.json reference (cursor.com/docs/reference/permissions.md,
//! summarised in `peer-formats.md` §5 CU-PJ, CU-PJ2). It does not say whether a terminal
//! prefix must end at a word: toolgate reads (and writes) it as whole words, and the report says
//! so.

use super::super::{
    is_match_all, rules_of, scope_of, Builder, ExportReport, ExportResult, ExportedFile, ImportError, RulePlace, SourceScope, Translation,
    MCP_TOOL, TERMINAL,
};
use crate::policy::{ListKind, Outcome, PolicySpec, RuleSpec};
use serde_json::{json, Value};

/// Why a deny or confirm rule cannot be written.
pub const NO_DENY_LIST: &str =
    "permissions.json has only allow lists: the editor asks for calls no entry allows but cannot refuse them, so the allow rules that may meet this one are left out";
/// Why a project's allow rule cannot be written.
pub const GLOBAL_ONLY: &str = "permissions.json is global: a project's allow rule written there would apply in every project";
/// How a terminal entry is read (Cursor is silent).
pub const PREFIX_READING: &str =
    "Cursor does not document whether a terminalAllowlist prefix must end at a word; toolgate reads it as whole words";
/// Why an entry of a tool other than the terminal or MCP cannot be written.
pub const ONLY_TERMINAL_AND_MCP: &str = "permissions.json lists only MCP tools and terminal command prefixes";

/// Reads `mcpAllowlist` and `terminalAllowlist` of a settings object as allow rules.
pub(super) fn import_lists(builder: &mut Builder, errors: &mut Vec<ImportError>, scope: SourceScope, trusted: bool, settings: &Value) {
    for key in ["mcpAllowlist", "terminalAllowlist"] {
        let Some(entries) = settings.get(key) else { continue };
        let Some(entries) = entries.as_array() else {
            errors.push(super::invalid(key, "must be an array of strings"));
            continue;
        };
        for (index, entry) in entries.iter().enumerate() {
            let path = format!("{key}[{index}]");
            let Some(text) = entry.as_str() else {
                errors.push(super::invalid(&path, "must be a string"));
                continue;
            };
            let (tool, rule, translation, why) = if key == "mcpAllowlist" {
                match crate::policy::pair_index::PairPattern::mcp_entry(text) {
                    Ok(_) => (MCP_TOOL, RuleSpec::mcp(text), Translation::Exact, None),
                    Err(e) => {
                        builder.report(
                            scope,
                            path,
                            text,
                            Translation::Exact,
                            Some(format!("{e}: it allows nothing (in Cursor too)")),
                            Vec::new(),
                        );
                        continue;
                    }
                }
            } else if text.trim().is_empty() {
                builder.report(scope, path, text, Translation::Exact, Some("an empty prefix allows nothing".into()), Vec::new());
                continue;
            } else {
                let why = "an allow rule never covers a sub-command with a hazard (a file redirection, a substitution, an executing flag)";
                (TERMINAL, RuleSpec::prefix(text), Translation::Stricter, Some(why.to_owned()))
            };
            let place = builder.add(scope, trusted, tool, ListKind::AlwaysAllow, rule);
            builder.report(scope, path, text, translation, why, vec![place]);
        }
    }
}

// ---- export ----

type Written = (Vec<String>, Translation, Option<String>);

/// Writes the policy's allow rules for the terminal and MCP calls as one user
/// `permissions.json`. Both keys are always written, so the file replaces the editor's own lists
/// with exactly the policy's (an empty list included).
pub fn export(policy: &PolicySpec) -> ExportResult {
    let mut mcp: Vec<String> = Vec::new();
    let mut terminal: Vec<String> = Vec::new();
    let mut report = Vec::new();
    for (place, rule) in rules_of(policy) {
        let scope = policy.layers.iter().find(|l| l.name == place.layer).map_or(SourceScope::User, scope_of);
        let (written, translation, why) = if place.list != Some(ListKind::AlwaysAllow) {
            (Vec::new(), Translation::Impossible, Some(NO_DENY_LIST.to_owned()))
        } else if matches!(scope, SourceScope::Project | SourceScope::Local) {
            (Vec::new(), Translation::Impossible, Some(GLOBAL_ONLY.to_owned()))
        } else {
            entries_for(&place.tool, rule)
        };
        let target = if place.tool == MCP_TOOL { &mut mcp } else { &mut terminal };
        for w in &written {
            if !target.contains(w) {
                target.push(w.clone());
            }
        }
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written });
    }
    report.extend(defaults(policy));
    let text = serde_json::to_string_pretty(&json!({ "mcpAllowlist": mcp, "terminalAllowlist": terminal })).unwrap_or_default() + "\n";
    ExportResult { files: vec![ExportedFile { scope: SourceScope::User, text }], report }
}

/// Whether the export writes an entry for an allow rule that the editor applies to at most the
/// calls the rule matches; a deny or confirm rule is never carried (the file has no such list).
pub(crate) fn carries(place: &RulePlace, rule: &RuleSpec, layer: &crate::policy::LayerSpec) -> Option<Translation> {
    let written = place.list == Some(ListKind::AlwaysAllow) && !matches!(scope_of(layer), SourceScope::Project | SourceScope::Local);
    Some(entries_for(&place.tool, rule).1).filter(|t| written && *t != Translation::Impossible)
}

/// The entries one allow rule becomes.
fn entries_for(tool: &str, rule: &RuleSpec) -> Written {
    match tool {
        MCP_TOOL => match rule.mcp.as_deref() {
            Some(entry) if entry.split_once(':').is_some_and(|(server, _)| server.contains('*')) => (
                vec![entry.to_owned()],
                Translation::Stricter,
                Some("Cursor documents only `server:tool` and `server:*`: a wildcard server may allow nothing there".into()),
            ),
            Some(entry) => (vec![entry.to_owned()], Translation::Exact, None),
            None => (Vec::new(), Translation::Impossible, Some("only MCP entries can be written for MCP calls".into())),
        },
        TERMINAL if is_match_all(rule) => (
            Vec::new(),
            Translation::Impossible,
            Some("a prefix cannot allow every command (that is the editor's \"Run everything\" mode, a setting)".into()),
        ),
        TERMINAL => terminal_entries(rule),
        _ => (Vec::new(), Translation::Impossible, Some(ONLY_TERMINAL_AND_MCP.into())),
    }
}

/// A terminal allow rule as word prefixes: prefixes and token prefixes as they are, a glob
/// `head *` as `head`, a regex that is a literal prefix (`^cargo\s+test\b`) as its words —
/// stricter, for a regex can match more (other cases, `\b` before punctuation).
fn terminal_entries(rule: &RuleSpec) -> Written {
    let exact = |lines: Vec<String>| (lines, Translation::Exact, Some(PREFIX_READING.to_owned()));
    if let Some(prefix) = &rule.prefix {
        return exact(vec![prefix.split_whitespace().collect::<Vec<_>>().join(" ")]);
    }
    if let Some(tokens) = &rule.tokens {
        return match super::super::claude::expand_tokens(tokens) {
            Some(lines) => exact(lines),
            None => (Vec::new(), Translation::Impossible, Some("too many alternatives to write out".into())),
        };
    }
    if let Some(glob) = &rule.glob {
        return match glob.strip_suffix(" *").or_else(|| glob.strip_suffix(":*")) {
            Some(head) if !head.contains('*') && !head.trim().is_empty() => exact(vec![head.trim().to_owned()]),
            _ if !glob.contains('*') => {
                (Vec::new(), Translation::Impossible, Some("the glob is one exact command: a prefix would also allow longer ones".into()))
            }
            _ => (Vec::new(), Translation::Impossible, Some("only a glob `<words> *` is a prefix".into())),
        };
    }
    match rule.pattern.as_deref().and_then(literal_prefix) {
        Some(words) => (
            vec![words],
            Translation::Stricter,
            Some(format!("the regex may match more than the words (other letter cases, a longer word); {PREFIX_READING}")),
        ),
        None => (Vec::new(), Translation::Impossible, Some("only a regex that is a literal prefix (`^git\\b`) can be a prefix".into())),
    }
}

/// The words of a regex `^<literal>` ending at `\b`, `\s`, `(\s|$)`, `(?:\s|$)` or nothing,
/// where the literal is words separated by spaces or `\s+`, punctuation escaped or plain.
fn literal_prefix(pattern: &str) -> Option<String> {
    let mut rest = pattern.strip_prefix('^')?;
    for end in [r"(?:\s|$)", r"(\s|$)", r"\b", r"\s"] {
        if let Some(stripped) = rest.strip_suffix(end) {
            rest = stripped;
            break;
        }
    }
    let rest = rest.replace(r"\s+", " ").replace(r"\s", " ");
    let mut literal = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) if escaped.is_ascii_punctuation() || escaped == ' ' => literal.push(escaped),
                _ => return None,
            },
            c if c.is_alphanumeric() || " -_/=:@,%~".contains(c) => literal.push(c),
            _ => return None,
        }
    }
    let words = literal.split_whitespace().collect::<Vec<_>>().join(" ");
    (!words.is_empty()).then_some(words)
}

/// The defaults the file cannot say: the editor asks for what no entry allows, so only a
/// default that asks is written (by omission).
fn defaults(policy: &PolicySpec) -> Vec<ExportReport> {
    let impossible = |place: RulePlace, mode: Outcome| ExportReport {
        place,
        rule: format!("defaultMode {mode:?}"),
        translation: Translation::Impossible,
        why: Some("permissions.json has no default: the editor asks for calls no entry allows".into()),
        written: Vec::new(),
    };
    let mut report = Vec::new();
    if policy.default_mode != Outcome::Confirm {
        report.push(impossible(RulePlace { layer: String::new(), tool: "*".into(), list: None, index: None }, policy.default_mode));
    }
    for layer in &policy.layers {
        if let Some(mode) = layer.default_mode.filter(|m| *m != Outcome::Confirm) {
            report.push(impossible(RulePlace { layer: layer.name.clone(), tool: "*".into(), list: None, index: None }, mode));
        }
        for (tool, rules) in &layer.tools {
            if let Some(mode) = rules.default_mode.filter(|m| *m != Outcome::Confirm) {
                report.push(impossible(RulePlace { layer: layer.name.clone(), tool: tool.clone(), list: None, index: None }, mode));
            }
        }
    }
    report
}
