//! Splitting internal tool names into server and tool (Cursor's MCP allowlist design's internal-name split).
//!
//! Cursor names MCP tools `mcp_<server>_<tool>` and splits at the first `_` after the
//! prefix, which is wrong for server ids such as `my_server`. Given the configured
//! server ids, the longest one that fits wins. Zed and Claude Code use
//! `mcp__<server>__<tool>`, which is recognised first.

use serde::Serialize;

/// How the name was split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum InternalNameForm {
    /// `mcp__<server>__<tool>`.
    DoubleUnderscore,
    /// `mcp_<server>_<tool>` where `<server>` is a known server id.
    KnownServer,
    /// `mcp_<server>_<tool>` split at the first `_`, as the design does.
    FirstUnderscore,
    /// Not an internal MCP name: the tool name as given, with the fallback server.
    NotInternal,
}

/// An internal tool name split into its server and tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SplitToolName {
    /// The server id; the fallback when the name is not internal (absent if none was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_id: Option<String>,
    /// The tool's own name (the whole name when it is not internal).
    pub tool_name: String,
    /// Which form the name had, and so how it was split.
    pub form: InternalNameForm,
}

/// The longest known server id that `rest` starts with, followed by `separator` and a non-empty tool.
fn longest_known<'a>(rest: &'a str, separator: &str, known: &[String]) -> Option<(&'a str, &'a str)> {
    known
        .iter()
        .filter(|server| !server.is_empty())
        .filter_map(|server| {
            let tool = rest.strip_prefix(server.as_str())?.strip_prefix(separator)?;
            let server = rest.get(..server.len())?;
            (!tool.is_empty()).then_some((server, tool))
        })
        .max_by_key(|(server, _)| server.len())
}

fn split(server: &str, tool: &str, form: InternalNameForm) -> SplitToolName {
    SplitToolName { server_id: Some(server.to_owned()), tool_name: tool.to_owned(), form }
}

/// Splits an internal tool name; names that are not internal keep the fallback server.
pub fn split_tool_name(name: &str, fallback_server_id: Option<&str>, known_server_ids: &[String]) -> SplitToolName {
    if let Some(rest) = name.strip_prefix("mcp__") {
        if let Some((server, tool)) = longest_known(rest, "__", known_server_ids) {
            return split(server, tool, InternalNameForm::DoubleUnderscore);
        }
        if let Some((server, tool)) = rest.split_once("__") {
            if !server.is_empty() && !tool.is_empty() {
                return split(server, tool, InternalNameForm::DoubleUnderscore);
            }
        }
    }
    if let Some(rest) = name.strip_prefix("mcp_") {
        if let Some((server, tool)) = longest_known(rest, "_", known_server_ids) {
            return split(server, tool, InternalNameForm::KnownServer);
        }
        // The design's split, kept exactly: it may yield an empty server, which validation then refuses.
        if let Some((server, tool)) = rest.split_once('_') {
            return split(server, tool, InternalNameForm::FirstUnderscore);
        }
    }
    SplitToolName { server_id: fallback_server_id.map(str::to_owned), tool_name: name.to_owned(), form: InternalNameForm::NotInternal }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(name: &str, known: &[&str]) -> (Option<String>, String, InternalNameForm) {
        let known: Vec<String> = known.iter().map(|s| s.to_string()).collect();
        let s = split_tool_name(name, Some("fallback"), &known);
        (s.server_id, s.tool_name, s.form)
    }

    #[test]
    fn seed_split_at_the_first_underscore() {
        assert_eq!(
            parts("mcp_github_create_issue", &[]),
            (Some("github".into()), "create_issue".into(), InternalNameForm::FirstUnderscore)
        );
    }

    #[test]
    fn known_server_ids_with_underscores_win_longest_first() {
        assert_eq!(
            parts("mcp_my_server_run_query", &["my", "my_server"]),
            (Some("my_server".into()), "run_query".into(), InternalNameForm::KnownServer)
        );
        assert_eq!(parts("mcp_my_tool", &["my", "my_server"]), (Some("my".into()), "tool".into(), InternalNameForm::KnownServer));
    }

    #[test]
    fn a_known_server_needs_a_tool_after_it() {
        assert_eq!(parts("mcp_my_server_", &["my_server"]).2, InternalNameForm::FirstUnderscore);
    }

    #[test]
    fn double_underscore_form() {
        assert_eq!(
            parts("mcp__filesystem__read_file", &[]),
            (Some("filesystem".into()), "read_file".into(), InternalNameForm::DoubleUnderscore)
        );
        assert_eq!(parts("mcp__my__srv__tool", &["my__srv"]), (Some("my__srv".into()), "tool".into(), InternalNameForm::DoubleUnderscore));
    }

    #[test]
    fn other_names_keep_the_fallback_server() {
        assert_eq!(parts("read_file", &[]), (Some("fallback".into()), "read_file".into(), InternalNameForm::NotInternal));
        assert_eq!(parts("mcp_nounderscore", &[]), (Some("fallback".into()), "mcp_nounderscore".into(), InternalNameForm::NotInternal));
        let s = split_tool_name("x", None, &[]);
        assert_eq!(s.server_id, None);
    }

    #[test]
    fn seed_split_can_give_an_empty_server_which_validation_refuses() {
        let (server, tool, _) = parts("mcp__x", &[]);
        assert_eq!((server.as_deref(), tool.as_str()), (Some(""), "x"));
        assert!(crate::mcp::name::validate_name("", crate::mcp::name::NameKind::Server).is_err());
    }
}
