//! The settings page's document: every section a person edits on toolgate's settings
//! page in one value — Cursor's MCP allowlist with its auto-run mode and protections, the tool
//! rules of the Zed model per layer, Roo Code's per-mode MCP restrictions and Gasoline's YAML
//! allowlist — together with what the extension host knows besides ([`PageContext`]: the MCP
//! catalogue, the administrator's state, workspace trust).
//!
//! The webview validates a draft with [`validate`] as the user types, and the extension host
//! validates it again with the same function before it persists anything, so the two cannot
//! disagree. Every problem is a [`Problem`] whose `path` names the entry it concerns
//! (`mcp.mcpAllowedTools[2]`, `rules.user.tools.terminal.alwaysAllow[0]`,
//! `roo.modes[0].mcpRestrictions.allowedServers[1]`, `gasoline.yaml`), with the line and column
//! of text input: the line and column of a YAML error, the character where a regex goes wrong.
//! Errors block a save; warnings (an entry a wildcard already covers, a name the catalogue does
//! not know, a list an administrator overrides) do not.
//!
//! The decisions the page shows come from the policies built here: [`rules_policy`] (Zed's
//! switches over the managed, user and project layers) and [`mcp_settings`] (Cursor's MCP
//! decision), so the host decides a call exactly as the page previewed it.

use crate::gasoline::AllowlistSummary;
use crate::input::{from_json, InputError};
use crate::lint::{regex_error_column, LintCode};
use crate::mcp::edit::DropReason;
use crate::mcp::{self, AutoRunMode, McpSettings};
use crate::policy::catalogue::{self, CatalogueName, InputKind};
use crate::policy::{LayerKind, LayerSpec, Outcome, PolicySpec, RuleSpec, SettingsChange, ToolRulesSpec};
use crate::problem::{self, Problem};
use crate::roo::{self, CatalogueServer, CatalogueTool, ModeConfig, ServerSettings};
use crate::shell::Shell;
use crate::zed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything the settings page edits, as the extension host stores it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PageSettings {
    /// Cursor's MCP allowlist, auto-run mode and protections (Cursor's MCP allowlist design).
    #[serde(default)]
    pub mcp: McpSection,
    /// Tool rules of the Zed model, per layer the user may edit (Zed's design).
    #[serde(default)]
    pub rules: RulesSection,
    /// Roo Code's per-mode MCP restrictions (Roo Code's design).
    #[serde(default)]
    pub roo: RooSection,
    /// Gasoline's YAML allowlist (Gasoline's design).
    #[serde(default)]
    pub gasoline: GasolineSection,
}

/// The user's MCP settings: what Cursor keeps in `composerState`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpSection {
    /// The auto-run mode. Default: `yolo` (calls in the allowlist run, others ask).
    #[serde(default = "allowlist_mode")]
    pub mode: AutoRunMode,
    /// The user's `server:tool` entries.
    #[serde(default)]
    pub mcp_allowed_tools: Vec<String>,
    /// Every MCP call asks while this is on. Default: true.
    #[serde(default = "yes")]
    pub mcp_tools_protection: bool,
    /// Every browser-tool call asks while this is on. Default: true.
    #[serde(default = "yes")]
    pub playwright_protection: bool,
}

fn allowlist_mode() -> AutoRunMode {
    AutoRunMode::Yolo
}

fn yes() -> bool {
    true
}

impl Default for McpSection {
    fn default() -> Self {
        McpSection { mode: allowlist_mode(), mcp_allowed_tools: Vec::new(), mcp_tools_protection: true, playwright_protection: true }
    }
}

/// The layers of tool rules the user edits; a managed layer comes from the host's context.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RulesSection {
    /// The user's own rules (VS Code's user settings).
    #[serde(default)]
    pub user: LayerRules,
    /// The workspace's rules; while the workspace is not trusted, its allow rules and
    /// allowing defaults are ignored.
    #[serde(default)]
    pub project: LayerRules,
}

/// One layer's rules: Zed's `agent.tool_permissions`, in the rule model's spelling.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LayerRules {
    /// The layer's default for tools without a `defaultMode` of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Outcome>,
    /// Per tool id (`terminal`, `edit_file`, `fetch`, `mcp__<server>__<tool>`, …).
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, ToolRulesSpec>"))]
    pub tools: BTreeMap<String, ToolRulesSpec>,
}

/// Roo Code's modes, as far as MCP restrictions go.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RooSection {
    /// Each mode's slug and `mcpRestrictions` (other fields of a Roo mode are not kept here).
    #[serde(default)]
    pub modes: Vec<ModeConfig>,
}

/// Gasoline's allowlist file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GasolineSection {
    /// The YAML text (`allowed_tools:` and its patterns); empty: no allowlist.
    #[serde(default)]
    pub yaml: String,
}

/// What the extension host knows besides the settings: sent with them, never edited by the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PageContext {
    /// The MCP servers the host has configured, with their tools.
    #[serde(default)]
    pub catalogue: McpCatalogue,
    /// What an administrator has set.
    #[serde(default)]
    pub admin: AdminState,
    /// Whether the workspace is trusted; an untrusted project layer may only make decisions
    /// stricter. Default: true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_trusted: Option<bool>,
    /// The terminal's shell. Default: posix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell: Option<Shell>,
    /// Include Zed's shipped default deny rules as the lowest layer. Default: true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_defaults: Option<bool>,
}

/// The configured MCP servers and their tools.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpCatalogue {
    /// The servers, in the order to show them.
    #[serde(default)]
    pub servers: Vec<McpServerInfo>,
}

/// One configured MCP server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpServerInfo {
    /// The server's name (its id in `server:tool` entries).
    pub name: String,
    /// Roo's `defaultEnabled`: false means only modes that allow the server may use it. Default: true.
    #[serde(default = "yes")]
    pub default_enabled: bool,
    /// The server's tools.
    #[serde(default)]
    pub tools: Vec<CatalogueTool>,
}

/// What an administrator has set: read-only on the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AdminState {
    /// Cursor's team controls over MCP auto-run.
    #[serde(default)]
    pub mcp: AdminMcp,
    /// A managed layer of tool rules, above the user's and the project's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed: Option<LayerRules>,
}

/// Cursor's team controls over MCP auto-run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AdminMcp {
    /// The administrator controls auto-run: the user's allowlist is ignored.
    #[serde(default)]
    pub is_admin_controlled: bool,
    /// The administrator turned MCP auto-run off: every MCP call asks.
    #[serde(default)]
    pub is_disabled_by_admin: bool,
    /// The administrator's entries: the only list that counts under admin control.
    #[serde(default)]
    pub admin_mcp_allowed_tools: Vec<String>,
}

/// The outcome of validating a draft: errors block a save, warnings do not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SettingsValidation {
    /// True when there are no errors: the settings may be saved.
    pub ok: bool,
    /// What must be fixed before the settings can be saved, each at the entry it concerns.
    pub errors: Vec<Problem>,
    /// Probable mistakes and things worth knowing; they do not block a save.
    pub warnings: Vec<Problem>,
    /// The settings as read, with defaults filled in; absent when the draft could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub settings: Option<PageSettings>,
}

/// What the page previews besides problems: what each section would report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SettingsPreview {
    /// What Gasoline's `server_config` would report; absent while the YAML has errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub gasoline: Option<AllowlistSummary>,
    /// Per Roo mode, in order: the servers and tools its prompt would describe.
    pub modes: Vec<ModePreview>,
}

/// The catalogue a Roo mode's prompt would describe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ModePreview {
    /// The mode's slug.
    pub slug: String,
    /// The servers the mode may use, each with the tools it may call.
    pub servers: Vec<CatalogueServer>,
}

/// A tool of the catalogue the page's rules apply to, and what its input is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PageTool {
    /// The tool id rules are keyed by.
    pub tool: String,
    /// What a call's input is: a command, a path, two paths, a URL, a query.
    pub input: InputKind,
}

/// Where a problem is: a path inside the settings (or `context.…` for the host's context).
fn at(problem: Problem, path: String) -> Problem {
    Problem { path: Some(path), ..problem }
}

fn problem(code: &str, message: String, path: String) -> Problem {
    Problem { code: code.into(), message, path: Some(path), line: None, column: None }
}

/// Reads a draft from JSON text; a draft that cannot be read is a problem naming its path.
pub fn read_settings(json: &str) -> Result<PageSettings, Problem> {
    from_json("settings", json).map_err(|e: InputError| Problem::from(&e))
}

/// Reads the host's context from JSON text.
pub fn read_context(json: &str) -> Result<PageContext, Problem> {
    from_json("context", json).map_err(|e: InputError| Problem::from(&e))
}

/// Validates a draft given as JSON text: an unreadable draft is an error, never a panic or a throw.
pub fn validate_json(draft: &str, context: &PageContext) -> SettingsValidation {
    validate_json_with::<true>(draft, context)
}

/// [`validate_json`] without lint's findings: the same errors, and every warning but lint's. The
/// settings page's own module checks drafts with this, so that it holds neither lint nor the
/// engine lint decides with; the page asks the tools' module for the findings later.
pub fn validate_json_without_lint(draft: &str, context: &PageContext) -> SettingsValidation {
    validate_json_with::<false>(draft, context)
}

fn validate_json_with<const LINT: bool>(draft: &str, context: &PageContext) -> SettingsValidation {
    match read_settings(draft) {
        Ok(settings) => validate_with::<LINT>(&settings, context),
        Err(problem) => SettingsValidation { ok: false, errors: vec![problem], warnings: Vec::new(), settings: None },
    }
}

/// Validates every section of the settings, pointing each problem at its entry.
pub fn validate(settings: &PageSettings, context: &PageContext) -> SettingsValidation {
    validate_with::<true>(settings, context)
}

/// `LINT`: whether lint's findings are among the warnings (a constant, so that a build whose
/// exports only ever pass `false` leaves lint out).
fn validate_with<const LINT: bool>(settings: &PageSettings, context: &PageContext) -> SettingsValidation {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    check_mcp(settings, context, &mut errors, &mut warnings);
    check_rules::<LINT>(settings, context, &mut errors, &mut warnings);
    check_roo(settings, context, &mut errors, &mut warnings);
    if let Err(problems) = problem::gasoline_allowlist(&settings.gasoline.yaml) {
        errors.extend(problems.into_iter().map(|p| at(p, "gasoline.yaml".into())));
    }
    SettingsValidation { ok: errors.is_empty(), errors, warnings, settings: Some(settings.clone()) }
}

fn check_allowlist(list: &[String], path: &str, invalid: &mut Vec<Problem>, covered: &mut Vec<Problem>) {
    let normalized = mcp::normalize(list);
    for bad in &normalized.invalid {
        let reason = Problem::from(&bad.error);
        invalid.push(problem(
            &reason.code,
            format!("\"{}\" is not a valid entry: {}", bad.entry, bad.message),
            format!("{path}[{}]", bad.index),
        ));
    }
    for dropped in &normalized.dropped {
        let first = |entry: &str| list.iter().position(|e| e == entry).unwrap_or_default();
        let (code, message) = match &dropped.reason {
            DropReason::Duplicate => ("duplicate", format!("\"{}\" is already entry {}", dropped.entry, first(&dropped.entry) + 1)),
            DropReason::CoveredBy { covering_entry } => (
                "coveredByWildcard",
                format!("\"{}\" is already allowed by \"{covering_entry}\" (entry {})", dropped.entry, first(covering_entry) + 1),
            ),
        };
        covered.push(problem(code, message, format!("{path}[{}]", dropped.index)));
    }
}

fn check_mcp(settings: &PageSettings, context: &PageContext, errors: &mut Vec<Problem>, warnings: &mut Vec<Problem>) {
    check_allowlist(&settings.mcp.mcp_allowed_tools, "mcp.mcpAllowedTools", errors, warnings);
    let admin = &context.admin.mcp;
    if admin.is_admin_controlled {
        warnings.push(problem(
            "ignoredUnderAdminControl",
            "An administrator controls MCP auto-run: your allowlist is ignored and only the administrator's list counts.".into(),
            "mcp.mcpAllowedTools".into(),
        ));
    }
    if admin.is_disabled_by_admin {
        warnings.push(problem(
            "disabledByAdmin",
            "An administrator turned MCP auto-run off: every MCP call asks, whatever the mode.".into(),
            "mcp.mode".into(),
        ));
    }
    // The administrator's mistakes are not the user's to fix: warnings, never errors.
    let mut admin_problems = Vec::new();
    check_allowlist(&admin.admin_mcp_allowed_tools, "context.admin.mcp.adminMcpAllowedTools", &mut admin_problems, warnings);
    warnings.append(&mut admin_problems);
}

/// The tools of the Zed catalogue, the terminal first and the rest by name.
pub fn page_tools(context: &PageContext) -> Vec<PageTool> {
    let mut tools: Vec<PageTool> = catalogue::tools(CatalogueName::Zed)
        .into_iter()
        .map(|(tool, input)| {
            let input = match input {
                InputKind::Command { .. } => InputKind::Command { shell: context.shell.unwrap_or_default() },
                other => other,
            };
            PageTool { tool, input }
        })
        .collect();
    tools.sort_by(|a, b| (a.tool != zed::TERMINAL, &a.tool).cmp(&(b.tool != zed::TERMINAL, &b.tool)));
    tools
}

/// Reads one of a tool's rule lists.
type ListOf = fn(&ToolRulesSpec) -> &Vec<RuleSpec>;

const LISTS: [(&str, ListOf); 3] =
    [("alwaysAllow", |t| &t.always_allow), ("alwaysConfirm", |t| &t.always_confirm), ("alwaysDeny", |t| &t.always_deny)];

fn check_layer(layer: &LayerRules, path: &str, known: &[PageTool], errors: &mut Vec<Problem>, warnings: &mut Vec<Problem>) {
    for (tool, rules) in &layer.tools {
        let tool_path = format!("{path}.tools.{tool}");
        if tool.trim().is_empty() {
            errors.push(problem("invalidTool", "A tool id must not be empty".into(), tool_path.clone()));
        } else if !known.iter().any(|k| &k.tool == tool) && !tool.starts_with("mcp__") {
            warnings.push(problem(
                "unknownTool",
                format!("\"{tool}\" is not a built-in tool: its rules apply only to a custom tool with this id (MCP tools are named mcp__<server>__<tool>)"),
                tool_path.clone(),
            ));
        }
        for (list, rules_of) in LISTS {
            for (index, rule) in rules_of(rules).iter().enumerate() {
                let rule_path = format!("{tool_path}.{list}[{index}]");
                match crate::policy::rules::compile_rule(rule) {
                    Err(error) => {
                        let column = rule.pattern.as_deref().and_then(regex_error_column);
                        let place = column.map(|c| format!(" at column {c}")).unwrap_or_default();
                        let message = format!("\"{}\" is not a valid pattern{place}: {error}", rule.text());
                        errors.push(Problem {
                            code: "invalidPattern".into(),
                            message,
                            path: Some(rule_path),
                            line: column.map(|_| 1),
                            column,
                        });
                    }
                    Ok(_) if rule.text().is_empty() => {
                        warnings.push(problem("emptyPattern", format!("An empty pattern matches every call of {tool}"), rule_path))
                    }
                    Ok(_) => {}
                }
            }
        }
    }
}

fn check_rules<const LINT: bool>(settings: &PageSettings, context: &PageContext, errors: &mut Vec<Problem>, warnings: &mut Vec<Problem>) {
    let known = page_tools(context);
    check_layer(&settings.rules.user, "rules.user", &known, errors, warnings);
    check_layer(&settings.rules.project, "rules.project", &known, errors, warnings);
    if let Some(managed) = &context.admin.managed {
        let mut managed_errors = Vec::new();
        check_layer(managed, "context.admin.managed", &known, &mut managed_errors, warnings);
        warnings.append(&mut managed_errors);
    }
    if LINT {
        check_lint(settings, context, warnings);
    }
    let project = &settings.rules.project;
    let loosens = project.default_mode == Some(Outcome::Allow)
        || project.tools.values().any(|t| !t.always_allow.is_empty() || t.default_mode == Some(Outcome::Allow));
    if context.project_trusted == Some(false) && loosens {
        warnings.push(problem(
            "untrustedProject",
            "The workspace is not trusted: the project layer's allow rules and allowing defaults are ignored until it is.".into(),
            "rules.project".into(),
        ));
    }
}

/// The lint findings about the user's and the project's rules (shadowed, over-broad, escapable by
/// another spelling, …), as warnings at the rule they concern: they never block a save. Invalid
/// patterns are errors already ([`check_layer`]); Zed's defaults and the managed layer are not the
/// user's to fix, so their findings are left out.
fn check_lint(settings: &PageSettings, context: &PageContext, warnings: &mut Vec<Problem>) {
    let spec = rules_policy(settings, context);
    let bases: Vec<(String, &str)> = spec
        .layers
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l.name.as_str() {
            zed::USER_LAYER => Some((format!("layers[{i}]"), "rules.user")),
            zed::PROJECT_LAYER => Some((format!("layers[{i}]"), "rules.project")),
            _ => None,
        })
        .collect();
    // A spec path such as `layers[3].tools.terminal.alwaysAllow[0]` as the page names it.
    let on_page = |text: &str| bases.iter().fold(text.to_owned(), |t, (spec, page)| t.replace(&format!("{spec}."), &format!("{page}.")));
    for finding in crate::lint::lint(spec).findings {
        if matches!(finding.code, LintCode::InvalidPattern | LintCode::UnsupportedRegexFeature) {
            continue;
        }
        if !bases.iter().any(|(spec, _)| finding.path.starts_with(&format!("{spec}."))) {
            continue;
        }
        let mut message = on_page(&finding.message);
        if let Some(input) = &finding.input {
            message.push_str(&format!(" (for example: {input})"));
        }
        warnings.push(Problem { code: finding.code.name().into(), message, path: Some(on_page(&finding.path)), line: None, column: None });
    }
}

fn roo_catalogue(context: &PageContext) -> Vec<CatalogueServer> {
    context.catalogue.servers.iter().map(|s| CatalogueServer { name: s.name.clone(), tools: s.tools.clone() }).collect()
}

fn roo_servers(context: &PageContext) -> BTreeMap<String, ServerSettings> {
    context.catalogue.servers.iter().map(|s| (s.name.clone(), ServerSettings { default_enabled: s.default_enabled })).collect()
}

fn check_roo(settings: &PageSettings, context: &PageContext, errors: &mut Vec<Problem>, warnings: &mut Vec<Problem>) {
    let catalogue = roo_catalogue(context);
    for (index, mode) in settings.roo.modes.iter().enumerate() {
        let path = format!("roo.modes[{index}]");
        if mode.slug.trim().is_empty() {
            errors.push(problem("emptySlug", "A mode needs a slug, such as `code` or `architect`".into(), format!("{path}.slug")));
        } else if let Some(first) = settings.roo.modes.iter().position(|m| m.slug == mode.slug).filter(|&first| first < index) {
            errors.push(problem(
                "duplicateSlug",
                format!("Mode \"{}\" is already mode {}: each slug names one mode", mode.slug, first + 1),
                format!("{path}.slug"),
            ));
        }
        let validation = problem::validate_mode(mode, &catalogue);
        let located = |p: Problem| {
            let inner = p.path.clone().unwrap_or_default();
            at(p, format!("{path}.{inner}"))
        };
        errors.extend(validation.errors.into_iter().map(located));
        warnings.extend(validation.warnings.into_iter().map(located));
    }
}

/// What each section would report: Gasoline's summary, and each Roo mode's catalogue.
pub fn preview(settings: &PageSettings, context: &PageContext) -> SettingsPreview {
    let catalogue = roo_catalogue(context);
    let servers = roo_servers(context);
    let modes = settings
        .roo
        .modes
        .iter()
        .map(|mode| ModePreview { slug: mode.slug.clone(), servers: roo::ModePolicy::new(mode, &servers).filter_catalogue(&catalogue) })
        .collect();
    let gasoline = problem::gasoline_allowlist(&settings.gasoline.yaml).ok().map(|list| list.summary());
    SettingsPreview { gasoline, modes }
}

/// The layer one section of rules becomes.
fn layer(name: &str, kind: LayerKind, trusted: bool, rules: &LayerRules) -> LayerSpec {
    LayerSpec { name: name.into(), kind, trusted, default_mode: rules.default_mode, tools: rules.tools.clone(), ..LayerSpec::default() }
}

/// The name of the administrator's layer of tool rules in [`rules_policy`].
pub const MANAGED_LAYER: &str = "managed";

/// The policy the tool rules mean: Zed's shipped defaults (unless left out), the managed layer,
/// the user's and the project's layers (the project untrusted until the workspace is trusted),
/// under Zed's own switches, as [`zed::policy_from_sources`] builds them from settings files.
pub fn rules_policy(settings: &PageSettings, context: &PageContext) -> PolicySpec {
    let sources = zed::ZedSources { include_defaults: context.include_defaults, shell: context.shell, ..zed::ZedSources::default() };
    // Without settings texts there is nothing to read, so this cannot fail; were it to, the
    // layers below would still decide, under the standard gates.
    let mut spec = zed::policy_from_sources(&sources).unwrap_or_default();
    if let Some(managed) = &context.admin.managed {
        spec.layers.push(layer(MANAGED_LAYER, LayerKind::Managed, true, managed));
    }
    spec.layers.push(layer(zed::USER_LAYER, LayerKind::User, true, &settings.rules.user));
    spec.layers.push(layer(zed::PROJECT_LAYER, LayerKind::Project, context.project_trusted.unwrap_or(true), &settings.rules.project));
    spec
}

/// The settings Cursor's MCP decision reads: the user's list and protections, the administrator's state.
pub fn mcp_settings(settings: &PageSettings, context: &PageContext) -> McpSettings {
    let admin = &context.admin.mcp;
    McpSettings {
        mcp_allowed_tools: settings.mcp.mcp_allowed_tools.clone(),
        admin_mcp_allowed_tools: admin.admin_mcp_allowed_tools.clone(),
        mcp_tools_protection: settings.mcp.mcp_tools_protection,
        playwright_protection: settings.mcp.playwright_protection,
        is_disabled_by_admin: admin.is_disabled_by_admin,
        is_admin_controlled: admin.is_admin_controlled,
        ..McpSettings::default()
    }
}

/// Applies a permission option's change ("Always allow `cargo build`") to the user's or the
/// project's rules; a change to any other layer is refused (the managed layer is read-only).
pub fn apply_change(settings: &PageSettings, change: &SettingsChange) -> problem::Answer<PageSettings> {
    let target = match change.layer.as_str() {
        zed::USER_LAYER => &settings.rules.user,
        zed::PROJECT_LAYER => &settings.rules.project,
        other => {
            return Err(vec![problem(
                "readOnlyLayer",
                format!("The settings page writes to the user or the project layer, not to \"{other}\""),
                "rules".into(),
            )])
        }
    };
    let mut spec = PolicySpec { layers: vec![layer(&change.layer, LayerKind::User, true, target)], ..PolicySpec::default() };
    spec.apply(change);
    let mut updated = settings.clone();
    if let Some(changed) = spec.layers.into_iter().next() {
        let rules = LayerRules { default_mode: changed.default_mode, tools: changed.tools };
        match change.layer.as_str() {
            zed::USER_LAYER => updated.rules.user = rules,
            _ => updated.rules.project = rules,
        }
    }
    Ok(updated)
}

#[cfg(test)]
mod tests;
