//! The Zed dialect (Zed's design and Zed's current `tool_permissions`): `agent.tool_permissions`
//! from user and project settings files (JSON with comments and trailing commas), translated
//! into the one rule model with Zed's own switches — substitutions in terminal commands are
//! denied unless the tool is allowed unconditionally, and any invalid pattern blocks its tool.

use crate::input::InputError;
use crate::policy::{
    ChangeKey, InputKind, InvalidPatternPolicy, LayerKind, LayerSpec, Outcome, PolicySpec, RuleSpec, SettingsChange, SubstitutionPolicy,
    ToolRulesSpec, UnparsedPolicy,
};
use crate::shell::Shell;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The layer of Zed's shipped default rules. A Zed policy's layers are this one, then
/// [`USER_LAYER`], then [`PROJECT_LAYER`] (highest authority first).
pub const DEFAULTS_LAYER: &str = "zed-defaults";
/// The layer of the user's settings file.
pub const USER_LAYER: &str = "user";
/// The layer of the project's `.zed/settings.json`.
pub const PROJECT_LAYER: &str = "project";

/// The default terminal deny rules of Zed's design's `default.json`. The fork-bomb pattern is
/// escaped here: written as in the design (`:(){ :|:& };:`) it is not a valid regex, and an
/// invalid pattern blocks the whole tool.
pub const DEFAULT_TERMINAL_DENY: [&str; 10] = [
    r#"rm\s+-rf\s+(/|\.\.|"|~|\*|\$)"#,
    r"> /dev/sd",
    r"mkfs\.",
    r"dd\s+if=/dev/",
    r":\(\)\{ :\|:& \};:",
    r"/etc/passwd",
    r"/etc/shadow",
    r"del /f /s /q c:\\",
    r"format c:",
    r"rd /s /q c:\\",
];

#[derive(Debug, Default, Deserialize)]
struct ZedRule {
    pattern: String,
    #[serde(default)]
    case_sensitive: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
struct ZedToolRules {
    /// Current Zed spells it `default`; the design `default_mode`.
    #[serde(default, alias = "default_mode")]
    default: Option<Outcome>,
    #[serde(default)]
    always_allow: Option<Vec<ZedRule>>,
    #[serde(default)]
    always_deny: Option<Vec<ZedRule>>,
    #[serde(default)]
    always_confirm: Option<Vec<ZedRule>>,
}

#[derive(Debug, Default, Deserialize)]
struct ZedToolPermissions {
    #[serde(default)]
    default: Option<Outcome>,
    #[serde(default)]
    tools: BTreeMap<String, ZedToolRules>,
}

fn rules(list: Option<Vec<ZedRule>>) -> Vec<RuleSpec> {
    list.unwrap_or_default().into_iter().map(|r| RuleSpec::regex(r.pattern, r.case_sensitive.unwrap_or(false))).collect()
}

/// Parses one settings file's text: JSON with comments and trailing commas.
pub fn parse_settings(which: &str, text: &str) -> Result<Value, InputError> {
    if let Some(why) = crate::limits::settings_too_large(text) {
        return Err(InputError { what: format!("{which} settings"), path: String::new(), message: why, line: None, column: None });
    }
    crate::jsonc::parse(text).map_err(|e| InputError {
        what: format!("{which} settings"),
        path: String::new(),
        message: e.to_string(),
        line: Some(e.line),
        column: Some(e.column),
    })
}

/// The layer one settings file contributes, and its `always_allow_tool_actions`.
fn layer_from_settings(name: &str, kind: LayerKind, trusted: bool, settings: &Value) -> Result<(LayerSpec, Option<bool>), InputError> {
    let agent = settings.get("agent");
    let legacy = agent.and_then(|a| a.get("always_allow_tool_actions")).and_then(Value::as_bool);
    let permissions = match agent.and_then(|a| a.get("tool_permissions")) {
        None | Some(Value::Null) => ZedToolPermissions::default(),
        // Read back from compact JSON, so a bad field is named by the same means as everywhere.
        Some(value) => crate::input::from_json(&format!("{name} settings"), &value.to_string()).map_err(|e| InputError {
            path: if e.path == "." { "agent.tool_permissions".to_owned() } else { format!("agent.tool_permissions.{}", e.path) },
            ..e
        })?,
    };
    let tools = crate::policy::tool_map(permissions.tools.into_iter().map(|(tool, r)| {
        let spec = ToolRulesSpec {
            default_mode: r.default,
            always_allow: rules(r.always_allow),
            always_deny: rules(r.always_deny),
            always_confirm: rules(r.always_confirm),
        };
        (tool, spec)
    }));
    Ok((LayerSpec { name: name.to_owned(), kind, trusted, default_mode: permissions.default, tools, ..LayerSpec::default() }, legacy))
}

/// The shipped defaults as a layer: Zed's default terminal deny rules.
pub fn defaults_layer() -> LayerSpec {
    let deny = DEFAULT_TERMINAL_DENY.iter().map(|p| RuleSpec::regex(*p, false)).collect();
    let terminal = ToolRulesSpec { always_deny: deny, ..ToolRulesSpec::default() };
    LayerSpec {
        name: DEFAULTS_LAYER.into(),
        kind: LayerKind::Defaults,
        tools: [(TERMINAL.to_owned(), terminal)].into_iter().collect(),
        ..LayerSpec::default()
    }
}

/// Zed's terminal tool.
pub const TERMINAL: &str = "terminal";

/// Where Zed's settings come from, and how far to trust the project's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ZedSources {
    /// The text of the user's settings.json (comments and trailing commas allowed).
    #[serde(default)]
    pub user: Option<String>,
    /// The text of the project's .zed/settings.json.
    #[serde(default)]
    pub project: Option<String>,
    /// Include Zed's shipped default deny rules. Default: true.
    #[serde(default)]
    pub include_defaults: Option<bool>,
    /// The terminal's shell. Default: posix.
    #[serde(default)]
    pub shell: Option<Shell>,
    /// Whether the user trusts the project (its worktree). An untrusted project may only make
    /// decisions stricter. Default: true.
    #[serde(default)]
    pub project_trusted: Option<bool>,
}

/// Builds the policy Zed would apply from user and project settings texts.
pub fn policy_from_settings(user: Option<&str>, project: Option<&str>, include_defaults: bool) -> Result<PolicySpec, InputError> {
    policy_from_sources(&ZedSources {
        user: user.map(str::to_owned),
        project: project.map(str::to_owned),
        include_defaults: Some(include_defaults),
        ..ZedSources::default()
    })
}

/// Builds the policy Zed would apply: its catalogue (with the terminal's shell), the default
/// deny rules, the user's and the project's layers, and Zed's own switches — substitutions and
/// lines that do not parse are denied unless the tool is allowed unconditionally, and any invalid
/// pattern blocks its tool.
pub fn policy_from_sources(sources: &ZedSources) -> Result<PolicySpec, InputError> {
    let mut layers = Vec::new();
    if sources.include_defaults.unwrap_or(true) {
        layers.push(defaults_layer());
    }
    let project_trusted = sources.project_trusted.unwrap_or(true);
    let mut legacy = None;
    for (name, kind, trusted, text) in
        [(USER_LAYER, LayerKind::User, true, &sources.user), (PROJECT_LAYER, LayerKind::Project, project_trusted, &sources.project)]
    {
        let Some(text) = text else { continue };
        let settings = parse_settings(name, text)?;
        let (layer, layer_legacy) = layer_from_settings(name, kind, trusted, &settings)?;
        // An untrusted project cannot switch on "always allow tool actions" either.
        if trusted {
            legacy = layer_legacy.or(legacy);
        }
        layers.push(layer);
    }
    let shell = sources.shell.unwrap_or_default();
    Ok(PolicySpec {
        layers,
        default_mode: Outcome::Confirm,
        always_allow_tool_actions: legacy.unwrap_or(false),
        substitutions: SubstitutionPolicy::Deny,
        invalid_patterns: InvalidPatternPolicy::BlockTool,
        unparsed_commands: UnparsedPolicy::Deny,
        tool_kinds: [(TERMINAL.to_owned(), InputKind::Command { shell })].into_iter().collect(),
        ..PolicySpec::default()
    })
}

/// The object at `path`, creating empty objects on the way; an error names the first
/// setting on the way that is not an object.
fn object_at<'a>(root: &'a mut Value, path: &[&str]) -> Result<&'a mut Map<String, Value>, String> {
    let mut current = root;
    for (depth, key) in path.iter().enumerate() {
        let map = current.as_object_mut().ok_or_else(|| not_an_object(path.get(..depth).unwrap_or_default()))?;
        current = map.entry((*key).to_owned()).or_insert_with(|| Value::Object(Map::new()));
    }
    current.as_object_mut().ok_or_else(|| not_an_object(path))
}

fn not_an_object(path: &[&str]) -> String {
    let place = if path.is_empty() { "the settings".to_owned() } else { format!("\"{}\"", path.join(".")) };
    format!("cannot write the change: {place} is not an object")
}

/// Applies a permission option's change to a parsed Zed settings object, the way the
/// "Always allow" buttons write it: `tools.<tool>.default = "allow"` or a new `always_allow` rule.
/// On error nothing is changed: the input is never modified, a new object is returned.
pub fn apply_change(settings: &Value, change: &SettingsChange) -> Result<Value, String> {
    let mut updated = settings.clone();
    let tool = object_at(&mut updated, &["agent", "tool_permissions", "tools", change.tool.as_str()])?;
    match change.key {
        ChangeKey::DefaultMode => {
            let key = if tool.contains_key("default_mode") && !tool.contains_key("default") { "default_mode" } else { "default" };
            let mode = match change.mode {
                Some(Outcome::Allow) | None => "allow",
                Some(Outcome::Confirm) => "confirm",
                Some(Outcome::Deny) => "deny",
            };
            tool.insert(key.to_owned(), json!(mode));
        }
        ChangeKey::AlwaysAllow => {
            let Some(rule) = &change.rule else { return Err("an always_allow change needs a rule".into()) };
            let list = tool.entry("always_allow".to_owned()).or_insert_with(|| json!([]));
            let list =
                list.as_array_mut().ok_or_else(|| format!("cannot write the change: always_allow of {} is not a list", change.tool))?;
            let Some(pattern) = &rule.pattern else {
                return Err("Zed's always_allow rules are regex patterns; this change has none".into());
            };
            if !list.iter().any(|e| e.get("pattern") == Some(&json!(pattern))) {
                let entry =
                    if rule.case_sensitive { json!({"pattern": pattern, "case_sensitive": true}) } else { json!({"pattern": pattern}) };
                list.push(entry);
            }
        }
    }
    Ok(updated)
}

#[cfg(test)]
mod tests;
