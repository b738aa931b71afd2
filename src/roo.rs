//! The Roo Code dialect (Roo Code's design): per-mode MCP restrictions (`allowedServers`,
//! `disallowedServers`, `allowedTools`, `disallowedTools`) and servers' `defaultEnabled`.
//!
//! A mode's restrictions become one layer of the rule model over Roo's two MCP tools,
//! `use_mcp_tool` (a `(server, tool)` call) and `access_mcp_resource` (a `(server, "")` call),
//! with MCP entries as rules: disallowed servers and tools are deny rules; allowed ones are allow
//! rules under a deny default; without an allow list, servers with `defaultEnabled: false` are
//! denied and the rest allowed. [`crate::policy::Policy`] decides. A name an MCP entry cannot
//! hold (one containing `:`) makes its rule invalid, which fails closed.

use crate::policy::{CatalogueName, LayerKind, LayerSpec, Outcome, Policy, PolicySpec, RuleSpec, ToolRulesSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use crate::policy::catalogue::{ROO_ACCESS_MCP_RESOURCE as ACCESS_MCP_RESOURCE, ROO_USE_MCP_TOOL as USE_MCP_TOOL};

/// One tool of one MCP server, as a mode's restrictions name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ToolRef {
    /// The server's name.
    pub server_name: String,
    /// The tool's name on that server.
    pub tool_name: String,
}

/// A mode's MCP restrictions; every list is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpRestrictions {
    /// Only these servers may be used; absent: any server enabled by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_servers: Option<Vec<String>>,
    /// These servers may never be used (they win over `allowedServers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disallowed_servers: Option<Vec<String>>,
    /// Only these tools may be called; absent: any tool of a usable server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_tools: Option<Vec<ToolRef>>,
    /// These tools may never be called (they win over `allowedTools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disallowed_tools: Option<Vec<ToolRef>>,
}

/// The part of a Roo mode that matters here; other fields (`roleDefinition`, `groups`, …) are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ModeConfig {
    /// The mode's id, such as `code` or `architect`; it names the mode's layer and its error texts.
    pub slug: String,
    /// The mode's MCP restrictions; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_restrictions: Option<McpRestrictions>,
}

/// The part of an MCP server's configuration that matters here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ServerSettings {
    /// Default: true. False: only modes that list the server in `allowedServers` may use it.
    #[serde(default = "yes")]
    pub default_enabled: bool,
}

fn yes() -> bool {
    true
}

/// A server and its tools, as the prompt would describe them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CatalogueServer {
    /// The server's name.
    pub name: String,
    /// The server's tools.
    #[serde(default)]
    pub tools: Vec<CatalogueTool>,
}

/// A tool of an MCP server, as the prompt would describe it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CatalogueTool {
    /// The tool's name.
    pub name: String,
}

fn server_prefix(server: &str) -> String {
    format!("{server}:*")
}

fn exact_tool(server: &str, tool: &str) -> String {
    format!("{server}:{tool}")
}

fn rules(entries: impl IntoIterator<Item = String>) -> Vec<RuleSpec> {
    entries.into_iter().map(RuleSpec::mcp).collect()
}

/// The layer a mode's restrictions become.
pub fn layer_for_mode(mode: &ModeConfig, servers: &BTreeMap<String, ServerSettings>) -> LayerSpec {
    let r = mode.mcp_restrictions.clone().unwrap_or_default();
    let disabled_by_default = servers.iter().filter(|(_, s)| !s.default_enabled).map(|(name, _)| name.clone());
    let mut server_deny: Vec<String> = r.disallowed_servers.iter().flatten().map(|s| server_prefix(s)).collect();
    if r.allowed_servers.is_none() {
        server_deny.extend(disabled_by_default.map(|s| server_prefix(&s)));
    }
    let tool_deny: Vec<String> = r.disallowed_tools.iter().flatten().map(|t| exact_tool(&t.server_name, &t.tool_name)).collect();

    // Which servers are allowed at all: the allow list, else anything not denied. Roo compares
    // names exactly, so a name written `*` allows only a server called `*` (which no valid MCP
    // name is): it must not become the entry wildcard, which would allow every server.
    let literal = |name: &str| name != crate::policy::matchers::mcp_name::WILDCARD;
    let server_allow: Option<Vec<String>> =
        r.allowed_servers.as_ref().map(|list| list.iter().filter(|s| literal(s)).map(|s| server_prefix(s)).collect());
    let tool_allow: Option<Vec<String>> = r.allowed_tools.as_ref().map(|list| {
        list.iter()
            .filter(|t| literal(&t.server_name) && literal(&t.tool_name))
            .filter(|t| r.allowed_servers.as_ref().is_none_or(|allowed| allowed.contains(&t.server_name)))
            .map(|t| exact_tool(&t.server_name, &t.tool_name))
            .collect()
    });

    let default_for = |allow: &Option<Vec<String>>| if allow.is_some() { Outcome::Deny } else { Outcome::Allow };
    let use_tool = ToolRulesSpec {
        default_mode: Some(default_for(&tool_allow.clone().or(server_allow.clone()))),
        always_allow: rules(tool_allow.clone().or(server_allow.clone()).unwrap_or_default()),
        always_deny: rules(server_deny.iter().cloned().chain(tool_deny)),
        always_confirm: Vec::new(),
    };
    let access_resource = ToolRulesSpec {
        default_mode: Some(default_for(&server_allow)),
        always_allow: rules(server_allow.unwrap_or_default()),
        always_deny: rules(server_deny),
        always_confirm: Vec::new(),
    };
    LayerSpec {
        name: format!("mode:{}", mode.slug),
        kind: LayerKind::Mode,
        tools: [(USE_MCP_TOOL.to_owned(), use_tool), (ACCESS_MCP_RESOURCE.to_owned(), access_resource)].into_iter().collect(),
        ..LayerSpec::default()
    }
}

/// A mode's restrictions compiled for deciding.
#[derive(Debug, Clone)]
pub struct ModePolicy {
    slug: String,
    policy: Policy,
}

impl ModePolicy {
    /// Compiles a mode's restrictions, given the configured servers' settings.
    pub fn new(mode: &ModeConfig, servers: &BTreeMap<String, ServerSettings>) -> Self {
        let policy =
            Policy::new(PolicySpec { layers: vec![layer_for_mode(mode, servers)], catalogue: CatalogueName::Roo, ..PolicySpec::default() });
        ModePolicy { slug: mode.slug.clone(), policy }
    }

    /// The rule-model policy the restrictions became.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    fn allows(&self, tool: &str, server: &str, name: &str) -> bool {
        self.policy.outcome(tool, &[server.to_owned(), name.to_owned()]) == Outcome::Allow
    }

    /// Whether the mode may call `tool_name` on `server_name`; the design's error text if not.
    pub fn check_tool(&self, server_name: &str, tool_name: &str) -> Result<(), String> {
        if self.allows(USE_MCP_TOOL, server_name, tool_name) {
            Ok(())
        } else {
            Err(format!("Tool \"{USE_MCP_TOOL}\" is not allowed in {} mode (server: {server_name}, tool: {tool_name}).", self.slug))
        }
    }

    /// Whether the mode may read resources of `server_name`.
    pub fn check_resource(&self, server_name: &str) -> Result<(), String> {
        if self.allows(ACCESS_MCP_RESOURCE, server_name, "") {
            Ok(())
        } else {
            Err(format!("Tool \"{ACCESS_MCP_RESOURCE}\" is not allowed in {} mode (server: {server_name}).", self.slug))
        }
    }

    /// The servers and tools the mode may see, for its prompt; servers it may not use are left out.
    pub fn filter_catalogue(&self, catalogue: &[CatalogueServer]) -> Vec<CatalogueServer> {
        catalogue
            .iter()
            .filter(|s| self.check_resource(&s.name).is_ok())
            .map(|s| CatalogueServer {
                name: s.name.clone(),
                tools: s.tools.iter().filter(|t| self.check_tool(&s.name, &t.name).is_ok()).cloned().collect(),
            })
            .collect()
    }
}

/// A problem with a mode's restrictions, for a settings page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RestrictionIssue {
    /// `error`: contradictory; `warning`: probably a mistake.
    pub severity: Severity,
    /// What kind of problem it is.
    pub code: IssueCode,
    /// Where, e.g. `mcpRestrictions.allowedServers[1]`.
    pub path: String,
    /// The problem in words.
    pub message: String,
}

/// What kind of problem a restriction has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum IssueCode {
    /// Both allowed and disallowed (disallowed wins).
    Conflict,
    /// A server that is not configured.
    UnknownServer,
    /// A tool its server does not have.
    UnknownTool,
    /// An allowed tool whose server can never be used in the mode.
    UnreachableTool,
}

/// How serious a restriction problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Severity {
    /// Contradictory: the restrictions cannot all hold.
    Error,
    /// Probably a mistake, such as a name that is not configured.
    Warning,
}

/// Checks a mode's restrictions against each other and against the known servers and tools.
pub fn validate(mode: &ModeConfig, catalogue: &[CatalogueServer]) -> Vec<RestrictionIssue> {
    let Some(r) = &mode.mcp_restrictions else { return Vec::new() };
    let mut issues = Vec::new();
    let mut issue = |severity, code, path: String, message: String| issues.push(RestrictionIssue { severity, code, path, message });
    let known = |s: &str| catalogue.iter().any(|c| c.name == s);
    let has_tool = |s: &str, t: &str| catalogue.iter().any(|c| c.name == s && c.tools.iter().any(|x| x.name == t));
    let allowed = r.allowed_servers.clone().unwrap_or_default();
    let disallowed = r.disallowed_servers.clone().unwrap_or_default();
    for (i, s) in allowed.iter().enumerate() {
        if disallowed.contains(s) {
            issue(
                Severity::Error,
                IssueCode::Conflict,
                format!("mcpRestrictions.allowedServers[{i}]"),
                format!("server \"{s}\" is both allowed and disallowed; disallowed wins"),
            );
        }
        if !known(s) {
            issue(
                Severity::Warning,
                IssueCode::UnknownServer,
                format!("mcpRestrictions.allowedServers[{i}]"),
                format!("server \"{s}\" is not configured"),
            );
        }
    }
    for (i, s) in disallowed.iter().enumerate() {
        if !known(s) {
            issue(
                Severity::Warning,
                IssueCode::UnknownServer,
                format!("mcpRestrictions.disallowedServers[{i}]"),
                format!("server \"{s}\" is not configured"),
            );
        }
    }
    let disallowed_tools = r.disallowed_tools.clone().unwrap_or_default();
    for (i, t) in r.allowed_tools.iter().flatten().enumerate() {
        let path = format!("mcpRestrictions.allowedTools[{i}]");
        if disallowed_tools.contains(t) {
            issue(
                Severity::Error,
                IssueCode::Conflict,
                path.clone(),
                format!("tool \"{}\" on \"{}\" is both allowed and disallowed; disallowed wins", t.tool_name, t.server_name),
            );
        }
        if disallowed.contains(&t.server_name) || (r.allowed_servers.is_some() && !allowed.contains(&t.server_name)) {
            issue(
                Severity::Warning,
                IssueCode::UnreachableTool,
                path.clone(),
                format!("tool \"{}\" can never be used: server \"{}\" is not allowed in this mode", t.tool_name, t.server_name),
            );
        }
        if !has_tool(&t.server_name, &t.tool_name) {
            issue(Severity::Warning, IssueCode::UnknownTool, path, format!("server \"{}\" has no tool \"{}\"", t.server_name, t.tool_name));
        }
    }
    for (i, t) in disallowed_tools.iter().enumerate() {
        if !has_tool(&t.server_name, &t.tool_name) {
            issue(
                Severity::Warning,
                IssueCode::UnknownTool,
                format!("mcpRestrictions.disallowedTools[{i}]"),
                format!("server \"{}\" has no tool \"{}\"", t.server_name, t.tool_name),
            );
        }
    }
    issues
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers() -> BTreeMap<String, ServerSettings> {
        [("weather-server", true), ("admin-server", false), ("docs-server", true), ("database-admin", true)]
            .into_iter()
            .map(|(n, e)| (n.to_owned(), ServerSettings { default_enabled: e }))
            .collect()
    }

    fn mode(json: &str) -> ModeConfig {
        serde_json::from_str(json).unwrap()
    }

    fn tool(s: &str, t: &str) -> ToolRef {
        ToolRef { server_name: s.into(), tool_name: t.into() }
    }

    #[test]
    fn no_restrictions_allow_every_default_enabled_server() {
        let p = ModePolicy::new(&mode(r#"{"slug":"code"}"#), &servers());
        assert!(p.check_tool("weather-server", "get_forecast").is_ok());
        assert!(p.check_tool("unconfigured", "x").is_ok(), "defaultEnabled defaults to true");
        assert_eq!(
            p.check_tool("admin-server", "drop").unwrap_err(),
            "Tool \"use_mcp_tool\" is not allowed in code mode (server: admin-server, tool: drop)."
        );
        assert!(p.check_resource("admin-server").is_err());
    }

    #[test]
    fn a_name_written_star_is_a_literal_name_in_roo_and_allows_no_other_server() {
        // Roo compares names exactly: `*` in an allow list is not a wildcard (found by fuzzing).
        let p = ModePolicy::new(&mode(r#"{"slug":"m","mcpRestrictions":{"allowedServers":["*","docs-server"]}}"#), &servers());
        assert!(p.check_resource("docs-server").is_ok());
        assert!(p.check_resource("weather-server").is_err());
        assert!(p.check_tool("weather-server", "get_forecast").is_err());
        let p = ModePolicy::new(
            &mode(
                r#"{"slug":"m","mcpRestrictions":{"allowedTools":[{"serverName":"*","toolName":"search"},{"serverName":"docs-server","toolName":"*"},{"serverName":"docs-server","toolName":"read"}]}}"#,
            ),
            &servers(),
        );
        assert!(p.check_tool("docs-server", "read").is_ok());
        assert!(p.check_tool("weather-server", "search").is_err());
        assert!(p.check_tool("docs-server", "write").is_err());
    }

    #[test]
    fn the_seeds_production_mode() {
        let m = mode(
            r#"{"slug":"production-mode","name":"Production Mode","groups":["read","edit","mcp"],
            "mcpRestrictions":{"allowedServers":["docs-server","weather-server"],"disallowedServers":["admin-server","database-admin"]}}"#,
        );
        let p = ModePolicy::new(&m, &servers());
        assert!(p.check_tool("docs-server", "search_docs").is_ok());
        assert!(p.check_tool("weather-server", "get_forecast").is_ok());
        assert!(p.check_tool("admin-server", "x").is_err());
        assert!(p.check_tool("database-admin", "x").is_err());
        assert!(p.check_tool("other", "x").is_err(), "not in allowedServers");
    }

    #[test]
    fn default_enabled_false_servers_are_hidden_unless_allowed() {
        let opt_in = mode(r#"{"slug":"admin","mcpRestrictions":{"allowedServers":["admin-server"]}}"#);
        assert!(ModePolicy::new(&opt_in, &servers()).check_tool("admin-server", "x").is_ok());
        let other = mode(r#"{"slug":"code","mcpRestrictions":{"disallowedServers":["docs-server"]}}"#);
        assert!(ModePolicy::new(&other, &servers()).check_tool("admin-server", "x").is_err());
    }

    #[test]
    fn disallowed_servers_win_over_default_enabled_and_allowed() {
        let m = mode(r#"{"slug":"m","mcpRestrictions":{"allowedServers":["weather-server"],"disallowedServers":["weather-server"]}}"#);
        assert!(ModePolicy::new(&m, &servers()).check_tool("weather-server", "x").is_err());
        let m = mode(r#"{"slug":"m","mcpRestrictions":{"disallowedServers":["weather-server"]}}"#);
        assert!(ModePolicy::new(&m, &servers()).check_resource("weather-server").is_err());
    }

    /// A call naming its server and tool in one `server:tool` string meets the mode's
    /// restrictions as the pair does; a name holding ':' (which no MCP name holds) is never allowed.
    #[test]
    fn a_call_of_the_wrong_shape_never_passes_a_disallowed_server() {
        let m = ModePolicy::new(&mode(r#"{"slug":"m","mcpRestrictions":{"disallowedServers":["evil"]}}"#), &servers());
        let decide = |inputs: &[&str]| m.policy().decide(USE_MCP_TOOL, &inputs.iter().map(|i| (*i).to_owned()).collect::<Vec<_>>()).outcome;
        assert_eq!(decide(&["evil:x"]), Outcome::Deny);
        assert_eq!(decide(&["evil", "x"]), Outcome::Deny);
        assert_eq!(decide(&["docs-server:search"]), Outcome::Allow);
        assert!(m.check_tool("evil:x", "").is_err() && m.check_tool("evil", "x:y").is_err());
        assert!(m.check_tool("docs-server", "search").is_ok());
    }

    #[test]
    fn tool_lists() {
        let m = ModeConfig {
            slug: "secure-mode".into(),
            mcp_restrictions: Some(McpRestrictions {
                allowed_servers: Some(vec!["weather-server".into(), "docs-server".into()]),
                disallowed_servers: Some(vec!["admin-server".into()]),
                allowed_tools: Some(vec![tool("weather-server", "get_forecast"), tool("docs-server", "search_docs")]),
                disallowed_tools: Some(vec![tool("weather-server", "admin_function")]),
            }),
        };
        let p = ModePolicy::new(&m, &servers());
        assert!(p.check_tool("weather-server", "get_forecast").is_ok());
        assert!(p.check_tool("docs-server", "search_docs").is_ok());
        assert!(p.check_tool("weather-server", "admin_function").is_err());
        assert!(p.check_tool("weather-server", "other").is_err(), "not in allowedTools");
        assert!(p.check_resource("weather-server").is_ok(), "resources are server-level");
        let only_deny = mode(r#"{"slug":"m","mcpRestrictions":{"disallowedTools":[{"serverName":"docs-server","toolName":"delete"}]}}"#);
        let p = ModePolicy::new(&only_deny, &servers());
        assert!(p.check_tool("docs-server", "delete").is_err());
        assert!(p.check_tool("docs-server", "search").is_ok());
    }

    #[test]
    fn names_are_matched_exactly_not_as_patterns() {
        let m = mode(r#"{"slug":"m","mcpRestrictions":{"allowedServers":["a.b"]}}"#);
        let p = ModePolicy::new(&m, &servers());
        assert!(p.check_tool("a.b", "t").is_ok());
        assert!(p.check_tool("axb", "t").is_err());
        assert!(p.check_tool("a.b\u{1f}x", "t").is_err(), "a separator in a name cannot forge a pair");
    }

    #[test]
    fn the_catalogue_is_filtered_for_the_prompt() {
        let catalogue: Vec<CatalogueServer> = serde_json::from_str(
            r#"[
            {"name":"weather-server","tools":[{"name":"get_forecast"},{"name":"admin_function"}]},
            {"name":"admin-server","tools":[{"name":"drop"}]},
            {"name":"docs-server","tools":[{"name":"search_docs"},{"name":"edit_docs"}]}]"#,
        )
        .unwrap();
        let m = mode(
            r#"{"slug":"secure","mcpRestrictions":{"allowedTools":[{"serverName":"weather-server","toolName":"get_forecast"},{"serverName":"docs-server","toolName":"search_docs"}]}}"#,
        );
        let visible = ModePolicy::new(&m, &servers()).filter_catalogue(&catalogue);
        let names: Vec<(String, Vec<String>)> =
            visible.into_iter().map(|s| (s.name, s.tools.into_iter().map(|t| t.name).collect())).collect();
        assert_eq!(names, vec![("weather-server".into(), vec!["get_forecast".into()]), ("docs-server".into(), vec!["search_docs".into()])]);
    }

    #[test]
    fn validation_reports_conflicts_and_unknown_names() {
        let catalogue = vec![CatalogueServer { name: "docs".into(), tools: vec![CatalogueTool { name: "search".into() }] }];
        let m = mode(
            r#"{"slug":"m","mcpRestrictions":{"allowedServers":["docs","ghost"],"disallowedServers":["docs"],
            "allowedTools":[{"serverName":"docs","toolName":"search"},{"serverName":"docs","toolName":"nope"}],
            "disallowedTools":[{"serverName":"docs","toolName":"search"}]}}"#,
        );
        let issues = validate(&m, &catalogue);
        let got: Vec<(Severity, &str)> = issues.iter().map(|i| (i.severity, i.path.as_str())).collect();
        assert!(got.contains(&(Severity::Error, "mcpRestrictions.allowedServers[0]")), "{issues:?}");
        assert!(got.contains(&(Severity::Warning, "mcpRestrictions.allowedServers[1]")), "{issues:?}");
        assert!(got.contains(&(Severity::Error, "mcpRestrictions.allowedTools[0]")), "{issues:?}");
        assert!(got.contains(&(Severity::Warning, "mcpRestrictions.allowedTools[1]")), "{issues:?}");
        assert!(issues.iter().any(|i| i.message == "server \"ghost\" is not configured"));
        assert!(validate(&mode(r#"{"slug":"m"}"#), &catalogue).is_empty());
    }
}
