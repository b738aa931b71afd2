//! The rule model every dialect translates into, and its one evaluator.
//!
//! A policy is an ordered list of layers (managed, user, project, modes…), each with per-tool
//! rules: a `default_mode` and `always_allow` / `always_deny` / `always_confirm` regex lists.
//! Deny and confirm lists unite across layers and are never weakened by a later layer; allow
//! lists unite too; `default_mode` is taken from the last layer that sets it. Order:
//! hard-coded denies > deny > confirm > allow > tool default > global default.

mod evaluate;
mod hardcoded;
mod options;
pub mod path;
pub mod rules;

pub use evaluate::{Decision, DefaultSource, ItemVerdict, Outcome, Reason};
pub use options::{ChangeKey, OptionKind, PermissionOption, SettingsChange, Suggestion};
pub use rules::{ListKind, RuleRef};

use rules::{compile, CompiledRule, RuleSet};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a rule or default says about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Mode {
    Allow,
    Confirm,
    Deny,
}

/// The kind of a layer, for explanations and for where "always allow" writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum LayerKind {
    /// Shipped defaults (for example Zed's default deny rules).
    Defaults,
    /// Set by an administrator.
    Managed,
    #[default]
    User,
    Project,
    /// An agent mode's restrictions.
    Mode,
}

/// One regex rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RuleSpec {
    /// A regular expression, searched anywhere in the input (anchor with `^` and `$`).
    pub pattern: String,
    /// Default: false (case-insensitive).
    #[serde(default)]
    pub case_sensitive: bool,
}

/// The rules one layer sets for one tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ToolRulesSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Mode>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_allow: Vec<RuleSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_deny: Vec<RuleSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_confirm: Vec<RuleSpec>,
}

/// One settings layer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LayerSpec {
    pub name: String,
    #[serde(default)]
    pub kind: LayerKind,
    /// The layer's global default, used for tools without a `defaultMode` of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Mode>,
    /// Keyed by tool id: `terminal`, `edit_file`, …, or `mcp__<server>__<tool>`.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, ToolRulesSpec>"))]
    pub tools: BTreeMap<String, ToolRulesSpec>,
}

/// What to do with a terminal command whose text is not what runs ($VAR, $(…), …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum SubstitutionPolicy {
    /// Allow rules never cover it, and it asks when the tool has deny or confirm rules.
    #[default]
    Confirm,
    /// Denied unless the tool is allowed unconditionally (Zed's behaviour).
    Deny,
}

/// What an invalid pattern does to its tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum InvalidPatternPolicy {
    /// An invalid deny pattern denies the tool, an invalid confirm pattern makes it ask;
    /// an invalid allow pattern allows nothing.
    #[default]
    FailClosed,
    /// Any invalid pattern denies the tool (Zed's behaviour).
    BlockTool,
}

/// The shell terminal commands run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ShellKind {
    /// sh, bash, zsh, fish's POSIX-like chaining: commands are analysed per sub-command.
    #[default]
    Posix,
    /// A shell whose syntax is not analysed (PowerShell, cmd): allow rules for the terminal are
    /// refused outright, and deny and confirm rules see the raw command only.
    Other,
}

/// A whole policy, as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PolicySpec {
    /// Highest authority first: later layers may override defaults but never weaken deny or confirm.
    #[serde(default)]
    pub layers: Vec<LayerSpec>,
    /// Used when no layer sets a default. Default: confirm.
    #[serde(default = "confirm")]
    pub default_mode: Mode,
    /// Legacy: a fallback of "confirm" becomes "allow". Deny and confirm rules still win.
    #[serde(default)]
    pub always_allow_tool_actions: bool,
    #[serde(default)]
    pub substitutions: SubstitutionPolicy,
    #[serde(default)]
    pub invalid_patterns: InvalidPatternPolicy,
    #[serde(default)]
    pub shell: ShellKind,
}

fn confirm() -> Mode {
    Mode::Confirm
}

impl Default for PolicySpec {
    fn default() -> Self {
        PolicySpec {
            layers: Vec::new(),
            default_mode: Mode::Confirm,
            always_allow_tool_actions: false,
            substitutions: SubstitutionPolicy::Confirm,
            invalid_patterns: InvalidPatternPolicy::FailClosed,
            shell: ShellKind::Posix,
        }
    }
}

/// A pattern that did not compile: where it is and what the regex engine said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct InvalidPattern {
    pub layer: String,
    pub tool: String,
    pub list: ListKind,
    pub index: usize,
    pub pattern: String,
    pub error: String,
}

/// Everything the policy says about one tool, united across layers.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolIndex {
    pub deny: RuleSet,
    pub confirm: RuleSet,
    pub allow: RuleSet,
    /// The default from the last layer that sets one, with that layer's name.
    pub default_mode: Option<(Mode, String)>,
    pub invalid: Vec<InvalidPattern>,
}

impl ToolIndex {
    fn list(&mut self, kind: ListKind) -> &mut RuleSet {
        match kind {
            ListKind::AlwaysAllow => &mut self.allow,
            ListKind::AlwaysDeny => &mut self.deny,
            ListKind::AlwaysConfirm => &mut self.confirm,
        }
    }

    pub fn has_restrictions(&self) -> bool {
        !self.deny.is_empty() || !self.confirm.is_empty() || self.invalid.iter().any(|p| p.list != ListKind::AlwaysAllow)
    }
}

/// A policy compiled for deciding: build once, decide many calls.
#[derive(Debug, Clone)]
pub struct Policy {
    spec: PolicySpec,
    tools: FxHashMap<String, ToolIndex>,
    /// The global default from the last layer that sets one.
    layer_default: Option<(Mode, String)>,
    invalid: Vec<InvalidPattern>,
}

impl Policy {
    /// Compiles every pattern. Invalid patterns never fail the load: they are reported by
    /// [`Policy::invalid_patterns`] and make their tool fail closed.
    pub fn new(spec: PolicySpec) -> Self {
        let mut tools: FxHashMap<String, ToolIndex> = FxHashMap::default();
        let mut layer_default = None;
        let mut invalid = Vec::new();
        for layer in &spec.layers {
            if let Some(mode) = layer.default_mode {
                layer_default = Some((mode, layer.name.clone()));
            }
            for (tool, rules) in &layer.tools {
                let index = tools.entry(tool.clone()).or_default();
                if let Some(mode) = rules.default_mode {
                    index.default_mode = Some((mode, layer.name.clone()));
                }
                for (kind, list) in [
                    (ListKind::AlwaysDeny, &rules.always_deny),
                    (ListKind::AlwaysConfirm, &rules.always_confirm),
                    (ListKind::AlwaysAllow, &rules.always_allow),
                ] {
                    for (i, rule) in list.iter().enumerate() {
                        let origin = RuleRef {
                            layer: layer.name.clone(),
                            tool: tool.clone(),
                            list: kind,
                            index: i,
                            pattern: rule.pattern.clone(),
                        };
                        match compile(&rule.pattern, rule.case_sensitive) {
                            Ok(regex) => {
                                let compiled = CompiledRule::new(regex, origin, &rule.pattern, rule.case_sensitive);
                                index.list(kind).push(compiled, &rule.pattern, rule.case_sensitive);
                            }
                            Err(error) => {
                                let bad = InvalidPattern {
                                    layer: layer.name.clone(),
                                    tool: tool.clone(),
                                    list: kind,
                                    index: i,
                                    pattern: rule.pattern.clone(),
                                    error,
                                };
                                index.invalid.push(bad.clone());
                                invalid.push(bad);
                            }
                        }
                    }
                }
            }
        }
        Policy { spec, tools, layer_default, invalid }
    }

    pub fn spec(&self) -> &PolicySpec {
        &self.spec
    }

    /// Every pattern that did not compile, with its layer, tool, list, index and error.
    pub fn invalid_patterns(&self) -> &[InvalidPattern] {
        &self.invalid
    }

    pub(crate) fn tool(&self, tool: &str) -> Option<&ToolIndex> {
        self.tools.get(tool)
    }

    /// The fallback for a tool: its own default, else the layers' global default, else the policy's.
    pub(crate) fn default_for(&self, tool: Option<&ToolIndex>) -> (Mode, DefaultSource) {
        if let Some((mode, layer)) = tool.and_then(|t| t.default_mode.clone()) {
            return (mode, DefaultSource::Tool { layer });
        }
        if let Some((mode, layer)) = self.layer_default.clone() {
            return (mode, DefaultSource::Global { layer: Some(layer) });
        }
        (self.spec.default_mode, DefaultSource::Global { layer: None })
    }
}

#[cfg(test)]
mod tests;
