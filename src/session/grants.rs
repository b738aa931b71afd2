//! Grants: what a person allowed, for how long, and as which rules of the one model.
//!
//! A grant is narrow: the allow rules the decision suggested for the parts of the call no rule
//! covered (a command and its subcommand, a directory, an origin, an MCP entry), or, for a tool
//! whose input cannot be narrowed (an opaque or custom tool), that tool's default. A command tool
//! is never granted whole. Session and timed grants are layers of their own, named
//! `grant:<id>`, after the policy's layers; workspace and user grants are changes to the
//! workspace's or user's layer, which the host persists.
//!
//! A grant means what it meant when it was made only while the tool's input is read the same way:
//! when a new policy describes the tool differently (an opaque tool becomes a command tool), a
//! grant that no longer [fits](GrantRules::fits) is dropped, so "the whole tool" never comes to
//! mean "every command".

use crate::policy::{ChangeKey, InputKind, LayerKind, LayerSpec, Outcome, PolicySpec, RuleSpec, SettingsChange, ToolRulesSpec};
use serde::{Deserialize, Serialize};

/// The prefix of a grant's layer name: `grant:g1`.
pub const GRANT_LAYER_PREFIX: &str = "grant:";

/// For how long an answer holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum AnswerScope {
    /// This call only.
    #[default]
    Once,
    /// Until the session ends.
    Session,
    /// Until the host's clock passes the grant's `expiresAt`.
    Timed,
    /// Always, in this workspace: written to the workspace's layer.
    Workspace,
    /// Always, for this user: written to the user's layer.
    User,
}

/// Who answered a call that asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Answerer {
    /// A person, at the prompt.
    #[default]
    User,
    /// A hook the host runs: it may refuse a call that asks, never allow it. In the approval
    /// flow hooks come from (Cursor's), a hook's "allow" does not lift a prompt; only a person does.
    Hook,
    /// An automatic reviewer (an LLM judge): only where the decision allows it, and only once.
    Reviewer,
}

/// What a grant allows: rules, or a whole tool that cannot be narrowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GrantRules {
    /// The tool.
    pub tool: String,
    /// Allow rules for the tool; empty when the grant is the whole tool.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub rules: Vec<RuleSpec>,
    /// The tool's input cannot be narrowed by a rule (an opaque or custom tool): the grant is its
    /// default. Never true for a command, path or URL tool.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub whole_tool: bool,
    /// What to show: `` `npm test` ``, `` `src/` ``, `github:create_issue`, `my_tool`.
    pub display: String,
}

/// Whether a tool whose input is read as `kind` is granted whole: no rule narrows an opaque input
/// or a query, so the grant is the tool's default. Every other kind is granted as narrow rules.
pub fn granted_whole(kind: InputKind) -> bool {
    matches!(kind, InputKind::Opaque | InputKind::Query)
}

impl GrantRules {
    /// Whether these rules are still a grant a prompt about the tool would offer, its input read
    /// as `kind`: the whole tool only while no rule narrows that input, and rules only of the
    /// kinds that narrow it (an MCP entry or a Gasoline pattern for an MCP call; a regular
    /// expression or a prefix for the rest).
    pub fn fits(&self, kind: InputKind) -> bool {
        if self.whole_tool {
            return granted_whole(kind);
        }
        self.rules.iter().all(|rule| match kind {
            InputKind::McpCall => rule.mcp.is_some() || rule.tool_action.is_some(),
            _ => rule.pattern.is_some() || rule.prefix.is_some(),
        })
    }

    /// The changes that write these rules into `layer`.
    pub fn changes(&self, layer: &str) -> Vec<SettingsChange> {
        if self.whole_tool {
            return vec![SettingsChange {
                layer: layer.to_owned(),
                tool: self.tool.clone(),
                key: ChangeKey::DefaultMode,
                mode: Some(Outcome::Allow),
                rule: None,
            }];
        }
        self.rules
            .iter()
            .map(|rule| SettingsChange {
                layer: layer.to_owned(),
                tool: self.tool.clone(),
                key: ChangeKey::AlwaysAllow,
                mode: None,
                rule: Some(rule.clone()),
            })
            .collect()
    }

    /// The layer a session or timed grant is.
    pub fn layer(&self, id: &str) -> LayerSpec {
        let rules = ToolRulesSpec {
            default_mode: self.whole_tool.then_some(Outcome::Allow),
            always_allow: self.rules.clone(),
            ..ToolRulesSpec::default()
        };
        LayerSpec {
            name: format!("{GRANT_LAYER_PREFIX}{id}"),
            kind: LayerKind::User,
            tools: [(self.tool.clone(), rules)].into_iter().collect(),
            ..LayerSpec::default()
        }
    }

    /// Takes these rules back out of `layer` of `spec` (a workspace or user grant revoked).
    pub fn remove_from(&self, spec: &mut PolicySpec, layer: &str) {
        let Some(tools) = spec.layers.iter_mut().find(|l| l.name == layer).map(|l| &mut l.tools) else { return };
        let Some(rules) = tools.get_mut(&self.tool) else { return };
        if self.whole_tool && rules.default_mode == Some(Outcome::Allow) {
            rules.default_mode = None;
        }
        rules.always_allow.retain(|rule| !self.rules.contains(rule));
    }
}

/// A grant in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Grant {
    /// `g1`, `g2`…: unique in the session.
    pub id: String,
    /// What it allows.
    #[serde(flatten)]
    pub allows: GrantRules,
    /// For how long: `session`, `timed`, `workspace` or `user`.
    pub scope: AnswerScope,
    /// When it was made (the host's clock).
    pub granted_at: u64,
    /// When it stops (timed grants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub expires_at: Option<u64>,
    /// Who made it.
    pub by: Answerer,
    /// The layer a workspace or user grant was written to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub layer: Option<String>,
}

impl Grant {
    /// Whether the grant still holds at `now`.
    pub fn holds_at(&self, now: u64) -> bool {
        self.expires_at.is_none_or(|end| now < end)
    }

    /// How a decision or a log record names it.
    pub fn reference(&self) -> GrantRef {
        GrantRef { id: self.id.clone(), scope: self.scope, expires_at: self.expires_at, display: self.allows.display.clone() }
    }
}

/// A grant as a decision or a log record names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GrantRef {
    /// The grant's id.
    pub id: String,
    /// For how long it holds.
    pub scope: AnswerScope,
    /// When it stops (timed grants).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub expires_at: Option<u64>,
    /// What it allows, to show.
    pub display: String,
}
